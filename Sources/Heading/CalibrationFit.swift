#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hard- and soft-iron calibration from raw magnetometer samples taken while the device is
/// turned through every orientation (a figure-eight), by fitting an ellipsoid.
///
/// The samples of an undistorted magnetometer lie on a sphere of radius F (the local field);
/// hard iron moves its centre and soft iron stretches it into an ellipsoid. The fit solves for
/// the quadric `a x² + b y² + c z² + 2d xy + 2e xz + 2f yz + 2g x + 2h y + 2i z = 1` by least
/// squares (on samples centred at their mean, for conditioning), takes the centre as the
/// hard-iron offset, and the symmetric square root of the normalised quadric, scaled to F, as
/// the soft-iron matrix. Coverage and fit-error checks, in the spirit of MotionCal, refuse a
/// calibration that the samples cannot support and say what is missing.
public struct CalibrationFit: Sendable {
    /// What a calibration is judged by.
    public struct Quality: Sendable, Hashable {
        /// RMS of (|calibrated| − F) / F, percent.
        public var fitErrorPercent: Double
        /// Of 26 evenly spread directions, those with a sample within 30°, percent.
        public var coveragePercent: Double
        /// The field strength the fit implies before scaling, microtesla, to compare with the
        /// model's F: far off means a wrong sensor scale or a strong local field.
        public var fittedFieldMicrotesla: Double
        /// The model's total intensity it was scaled to, microtesla.
        public var referenceFieldMicrotesla: Double
        /// Samples used.
        public var sampleCount: Int
    }

    /// Why a calibration was refused.
    public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// Fewer samples than `minimumSamples`.
        case tooFewSamples(have: Int, need: Int)
        /// Directions of the sensor that were never turned towards the field: how to hold the
        /// device for each (``missingDirections(octantCounts:inclinationDegrees:)``), or
        /// body-frame octant names such as `forward-right-down` without the field's inclination.
        case missingDirections([String])
        /// The samples do not form an ellipsoid (a stuck axis, a constant field).
        case notAnEllipsoid
        /// The ellipsoid fits too poorly: the field changed during the turn, or interference.
        case poorFit(percent: Double)

