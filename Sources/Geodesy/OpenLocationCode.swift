#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Open Location Code ("plus codes"), as its specification defines them
/// (github.com/google/open-location-code, `Documentation/Specification/specification.md`): a
/// code names a cell of a grid, from 20° × 20° (2 digits) down to about 3 m × 3 m (11 digits) and
/// below; a short code (`CJ+2VX`) drops leading digits and is recovered against a reference
/// position. Pure. Arithmetic is on integers of the finest cell (latitude in units of
/// 1/2.5e7 degree, longitude in 1/8.192e6), as the specification asks, so that no code decodes
/// a float-rounding step off.
public enum OpenLocationCode {
    /// The 20 digits, by value.
    static let digits: [UInt8] = Array("23456789CFGHJMPQRVWX".utf8)
    static let separator = UInt8(ascii: "+")
    static let padding = UInt8(ascii: "0")
    /// Where the separator stands in a full code: after 8 digits.
    static let separatorPosition = 8
    /// Digits in latitude–longitude pairs; beyond them, each digit picks a cell of a 5 × 4 grid.
    static let pairDigits = 10
    static let maximumDigits = 15
    static let gridRows: Int64 = 5
    static let gridColumns: Int64 = 4
    /// The finest cell's share of a degree.
    static let latitudeUnitsPerDegree: Int64 = 25_000_000
    static let longitudeUnitsPerDegree: Int64 = 8_192_000

    /// The cell a full code names.
    public struct Area: Sendable, Hashable {
        public var southDegrees: Double
        public var westDegrees: Double
        public var northDegrees: Double
        public var eastDegrees: Double
        /// Its digits, padding and separator not counted.
        public var length: Int

        /// The cell's centre, each value one division of integers (so the nearest `Double` to
        /// the decimal value, 2.2944375 and not the sum's 2.2944375000000026).
        public var centre: (latitudeDegrees: Double, longitudeDegrees: Double) { (centreLatitude, centreLongitude) }
        var centreLatitude = 0.0
        var centreLongitude = 0.0

        /// The cell's larger side, metres, on a sphere of the Earth's mean radius: how precise
        /// the code is.
        public var sizeMeters: Double {
            let metersPerDegree = 6_371_008.8 * .pi / 180
            let latitude = (southDegrees + northDegrees) / 2 * .pi / 180
            return max((northDegrees - southDegrees) * metersPerDegree, (eastDegrees - westDegrees) * metersPerDegree * cos(latitude))
        }
    }

    /// A digit's value, any case; nil for a character that is not a digit.
    static func value(of byte: UInt8) -> Int? {
        let upper = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
        return digits.firstIndex(of: upper)
    }

    /// Whether `code` is a plus code at all, full or short: one separator, at an even place no
    /// later than the 8th; padding (`0`) only in an even run before a final separator; never a
    /// single digit after the separator; nothing but the 20 digits otherwise.
    public static func isValid(_ code: String) -> Bool {
        let bytes = Array(code.utf8)
        guard bytes.count >= 2, let separatorIndex = bytes.firstIndex(of: separator), bytes.lastIndex(of: separator) == separatorIndex,
            separatorIndex <= separatorPosition, separatorIndex % 2 == 0
        else { return false }
        if let firstPadding = bytes.firstIndex(of: padding) {
            // Padding: not at the start, at an even place, one run of even length, and then the
            // separator ends the code.
            guard firstPadding > 0, firstPadding % 2 == 0, bytes.last == separator else { return false }
            let run = bytes[firstPadding..<separatorIndex]
            guard run.allSatisfy({ $0 == padding }), run.count % 2 == 0, separatorIndex == separatorPosition else { return false }
            return bytes[..<firstPadding].allSatisfy { value(of: $0) != nil }
        }
        guard bytes.count - separatorIndex - 1 != 1 else { return false }
        return bytes.enumerated().allSatisfy { $0.offset == separatorIndex || value(of: $0.element) != nil }
    }

    /// Whether `code` is a valid short code: digits dropped before the separator.
    public static func isShort(_ code: String) -> Bool {
        isValid(code) && Array(code.utf8).firstIndex(of: separator)! < separatorPosition
    }

    /// Whether `code` is a valid full code: not short, and its first digits inside the
    /// latitude's 180° and the longitude's 360°.
    public static func isFull(_ code: String) -> Bool {
        guard isValid(code), !isShort(code) else { return false }
        let bytes = Array(code.utf8)
        guard let latitudeDigit = value(of: bytes[0]), latitudeDigit * 20 < 180 else { return false }
        if bytes.count > 1, let longitudeDigit = value(of: bytes[1]), longitudeDigit * 20 >= 360 { return false }
        return true
    }

