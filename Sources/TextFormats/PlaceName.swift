/// The rules for a destination's name, shared by the daemon (which refuses a bad one), its
/// state files (which must not hold what no request could set) and the client (which says so
/// before sending), and how a client makes any text from the daemon safe to print.
///
/// A name is shown on other people's terminals (everyone in the `waypoint` group may run
/// `waypointctl status`) and spoken by screen readers, so it may hold no control character
/// (C0, DEL, C1) and none of the bidirectional overrides and isolates that reorder what a
/// terminal shows (U+202A–U+202E, U+2066–U+2069).
public enum PlaceName {
    /// The most characters a name may have.
    public static let maximumLength = 100

    /// A name's text, checked: surrounding whitespace trimmed, nil when nothing was given.
    /// - Parameter text: The name as typed or sent; nil or empty for none.
    /// - Returns: The trimmed name, or nil for no name.
    /// - Throws: ``PlaceNameError`` naming the problem.
    public static func validated(_ text: String?) throws(PlaceNameError) -> String? {
        guard let text, !text.isEmpty else { return nil }
        for (offset, scalar) in text.unicodeScalars.enumerated() where isUnprintable(scalar) {
            throw .unprintable(scalar: scalar.value, position: offset + 1)
        }
        let trimmed = String(
            String.UnicodeScalarView(
                text.unicodeScalars.drop { $0.properties.isWhitespace }.reversed().drop { $0.properties.isWhitespace }
                    .reversed()))
        guard !trimmed.isEmpty else { throw .onlyWhitespace }
        guard trimmed.count <= maximumLength else { throw .tooLong(characters: trimmed.count) }
        return trimmed
    }

    /// A name taken from text someone shared (a map link's place, a `geo:` label) made to
    /// pass ``validated(_:)`` rather than refused: each unprintable scalar and each run of
    /// whitespace becomes one space, the ends are trimmed, and past ``maximumLength``
    /// characters the rest is cut; nil when nothing is left.
    public static func cleaned(_ text: String) -> String? {
        var result = ""
        var pendingSpace = false
        var count = 0
        for scalar in text.unicodeScalars {
            if isUnprintable(scalar) || isSpace(scalar) {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace {
                result.unicodeScalars.append(" ")
                pendingSpace = false
            }
            result.unicodeScalars.append(scalar)
            count += 1
            // Counted in scalars while building, in characters once at the end: a character
            // never has fewer scalars, so the cut below only ever shortens.
            if count >= maximumLength * 4 { break }
        }
        guard !result.isEmpty else { return nil }
        if result.count > maximumLength {
            result = String(result.prefix(maximumLength))
            while let last = result.unicodeScalars.last, last.properties.isWhitespace { result.unicodeScalars.removeLast() }
        }
        return result
    }

    /// Whether `scalar` is white space; ASCII answered at once (the Unicode property look-up is
    /// the dear part, and shared text is mostly ASCII).
    public static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }

    /// Whether `scalar` must never reach a terminal raw: a C0 or C1 control, DEL, or a
    /// bidirectional override or isolate.
    public static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with every unprintable scalar (see ``isUnprintable(_:)``) written as `\u{1B}`
    /// and each backslash doubled, so that what is printed shows what was sent, on one line.
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isUnprintable($0) || $0 == "\\" }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                result += "\\\\"
            } else if isUnprintable(scalar) {
                result += "\\u{" + hex(scalar.value) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `1B`, `0A`, `202E`: at least two upper-case hexadecimal digits.
    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count < 2 ? "0" + digits : digits
    }
}

/// Why a name was refused.
public enum PlaceNameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A control character or bidirectional override, with its code point and its position
    /// (from 1, counted in Unicode scalars).
    case unprintable(scalar: UInt32, position: Int)
    /// Nothing but spaces.
    case onlyWhitespace
    /// Longer than ``PlaceName/maximumLength`` after trimming.
    case tooLong(characters: Int)

    public var description: String {
        switch self {
        case .unprintable(let scalar, let position):
            "name has \(Self.describe(scalar)) at position \(position); names may not hold control characters "
                + "or bidirectional overrides"
        case .onlyWhitespace: "name is only whitespace"
        case .tooLong(let characters):
            "name is \(characters) characters; at most \(PlaceName.maximumLength) are allowed"
        }
    }

    /// `U+001B (escape)`: a code point, with its name where people know it.
    private static func describe(_ scalar: UInt32) -> String {
        let name: String? =
            switch scalar {
            case 0x00: "NUL"
            case 0x09: "tab"
            case 0x0A: "line feed"
            case 0x0D: "carriage return"
            case 0x1B: "escape"
            case 0x7F: "delete"
            case 0x202A...0x202E, 0x2066...0x2069: "a bidirectional override"
            default: nil
            }
        let code = PlaceName.hex(scalar)
        return "U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code + (name.map { " (\($0))" } ?? "")
    }
}
