/// A spherical-harmonic model of the Earth's main magnetic field with linear secular
/// variation, such as the World Magnetic Model (WMM).
///
/// Evaluation follows the WMM technical report: the geodetic position on WGS84 is converted to
/// geocentric spherical coordinates, the degree-12 series gives the field in that frame, and
/// the components are rotated by φ′ − φ into the local north-east-down frame. Evaluation is
/// pure, allocates nothing and is safe to call from any thread.
///
/// ```swift
/// let field = MagneticModel.wmm2025.field(
///     latitudeDegrees: 48.8584, longitudeDegrees: 2.2945,
///     heightAboveEllipsoidKilometers: 0.1, decimalYear: 2026.5)
/// let trueHeadingDegrees = magneticHeadingDegrees + field.declinationDegrees
/// ```
public struct MagneticModel: Sendable {
    /// The largest degree n of the series. WMM stops at 12; the COF files have exactly the
    /// terms 1 ≤ n ≤ 12, 0 ≤ m ≤ n.
    public static let maximumDegree = 12
    /// Geomagnetic reference radius a of the series, kilometres (the mean Earth radius WMM
    /// uses; not the WGS84 semi-major axis).
    public static let referenceRadiusKilometers = 6371.2
    /// Latitude of a pole, degrees.
    static let poleLatitudeDegrees = 90.0

    /// Model name as written in the coefficient file header, for example `WMM-2025`.
    public let name: String
    /// Release date as written in the coefficient file header, for example `11/13/2024`.
    public let releaseDate: String
    /// Epoch of the coefficients, decimal year (2025.0 for WMM2025).
    public let epochYear: Double
    /// First decimal year the model is valid for (inclusive).
    public let validFromYear: Double
    /// Last decimal year the model is valid for (inclusive); the field is still computed
    /// outside the interval, by extrapolating the secular variation.
    public let validUntilYear: Double
    /// The coefficients exactly as the coefficient file lists them: by degree, then order.
    public let coefficients: [GaussCoefficient]
    /// The model's published 1σ error model.
    public let errorModel: MagneticErrorModel

    /// Coefficients and recursion constants, indexed by `SphericalHarmonicTerm.index`.
    let terms: [SphericalHarmonicTerm]

    /// Builds a model from a complete coefficient table.
    ///
    /// Terms outside 1 ≤ n ≤ `maximumDegree`, 0 ≤ m ≤ n are ignored and missing terms count
    /// as zero, so a malformed table gives a wrong field rather than a trap; the test suite
    /// checks that the compiled-in table matches its coefficient file exactly.
    init(
        name: String, releaseDate: String, epochYear: Double, validFromYear: Double,
        validUntilYear: Double, coefficients: [GaussCoefficient], errorModel: MagneticErrorModel
    ) {
        self.name = name
        self.releaseDate = releaseDate
        self.epochYear = epochYear
        self.validFromYear = validFromYear
        self.validUntilYear = validUntilYear
        self.coefficients = coefficients
        self.errorModel = errorModel

        var terms: [SphericalHarmonicTerm] = []
        terms.reserveCapacity(SphericalHarmonicTerm.count(maximumDegree: Self.maximumDegree))
        for n in 1...Self.maximumDegree {
            for m in 0...n {
                terms.append(SphericalHarmonicTerm(degree: n, order: m))
            }
        }
        for coefficient in coefficients {
            let n = coefficient.degree
            let m = coefficient.order
            guard n >= 1, n <= Self.maximumDegree, m >= 0, m <= n else { continue }
            let index = SphericalHarmonicTerm.index(degree: n, order: m)
            terms[index].g = coefficient.gNanotesla
            terms[index].h = coefficient.hNanotesla
            terms[index].gRate = coefficient.gRateNanoteslaPerYear
            terms[index].hRate = coefficient.hRateNanoteslaPerYear
        }
        self.terms = terms
    }

    /// Whether a decimal year lies in the model's validity interval
    /// [`validFromYear`, `validUntilYear`]. NaN is not valid.
    ///
    /// - Parameter decimalYear: The date as a decimal year (see `DecimalYear`).
    public func isValid(decimalYear: Double) -> Bool {
        decimalYear >= validFromYear && decimalYear <= validUntilYear
    }

    /// The magnetic field, its secular variation and its uncertainty at a place and time.
    ///
    /// Defined for every input, never trapping:
    /// - latitudes beyond ±90° are clamped to the pole; the poles themselves are exact
    ///   (declination and the north/east components then refer to the meridian of the given
    ///   longitude, the limit along it);
    /// - any longitude is accepted;
    /// - a date outside the validity interval is still evaluated by extrapolation and flagged
    ///   with `isWithinValidity == false`;
    /// - a NaN or infinite input gives NaN field values, zone `.blackout` and no grid
    ///   variation.
    ///
    /// - Parameters:
    ///   - latitudeDegrees: Geodetic latitude on WGS84, degrees, positive north.
    ///   - longitudeDegrees: Longitude, degrees, positive east.
    ///   - heightAboveEllipsoidKilometers: Height above the WGS84 ellipsoid (GPS "HAE", not
    ///     mean sea level), kilometres. The model is specified from −1 km to 850 km.
    ///   - decimalYear: The date as a decimal year, for example 2026.49863 for 2026-07-02
    ///     (see `DecimalYear.from(year:month:day:hour:minute:second:)`).
    /// - Returns: The field in the local north-east-down frame with its derived elements.
    public func field(
        latitudeDegrees: Double, longitudeDegrees: Double,
        heightAboveEllipsoidKilometers: Double, decimalYear: Double
    ) -> MagneticField {
        // Clamp rather than reject: GPS jitter can report 90.0000001, and the pole is the
        // nearest real place. min/max keep a NaN latitude NaN.
        let pole = Self.poleLatitudeDegrees
        let latitude = Swift.min(Swift.max(latitudeDegrees, -pole), pole)
        let position = GeocentricSphericalPosition(
            latitudeDegrees: latitude, longitudeDegrees: longitudeDegrees,
            heightAboveEllipsoidKilometers: heightAboveEllipsoidKilometers)
        let geocentric = geocentricField(at: position, yearsSinceEpoch: decimalYear - epochYear)

        // Rotate X′ and Z′ by φ′ − φ into the geodetic frame; Y′ is already horizontal.
        let sinRotation = position.sinLatitudeDifference
        let cosRotation = position.cosLatitudeDifference
        let field = geocentric.field
        let rate = geocentric.rate
        let north = field.north * cosRotation - field.down * sinRotation
        let down = field.north * sinRotation + field.down * cosRotation
        let northRate = rate.north * cosRotation - rate.down * sinRotation
        let downRate = rate.north * sinRotation + rate.down * cosRotation

        return MagneticField(
            northNanotesla: north, eastNanotesla: field.east, downNanotesla: down,
            northRateNanoteslaPerYear: northRate, eastRateNanoteslaPerYear: rate.east,
            downRateNanoteslaPerYear: downRate,
            latitudeDegrees: latitude, longitudeDegrees: longitudeDegrees,
            isWithinValidity: isValid(decimalYear: decimalYear), errorModel: errorModel)
    }
}