    /// The cell of a full code; nil for any other text. Digits past the 15th are ignored.
    public static func decode(_ code: String) -> Area? {
        guard isFull(code) else { return nil }
        let values = Array(code.utf8).compactMap { $0 == padding ? nil : value(of: $0) }.prefix(maximumDigits)
        var latitude: Int64 = 0
        var longitude: Int64 = 0
        // A pair digit's place, in finest units: 20° over 20 for each pair.
        var latitudePlace = 20 * latitudeUnitsPerDegree
        var longitudePlace = 20 * longitudeUnitsPerDegree
        for (index, digit) in values.enumerated() {
            let digit = Int64(digit)
            if index < pairDigits {
                // Each pair is 20 times finer than the one before.
                if index % 2 == 0 {
                    if index > 0 {
                        latitudePlace /= 20
                        longitudePlace /= 20
                    }
                    latitude += digit * latitudePlace
                } else {
                    longitude += digit * longitudePlace
                }
            } else {
                latitudePlace /= gridRows
                longitudePlace /= gridColumns
                latitude += digit / gridColumns * latitudePlace
                longitude += digit % gridColumns * longitudePlace
            }
        }
        // The last digit's place is the cell's size.
        let south = Double(latitude) / Double(latitudeUnitsPerDegree) - 90
        let west = Double(longitude) / Double(longitudeUnitsPerDegree) - 180
        var area = Area(
            southDegrees: south, westDegrees: west,
            northDegrees: south + Double(latitudePlace) / Double(latitudeUnitsPerDegree),
            eastDegrees: west + Double(longitudePlace) / Double(longitudeUnitsPerDegree), length: values.count)
        area.centreLatitude =
            Double(2 * latitude + latitudePlace - 2 * 90 * latitudeUnitsPerDegree) / Double(2 * latitudeUnitsPerDegree)
        area.centreLongitude =
            Double(2 * longitude + longitudePlace - 2 * 180 * longitudeUnitsPerDegree) / Double(2 * longitudeUnitsPerDegree)
        return area
    }

    /// The code of `length` digits (2, 4, 6, 8, or 10 and more; past 15, 15) for a position; nil
    /// for another length. The latitude is clipped to ±90°, the longitude wrapped into
    /// [−180°, 180°).
    public static func encode(latitudeDegrees: Double, longitudeDegrees: Double, length requested: Int = 10) -> String? {
        let length = min(requested, maximumDigits)
        guard length >= 2, length >= pairDigits || length % 2 == 0,
            latitudeDegrees.isFinite, longitudeDegrees.isFinite
        else { return nil }
        var latitude = units(latitudeDegrees, latitudeUnitsPerDegree) + 90 * latitudeUnitsPerDegree
        latitude = min(max(latitude, 0), 180 * latitudeUnitsPerDegree - 1)
        let longitudeSpan = 360 * longitudeUnitsPerDegree
        var longitude = (units(longitudeDegrees, longitudeUnitsPerDegree) + 180 * longitudeUnitsPerDegree) % longitudeSpan
        if longitude < 0 { longitude += longitudeSpan }
        var code = [UInt8](repeating: 0, count: maximumDigits)
        for index in stride(from: maximumDigits - 1, through: pairDigits, by: -1) {
            code[index] = digits[Int(latitude % gridRows * gridColumns + longitude % gridColumns)]
            latitude /= gridRows
            longitude /= gridColumns
        }
        for pair in stride(from: pairDigits - 2, through: 0, by: -2) {
            code[pair + 1] = digits[Int(longitude % 20)]
            code[pair] = digits[Int(latitude % 20)]
            latitude /= 20
            longitude /= 20
        }
        var text = Array(code.prefix(min(length, separatorPosition)))
        text += [UInt8](repeating: padding, count: max(0, separatorPosition - length))
        text.append(separator)
        if length > separatorPosition { text += code[separatorPosition..<length] }
        return String(decoding: text, as: UTF8.self)
    }

    /// `degrees` in finest units, rounded at the sixth decimal before the floor, as the
    /// specification's test data has it: 129.7° × 8.192e6 is 1062502400, not the float's
    /// 1062502399.99…
    static func units(_ degrees: Double, _ perDegree: Int64) -> Int64 {
        Int64((((degrees * Double(perDegree)) * 1e6).rounded() / 1e6).rounded(.down))
    }

    /// The full code a short one stands for near a reference position: of the cells its missing
    /// digits could name, the one nearest the reference. A full code comes back upper-cased;
    /// nil for text that is no plus code.
    public static func recoverNearest(_ code: String, latitudeDegrees: Double, longitudeDegrees: Double) -> String? {
        if isFull(code) { return code.uppercased() }
        guard isShort(code), latitudeDegrees.isFinite, longitudeDegrees.isFinite else { return nil }
        let referenceLatitude = min(max(latitudeDegrees, -90), 90)
        var referenceLongitude = (longitudeDegrees + 180).truncatingRemainder(dividingBy: 360)
        if referenceLongitude < 0 { referenceLongitude += 360 }
        referenceLongitude -= 180
        let missing = separatorPosition - Array(code.utf8).firstIndex(of: separator)!
        // The missing digits' cell: 20° for 2 digits, 1° for 4, 0.05° for 6.
        var resolution = 20.0
        for _ in 0..<(missing / 2 - 1) { resolution /= 20 }
        let half = resolution / 2
        guard let reference = encode(latitudeDegrees: referenceLatitude, longitudeDegrees: referenceLongitude),
            let area = decode(String(reference.prefix(missing)) + code.uppercased())
        else { return nil }
        var (latitude, longitude) = area.centre
        if referenceLatitude + half < latitude, latitude - resolution >= -90 {
            latitude -= resolution
        } else if referenceLatitude - half > latitude, latitude + resolution <= 90 {
            latitude += resolution
        }
        if referenceLongitude + half < longitude {
            longitude -= resolution
        } else if referenceLongitude - half > longitude {
            longitude += resolution
        }
        return encode(latitudeDegrees: latitude, longitudeDegrees: longitude, length: area.length)
    }
}