        public var description: String {
            switch self {
            case .tooFewSamples(let have, let need):
                return "too few samples: \(have) of at least \(need); keep turning the device"
            case .missingDirections(let names):
                return "not enough coverage; still to do: " + names.joined(separator: "; ")
                    + " (turn the device through a figure-eight so every side faces north and down)"
            case .notAnEllipsoid:
                return "the samples do not form an ellipsoid: is the magnetometer stuck or saturated?"
            case .poorFit(let percent):
                return "the fit is poor (\(Int(percent.rounded())) % error): move away from steel and magnets and try again"
            }
        }
    }

    /// Samples needed for a fit.
    public static let minimumSamples = 150
    /// Samples needed in each octant of directions.
    public static let minimumSamplesPerOctant = 8
    /// Largest acceptable fit error, percent.
    public static let maximumFitErrorPercent = 5.0

    /// The most samples kept (a minute at 50 Hz); past it, each new sample replaces the oldest,
    /// so a long calibration stays bounded in memory and follows the latest turns.
    public static let maximumSamples = 3000

    private var samples: [Vector3] = []
    /// Where the next sample goes once ``maximumSamples`` are kept.
    private var oldest = 0

    /// An empty fit.
    public init() {}

    /// Samples kept so far (at most ``maximumSamples``).
    public var count: Int { samples.count }
    /// Samples added so far, those since replaced included: it grows with every sample, where
    /// ``count`` stops at the bound.
    public private(set) var added = 0

    /// Adds one raw sample (microtesla, body frame); non-finite samples are ignored.
    public mutating func add(_ rawMicrotesla: Vector3) {
        guard rawMicrotesla.isFinite else { return }
        added += 1
        if samples.count < Self.maximumSamples {
            samples.append(rawMicrotesla)
        } else {
            samples[oldest] = rawMicrotesla
            oldest = (oldest + 1) % Self.maximumSamples
        }
    }

    /// Forgets all samples.
    public mutating func reset() {
        samples.removeAll(keepingCapacity: true)
        oldest = 0
        added = 0
    }

    /// How many samples fall in each octant around the rough centre (the midpoint of the
    /// extremes): the progress a calibration UI shows.
    public var octantCounts: [Int] {
        guard let first = samples.first else { return Array(repeating: 0, count: 8) }
        var low = first
        var high = first
        for s in samples {
            low = Vector3(min(low.x, s.x), min(low.y, s.y), min(low.z, s.z))
            high = Vector3(max(high.x, s.x), max(high.y, s.y), max(high.z, s.z))
        }
        let centre = (low + high) / 2
        var counts = Array(repeating: 0, count: 8)
        for s in samples { counts[Self.octant(of: s - centre)] += 1 }
        return counts
    }

    /// Fits a calibration scaled to the model field.
    /// - Parameters:
    ///   - referenceFieldMicrotesla: the local total intensity F (WMM at the place).
    ///   - inclinationDegrees: the field's inclination there, when known: a refusal for missing
    ///     directions then says how to hold the device.
    /// - Returns: the calibration and its quality.
    /// - Throws: `Refusal` saying what is wrong or missing.
    public func fit(
        referenceFieldMicrotesla: Double, inclinationDegrees: Double? = nil
    ) throws(Refusal) -> (calibration: MagneticCalibration, quality: Quality) {
        guard samples.count >= Self.minimumSamples else {
            throw .tooFewSamples(have: samples.count, need: Self.minimumSamples)
        }
        let counts = octantCounts
        let missing = Self.missingDirections(octantCounts: counts, inclinationDegrees: inclinationDegrees)
        guard missing.isEmpty else { throw .missingDirections(missing) }

        let mean = samples.reduce(Vector3.zero, +) / Double(samples.count)
        // Scale the centred samples to about unit size so the normal equations are well conditioned.
        let scale = max(1e-9, samples.reduce(0) { max($0, ($1 - mean).length) })
        var normal = [[Double]](repeating: [Double](repeating: 0, count: 10), count: 9)
        for s in samples {
            let p = (s - mean) / scale
            let row = [p.x * p.x, p.y * p.y, p.z * p.z, 2 * p.x * p.y, 2 * p.x * p.z, 2 * p.y * p.z, 2 * p.x, 2 * p.y, 2 * p.z]
            for i in 0..<9 {
                for j in 0..<9 { normal[i][j] += row[i] * row[j] }
                normal[i][9] += row[i]
            }
        }
        guard let p = Self.solve(normal) else { throw .notAnEllipsoid }
        let a = Matrix3(Vector3(p[0], p[3], p[4]), Vector3(p[3], p[1], p[5]), Vector3(p[4], p[5], p[2]))
        guard let aInverse = a.inverse else { throw .notAnEllipsoid }
        let centreScaled = -(aInverse * Vector3(p[6], p[7], p[8]))
        let k = 1 + centreScaled.dot(a * centreScaled)
        guard k > 0 else { throw .notAnEllipsoid }
        let (values, vectors) = (a * (1 / k)).symmetricEigen
        guard values.x > 0, values.y > 0, values.z > 0 else { throw .notAnEllipsoid }
        // Q^½ maps the ellipsoid onto the unit sphere; undo the sample scaling and scale to F.
        let root = vectors * Matrix3.diagonal(Vector3(values.x.squareRoot(), values.y.squareRoot(), values.z.squareRoot()))
            * vectors.transposed
        let matrix = root * (referenceFieldMicrotesla / scale)
        let offset = mean + centreScaled * scale
        let calibration = MagneticCalibration(offsetMicrotesla: offset, matrix: matrix)

        let residuals = samples.map { (calibration.apply($0).length - referenceFieldMicrotesla) / referenceFieldMicrotesla }
        let fitError = (residuals.reduce(0) { $0 + $1 * $1 } / Double(residuals.count)).squareRoot() * 100
        guard fitError <= Self.maximumFitErrorPercent else { throw .poorFit(percent: fitError) }
        // The geometric-mean semi-axis of the fitted ellipsoid in raw units: the eigenvalues
        // are 1 / r², so (r₁r₂r₃)^⅓ = (λ₁λ₂λ₃)^(−⅙).
        let radius = scale * cbrt(1 / (values.x * values.y * values.z).squareRoot())
        let quality = Quality(
            fitErrorPercent: fitError, coveragePercent: Self.coveragePercent(samples.map { $0 - offset }),
            fittedFieldMicrotesla: radius,
            referenceFieldMicrotesla: referenceFieldMicrotesla, sampleCount: samples.count)
        return (calibration, quality)
    }

    // MARK: - Helpers

    /// The 26 directions of a cube's faces, edges and corners.
    static let coverageDirections: [Vector3] = {
        var directions: [Vector3] = []
        for x in -1...1 {
            for y in -1...1 {
                for z in -1...1 where x != 0 || y != 0 || z != 0 {
                    directions.append(Vector3(Double(x), Double(y), Double(z)).normalized)
                }
            }
        }
        return directions
    }()

    /// Share of the 26 directions with a sample within 30°, percent: how evenly the turn
    /// covered the sphere.
    static func coveragePercent(_ centred: [Vector3]) -> Double {
        let threshold = 0.866  // cos 30°
        let units = centred.map(\.normalized)
        let covered = coverageDirections.filter { direction in units.contains { $0.dot(direction) >= threshold } }
        return Double(covered.count) * 100 / Double(coverageDirections.count)
    }

    /// Octant index from the signs of x, y, z.
    static func octant(of v: Vector3) -> Int { (v.x >= 0 ? 1 : 0) | (v.y >= 0 ? 2 : 0) | (v.z >= 0 ? 4 : 0) }

    /// `forward-right-down` and the like, in the body frame (x forward, y right, z down).
    static func octantName(_ index: Int) -> String {
        [index & 1 != 0 ? "forward" : "back", index & 2 != 0 ? "right" : "left", index & 4 != 0 ? "down" : "up"]
            .joined(separator: "-")
    }

    /// How to hold the device so that the field lies in octant `index` of it, in words: the
    /// field's inclination (degrees, positive down) says where it points. Where it is steep
    /// (at least 45°, most of the inhabited world) the octant is a tilt: the field along +x
    /// means the nose points toward it, down in the north; where it is shallow, it points
    /// north, and the octant is which way the device faces.
    static func posture(ofOctant index: Int, inclinationDegrees: Double) -> String {
        let (forward, right, down) = (index & 1 != 0, index & 2 != 0, index & 4 != 0)
        guard abs(inclinationDegrees) >= 45 else {
            return "hold it nose to the \(forward ? "north" : "south"), \(right ? "right" : "left") side to the north, "
                + "face to the \(down ? "south" : "north")"
        }
        // The field points down in the north: flip the signs where it points up.
        let upward = inclinationDegrees < 0
        let noseDown = forward != upward
        let rightDown = right != upward
        let faceUp = down != upward
        let tilt = "nose-\(noseDown ? "down" : "up") and to the \(rightDown ? "right" : "left")"
        return faceUp ? "tilt it \(tilt)" : "turn it face-down, \(tilt)"
    }

    /// The octants with enough samples, as a bit mask (bit `i`: octant `i`).
    public var filledOctants: UInt8 {
        var mask: UInt8 = 0
        for (index, count) in octantCounts.enumerated() where count >= Self.minimumSamplesPerOctant { mask |= 1 << index }
        return mask
    }

    /// The directions still short of samples, given ``octantCounts`` (a pass over every
    /// sample, made once by the caller), in words (``posture(ofOctant:inclinationDegrees:)``),
    /// or as body-frame octant names without the field's inclination.
    public static func missingDirections(octantCounts: [Int], inclinationDegrees: Double?) -> [String] {
        octantCounts.enumerated().filter { $0.element < minimumSamplesPerOctant }.map { index, _ in
            inclinationDegrees.map { posture(ofOctant: index, inclinationDegrees: $0) } ?? octantName(index)
        }
    }

    /// Solves an n×(n+1) augmented system by Gaussian elimination with partial pivoting.
    static func solve(_ augmented: [[Double]]) -> [Double]? {
        var m = augmented
        let n = m.count
        for column in 0..<n {
            let pivot = (column..<n).max { abs(m[$0][column]) < abs(m[$1][column]) }!
            guard abs(m[pivot][column]) > 1e-12 else { return nil }
            m.swapAt(column, pivot)
            for row in (column + 1)..<n {
                let factor = m[row][column] / m[column][column]
                if factor == 0 { continue }
                for k in column...n { m[row][k] -= factor * m[column][k] }
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = m[row][n]
            for k in (row + 1)..<n { sum -= m[row][k] * x[k] }
            x[row] = sum / m[row][row]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }
}
