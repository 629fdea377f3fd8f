/// Reads a latitude/longitude pair from the forms people type, paste or share.
///
/// Works in three steps. The lexer turns the text into tokens (numbers, unit marks, hemisphere
/// letters, separators) and rejects anything that is not a plain decimal number. The grouper
/// splits the tokens into two values, each written as decimal degrees, degrees-minutes,
/// degrees-minutes-seconds, or one of those separated by colons. Finally each value is checked
/// (signs, fractions, minutes and seconds below 60, hemisphere on the right axis, range) and
/// turned into degrees. `geo:` URIs (RFC 5870) have a fixed grammar and a parser of their own.
struct CoordinateParser {
    /// The scheme of an RFC 5870 URI, compared case-insensitively.
    static let geoScheme = "geo:"

    /// The only coordinate reference system RFC 5870 defines, and the one we support.
    static let supportedCoordinateSystem = "wgs84"

    /// Minutes per degree.
    static let minutesPerDegree = 60.0

    /// Seconds per minute.
    static let secondsPerMinute = 60.0

    /// Seconds per degree.
    static let secondsPerDegree = 3600.0

    /// A value has at most degrees, minutes and seconds.
    static let maximumComponentsPerValue = 3

    /// Spellings of non-finite numbers that get the number error rather than "unexpected text".
    static let nonFiniteWords: Set<String> = ["nan", "inf", "infinity"]

    /// Parses coordinate text, latitude first.
    ///
    /// - Parameter text: The text to read; surrounding whitespace is ignored.
    /// - Returns: The coordinate, with both values checked and in range.
    /// - Throws: A ``CoordinateParseError`` naming the first problem found.
    static func parse(_ text: String) throws(CoordinateParseError) -> Coordinate {
        var scalars = Array(text.unicodeScalars)
        while let last = scalars.last, last.properties.isWhitespace {
            scalars.removeLast()
        }
        let firstKept = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex
        scalars.removeFirst(firstKept)
        guard !scalars.isEmpty else {
            throw .empty
        }
        var parser = CoordinateParser(scalars: scalars)
        if parser.hasGeoScheme {
            return try parser.parseGeoURI().coordinate
        }
        try parser.tokenize()
        return try parser.parseTokens()
    }

    /// Parses an RFC 5870 `geo:` URI, keeping its uncertainty.
    /// - Throws: ``CoordinateParseError/malformedGeoURI(_:)`` for text that is not one.
    static func parseGeo(_ text: String) throws(CoordinateParseError) -> GeoURI {
        let parser = CoordinateParser(scalars: Array(text.unicodeScalars))
        guard parser.hasGeoScheme else { throw .malformedGeoURI(text) }
        return try parser.parseGeoURI()
    }

    // MARK: - State

    /// The input without surrounding whitespace.
    private let scalars: [Unicode.Scalar]

    /// The tokens of `scalars`, filled by `tokenize()`.
    private var tokens: [Token] = []

    private init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    /// The whole input, for errors about the input as a whole.
    private var input: String {
        text(0..<scalars.count)
    }

    /// The input between two scalar offsets.
    private func text(_ range: Range<Int>) -> String {
        var result = String()
        result.unicodeScalars.append(contentsOf: scalars[range])
        return result
    }

    // MARK: - Numbers

    /// A sign written in front of a number.
    enum Sign {
        case plus
        case minus
    }

    /// A plain decimal number as written: optional sign, digits, at most one point.
    struct NumberLiteral {
        /// The sign, if one was written; `-0` and `+0` keep theirs.
        var sign: Sign?
        /// The absolute value.
        var magnitude: Double
        /// Whether a decimal point was written.
        var hasFraction: Bool
    }

    /// Reads `scalars` as a plain decimal: `[+|-|−] digits [. digits]`, with digits on at least
    /// one side of the point.
    ///
    /// Everything `Double.init(_:)` would also accept (exponents, hex, `nan`, `inf`) is refused
    /// here, because `Double("1e999")` is infinity and `Double("nan")` is NaN.
    static func plainDecimal(_ scalars: ArraySlice<Unicode.Scalar>) -> NumberLiteral? {
        var rest = scalars[...]
        var sign: Sign?
        if let first = rest.first, let parsedSign = Self.sign(first) {
            sign = parsedSign
            rest = rest.dropFirst()
        }
        var digits = String()
        var digitCount = 0
        var pointCount = 0
        for scalar in rest {
            if isDigit(scalar) {
                digitCount += 1
            } else if scalar == "." {
                pointCount += 1
            } else {
                return nil
            }
            digits.unicodeScalars.append(scalar)
        }
        guard digitCount > 0, pointCount <= 1 else {
            return nil
        }
        // Spell `.5` and `5.` in the full form `Double` is certain to accept.
        if digits.hasPrefix(".") {
            digits = "0" + digits
        }
        if digits.hasSuffix(".") {
            digits += "0"
        }
        guard let magnitude = Double(digits) else {
            return nil
        }
        return NumberLiteral(sign: sign, magnitude: magnitude, hasFraction: pointCount == 1)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// A sign character: ASCII plus and minus, and the Unicode minus sign that word processors
    /// substitute.
    private static func sign(_ scalar: Unicode.Scalar) -> Sign? {
        switch scalar {
        case "+": return .plus
        case "-", "\u{2212}": return .minus
        default: return nil
        }
    }

    // MARK: - Tokens

    /// A hemisphere letter.
    enum Hemisphere {
        case north
        case south
        case east
        case west

        /// Whether the letter belongs on a latitude (N, S) rather than a longitude (E, W).
        var isLatitude: Bool {
            self == .north || self == .south
        }

        /// Whether the letter makes the value negative.
        var isNegative: Bool {
            self == .south || self == .west
        }
    }

    /// What a token is.
    enum TokenKind {
        case number(NumberLiteral)
        /// `°`, `º`, `˚` or the letter `d`.
        case degreeMark
        /// `'`, `′`, `’` or the letter `m`; letter notation makes a later `s` mean seconds.
        case minuteMark(isLetter: Bool)
        /// `"`, `″`, `”`, or two ASCII single quotes.
        case secondMark
        case colon
        case comma
        /// N, E or W in either case.
        case hemisphere(Hemisphere)
        /// `s` or `S`: south, or seconds after letter-notation minutes (`48d51m30.2s`).
        case letterS
        /// Anything else.
        case word
    }

    /// A token and where it sits in the input, as scalar offsets.
    struct Token {
        var kind: TokenKind
        var start: Int
        var end: Int

        var isNumber: Bool {
            if case .number = kind { return true }
            return false
        }

        /// The hemisphere this token names when it stands for one.
        var hemisphere: Hemisphere? {
            switch kind {
            case .hemisphere(let hemisphere): return hemisphere
            case .letterS: return .south
            default: return nil
            }
        }

        /// Whether the token marks the number before it with a unit or joins it to the next.
        var isUnitMarkOrColon: Bool {
            switch kind {
            case .degreeMark, .minuteMark, .secondMark, .colon: return true
            default: return false
            }
        }
    }

    /// Splits the input into tokens.
    ///
    /// - Throws: ``CoordinateParseError/invalidNumber(_:)`` for anything that looks like a
    ///   number but is not a plain decimal.
    private mutating func tokenize() throws(CoordinateParseError) {
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let next: Unicode.Scalar? = index + 1 < scalars.count ? scalars[index + 1] : nil
            if scalar.properties.isWhitespace {
                index += 1
            } else if Self.isDigit(scalar) || scalar == "." {
                index = try lexNumber(from: index)
            } else if Self.sign(scalar) != nil {
                if let next, Self.isDigit(next) || next == "." {
                    index = try lexNumber(from: index)
                    continue
                }
                // `-inf`, `+nan`: a signed non-finite spelling is a bad number; any other lone
                // sign is unexpected text.
                let wordEnd = lettersEnd(from: index + 1)
                if Self.nonFiniteWords.contains(text(index + 1..<wordEnd).lowercased()) {
                    throw .invalidNumber(text(index..<wordEnd))
                }
                tokens.append(Token(kind: .word, start: index, end: index + 1))
                index += 1
            } else if Self.isASCIILetter(scalar) {
                index = try lexLetters(from: index)
            } else if scalar == "'" && next == "'" {
                tokens.append(Token(kind: .secondMark, start: index, end: index + 2))
                index += 2
            } else if let kind = Self.punctuation(scalar) {
                tokens.append(Token(kind: kind, start: index, end: index + 1))
                index += 1
            } else {
                tokens.append(Token(kind: .word, start: index, end: otherEnd(from: index)))
                index = otherEnd(from: index)
            }
        }
    }

    /// The token for a one-scalar mark or separator.
    private static func punctuation(_ scalar: Unicode.Scalar) -> TokenKind? {
        switch scalar {
        // Degree sign, masculine ordinal (phone keyboards offer it instead), ring above.
        case "\u{00B0}", "\u{00BA}", "\u{02DA}": return .degreeMark
        // Apostrophe, prime, and the curly quotes autocorrect substitutes.
        case "'", "\u{2032}", "\u{2019}", "\u{2018}": return .minuteMark(isLetter: false)
        case "\"", "\u{2033}", "\u{201D}", "\u{201C}": return .secondMark
        case ":": return .colon
        case ",": return .comma
        default: return nil
        }
    }

    /// The end of a run of ASCII letters starting at `start`.
    private func lettersEnd(from start: Int) -> Int {
        var end = start
        while end < scalars.count, Self.isASCIILetter(scalars[end]) {
            end += 1
        }
        return end
    }

    /// The end of a run of characters that fit no token, for reporting them as one word.
    private func otherEnd(from start: Int) -> Int {
        var end = start + 1
        while end < scalars.count {
            let scalar = scalars[end]
            if scalar.properties.isWhitespace || Self.isDigit(scalar) || Self.isASCIILetter(scalar)
                || Self.punctuation(scalar) != nil || Self.sign(scalar) != nil || scalar == "."
            {
                break
            }
            end += 1
        }
        return end
    }

    /// The end of everything glued to a malformed number, so the error shows all of it
    /// (`1e999`, `0x1p3`, `1.2.3`).
    private func numberLikeEnd(from start: Int) -> Int {
        var end = start
        while end < scalars.count {
            let scalar = scalars[end]
            guard
                Self.isDigit(scalar) || Self.isASCIILetter(scalar) || scalar == "."
                    || Self.sign(scalar) != nil
            else {
                break
            }
            end += 1
        }
        return end
    }

    /// Lexes a number starting at `start` (a sign, digit or point) and returns where it ends.
    private mutating func lexNumber(from start: Int) throws(CoordinateParseError) -> Int {
        var end = start
        if Self.sign(scalars[end]) != nil {
            end += 1
        }
        while end < scalars.count, Self.isDigit(scalars[end]) || scalars[end] == "." {
            end += 1
        }
        if end < scalars.count {
            let following = scalars[end]
            let afterFollowing: Unicode.Scalar? = end + 1 < scalars.count ? scalars[end + 1] : nil
            // In `N48.8584E2.2945` the E after a latitude with a leading letter must start the
            // longitude, since a value has only one letter; anywhere else `1e5` is an exponent.
            let followsLatitudeLetter = tokens.last.map {
                $0.end == start && $0.hemisphere?.isLatitude == true
            }
            let startsExponent =
                (following == "e" || following == "E")
                && afterFollowing.map { Self.isDigit($0) || Self.sign($0) != nil } == true
                && followsLatitudeLetter != true
            let unsignedDigits = scalars[start..<end].drop { Self.sign($0) != nil }
            let startsHex =
                (following == "x" || following == "X") && unsignedDigits.elementsEqual(["0"])
            if startsExponent || startsHex {
                throw .invalidNumber(text(start..<numberLikeEnd(from: end)))
            }
        }
        guard let literal = Self.plainDecimal(scalars[start..<end]) else {
            throw .invalidNumber(text(start..<numberLikeEnd(from: end)))
        }
        tokens.append(Token(kind: .number(literal), start: start, end: end))
        return end
    }

    /// Lexes a run of ASCII letters into unit marks and hemisphere letters, and returns where
    /// it ends.
    private mutating func lexLetters(from start: Int) throws(CoordinateParseError) -> Int {
        let end = lettersEnd(from: start)
        let word = text(start..<end)
        if Self.nonFiniteWords.contains(word.lowercased()) {
            throw .invalidNumber(word)
        }
        var letterTokens: [Token] = []
        for offset in start..<end {
            let kind: TokenKind
            switch scalars[offset] {
            case "d", "D": kind = .degreeMark
            case "m", "M": kind = .minuteMark(isLetter: true)
            case "s", "S": kind = .letterS
            case "n", "N": kind = .hemisphere(.north)
            case "e", "E": kind = .hemisphere(.east)
            case "w", "W": kind = .hemisphere(.west)
            default:
                // A letter glued to a number (`48.8abc`) makes the whole thing a bad number;
                // a free-standing word is just unexpected text.
                if let previous = tokens.last, previous.isNumber, previous.end == start {
                    throw .invalidNumber(text(previous.start..<numberLikeEnd(from: start)))
                }
                tokens.append(Token(kind: .word, start: start, end: end))
                return end
            }
            letterTokens.append(Token(kind: kind, start: offset, end: offset + 1))
        }
        tokens.append(contentsOf: letterTokens)
        return end
    }

    // MARK: - Grouping tokens into two values

    /// One latitude or longitude as written, before it is checked.
    struct Value {
        /// Degrees, then minutes and seconds when written.
        var components: [NumberLiteral]
        var hemisphere: Hemisphere?
        /// Whether minutes or seconds were taken without a unit mark (`48 51.5 N`).
        var hasUnmarkedParts: Bool
        /// Scalar offsets of the whole value, hemisphere letter included.
        var start: Int
        var end: Int
    }

    /// How the value being grouped sits in the input; decides whether the end of the tokens
    /// can close a run of unmarked numbers such as `2 17 40.2`.
    private struct Context {
        /// The input has one comma between the values, so each value has its tokens to itself.
        var isCommaSeparated: Bool
        var isSecondValue: Bool
        /// The first value had minutes, so the second is likely written the same way.
        var firstValueHasMinutes: Bool
        /// Whether numbers without unit marks may be read as minutes and seconds.
        var allowsUnmarkedParts = true
    }

    /// Groups the tokens into a latitude and a longitude and converts them.
    private func parseTokens() throws(CoordinateParseError) -> Coordinate {
        let commaPositions = tokens.indices.filter {
            if case .comma = tokens[$0].kind { return true }
            return false
        }
        let first: Value
        let second: Value
        if let firstComma = commaPositions.first {
            let secondComma = commaPositions.dropFirst().first ?? tokens.endIndex
            guard firstComma > 0 else {
                throw .unexpectedText(",")
            }
            var cursor = 0
            first = try parseValue(
                from: &cursor, before: firstComma,
                context: Context(
                    isCommaSeparated: true, isSecondValue: false, firstValueHasMinutes: false))
            try checkLeftover(cursor..<firstComma, isAfterBothValues: false)

            cursor = firstComma + 1
            guard cursor < secondComma else {
                if secondComma == tokens.endIndex {
                    throw .missingLongitude(input)
                }
                throw .unexpectedText(",")
            }
            second = try parseValue(
                from: &cursor, before: secondComma,
                context: Context(
                    isCommaSeparated: true, isSecondValue: true,
                    firstValueHasMinutes: first.components.count > 1))
            try checkLeftover(cursor..<tokens.endIndex, isAfterBothValues: true)
        } else {
            var firstHasUnmarkedParts = false
            do {
                (first, second) = try groupWithoutCommas(
                    allowingUnmarkedPartsInFirst: true,
                    firstHasUnmarkedParts: &firstHasUnmarkedParts)
            } catch {
                // `48 2.2945E` and `S 33.8 151E` are a latitude and a longitude, not one value
                // in degrees and minutes: reading unmarked minutes used up the longitude. Read
                // the first value again without them; if that fails too, the first reading's
                // error is the one that explains the input.
                guard firstHasUnmarkedParts,
                    let regrouped = try? groupWithoutCommas(
                        allowingUnmarkedPartsInFirst: false,
                        firstHasUnmarkedParts: &firstHasUnmarkedParts)
                else {
                    throw error
                }
                (first, second) = regrouped
            }
        }
        return try coordinate(first: first, second: second)
    }

    /// Groups an input without commas: the first value, then the second, then nothing more.
    ///
    /// - Parameters:
    ///   - allowingUnmarkedPartsInFirst: Whether the first value may take numbers without unit
    ///     marks as its minutes and seconds.
    ///   - firstHasUnmarkedParts: Set to whether it did, once the first value is grouped.
    private func groupWithoutCommas(
        allowingUnmarkedPartsInFirst: Bool, firstHasUnmarkedParts: inout Bool
    ) throws(CoordinateParseError) -> (Value, Value) {
        var cursor = 0
        var firstContext = Context(
            isCommaSeparated: false, isSecondValue: false, firstValueHasMinutes: false)
        firstContext.allowsUnmarkedParts = allowingUnmarkedPartsInFirst
        let first = try parseValue(from: &cursor, before: tokens.endIndex, context: firstContext)
        firstHasUnmarkedParts = first.hasUnmarkedParts
        guard cursor < tokens.endIndex else {
            throw .missingLongitude(input)
        }
        let second = try parseValue(
            from: &cursor, before: tokens.endIndex,
            context: Context(
                isCommaSeparated: false, isSecondValue: true,
                firstValueHasMinutes: first.components.count > 1))
        try checkLeftover(cursor..<tokens.endIndex, isAfterBothValues: true)
        return (first, second)
    }

    /// Rejects tokens left over after a value: more numbers mean too many values; anything else
    /// is trailing (after both values) or unexpected (between them).
    private func checkLeftover(
        _ range: Range<Int>, isAfterBothValues: Bool
    ) throws(CoordinateParseError) {
        guard let firstLeftover = range.first else {
            return
        }
        if tokens[range].contains(where: \.isNumber) {
            throw .tooManyValues(input)
        }
        if isAfterBothValues {
            throw .trailingText(text(tokens[firstLeftover].start..<scalars.count))
        }
        throw .unexpectedText(text(tokens[firstLeftover].start..<tokens[range.upperBound - 1].end))
    }

    /// The number at `index` if there is one before `limit`.
    private func number(at index: Int, before limit: Int) -> NumberLiteral? {
        guard index < limit, case .number(let literal) = tokens[index].kind else {
            return nil
        }
        return literal
    }

    /// Groups one value starting at `cursor`, leaving `cursor` after it.
    ///
    /// A value is `[hemisphere] degrees [minutes [seconds]] [hemisphere]`, with at most one
    /// hemisphere letter, the parts written as `48°51'30.2"`, `48d51m30.2s`, `48:51:30.2` or
    /// `48 51 30.2`. Unmarked minutes and seconds are taken only when a hemisphere letter (or
    /// the end of the value, see ``Context``) closes them; otherwise `48.8 2.3` would read as
    /// one value in degrees and minutes.
    private func parseValue(
        from cursor: inout Int, before limit: Int, context: Context
    ) throws(CoordinateParseError) -> Value {
        let start = tokens[cursor].start
        var hemisphere: Hemisphere?
        if let prefix = tokens[cursor].hemisphere {
            hemisphere = prefix
            cursor += 1
        }
        guard let degrees = number(at: cursor, before: limit) else {
            let unexpected = cursor < limit ? tokens[cursor] : tokens[cursor - 1]
            throw .unexpectedText(text(unexpected.start..<unexpected.end))
        }
        var components = [degrees]
        var hasUnmarkedParts = false
        cursor += 1

        /// Whether the token at `index` closes a value, so unmarked numbers before it belong
        /// to this value.
        func closesValue(at index: Int, endCloses: Bool) -> Bool {
            guard index < limit else {
                return endCloses
            }
            return tokens[index].hemisphere != nil
        }

        let nextKind: TokenKind? = cursor < limit ? tokens[cursor].kind : nil
        switch nextKind {
        case .degreeMark:
            cursor += 1
            // The degree mark shows the writer uses units, so an unmarked number at the very end
            // of the second value (`… E 002° 17.670`) is its minutes; at the end of the first
            // value it is more likely the longitude (`48° 2.3`).
            let endCloses = context.isCommaSeparated || context.isSecondValue
            var minutesUseLetter = false
            while components.count < Self.maximumComponentsPerValue,
                let component = number(at: cursor, before: limit)
            {
                let markKind: TokenKind? = cursor + 1 < limit ? tokens[cursor + 1].kind : nil
                let expectsMinutes = components.count == 1
                switch markKind {
                case .degreeMark:
                    // The next value's degrees.
                    break
                case .minuteMark(let isLetter) where expectsMinutes:
                    components.append(component)
                    minutesUseLetter = isLetter
                    cursor += 2
                    continue
                case .secondMark where !expectsMinutes:
                    components.append(component)
                    cursor += 2
                    continue
                case .letterS where !expectsMinutes && minutesUseLetter:
                    components.append(component)
                    cursor += 2
                    continue
                default:
                    // An unmarked last part (`48° 51.503 N`) is the next unit down.
                    if context.allowsUnmarkedParts,
                        closesValue(at: cursor + 1, endCloses: endCloses)
                    {
                        components.append(component)
                        hasUnmarkedParts = true
                        cursor += 1
                    }
                }
                break
            }
        case .colon:
            while components.count < Self.maximumComponentsPerValue,
                cursor < limit, case .colon = tokens[cursor].kind
            {
                guard let component = number(at: cursor + 1, before: limit) else {
                    throw .unexpectedText(text(tokens[cursor].start..<tokens[cursor].end))
                }
                components.append(component)
                cursor += 2
            }
        default:
            // Unmarked numbers: `48 51 30.2 N`. Count the run, each number not followed by a
            // mark of its own.
            var runEnd = cursor
            while number(at: runEnd, before: limit) != nil,
                !(runEnd + 1 < limit && tokens[runEnd + 1].isUnitMarkOrColon)
            {
                runEnd += 1
            }
            let endCloses =
                context.isCommaSeparated
                || (context.isSecondValue && (hemisphere != nil || context.firstValueHasMinutes))
            if context.allowsUnmarkedParts, runEnd > cursor,
                closesValue(at: runEnd, endCloses: endCloses)
            {
                guard runEnd - cursor < Self.maximumComponentsPerValue else {
                    throw .tooManyValues(input)
                }
                for index in cursor..<runEnd {
                    if let component = number(at: index, before: limit) {
                        components.append(component)
                    }
                }
                hasUnmarkedParts = true
                cursor = runEnd
            }
        }

        // A value with a leading letter ends before the next letter, which starts the next
        // value (`N 48.8 E 2.3`).
        if hemisphere == nil, cursor < limit, let suffix = tokens[cursor].hemisphere {
            hemisphere = suffix
            cursor += 1
        }
        return Value(
            components: components, hemisphere: hemisphere, hasUnmarkedParts: hasUnmarkedParts,
            start: start, end: tokens[cursor - 1].end)
    }

    // MARK: - Checking values

    /// Assigns the values to latitude and longitude, checks them and builds the coordinate.
    private func coordinate(
        first: Value, second: Value
    ) throws(CoordinateParseError) -> Coordinate {
        var latitude = first
        var longitude = second
        // `2.2945E 48.8584N`: both letters say the pair is longitude first.
        if let firstHemisphere = first.hemisphere, let secondHemisphere = second.hemisphere,
            !firstHemisphere.isLatitude, secondHemisphere.isLatitude
        {
            swap(&latitude, &longitude)
        }
        if let hemisphere = latitude.hemisphere, !hemisphere.isLatitude {
            throw .hemisphereOnWrongAxis(text(latitude.start..<latitude.end))
        }
        if let hemisphere = longitude.hemisphere, hemisphere.isLatitude {
            throw .hemisphereOnWrongAxis(text(longitude.start..<longitude.end))
        }
        let latitudeText = text(latitude.start..<latitude.end)
        let longitudeText = text(longitude.start..<longitude.end)
        let latitudeDegrees = try Self.degrees(of: latitude, text: latitudeText)
        let longitudeDegrees = try Self.degrees(of: longitude, text: longitudeText)
        // `151.2153 -33.8568`: out of range as typed, in range the other way round, and no
        // hemisphere letter says which is which, so say that the order may be the mistake.
        if latitude.hemisphere == nil, longitude.hemisphere == nil,
            latitudeDegrees.magnitude > Coordinate.latitudeLimitDegrees,
            latitudeDegrees.magnitude <= Coordinate.longitudeLimitDegrees,
            longitudeDegrees.magnitude <= Coordinate.latitudeLimitDegrees
        {
            throw .looksSwapped(latitude: latitudeText, longitude: longitudeText)
        }
        try Coordinate.validate(
            latitudeDegrees: latitudeDegrees, latitudeText: latitudeText,
            longitudeDegrees: longitudeDegrees, longitudeText: longitudeText)
        return Coordinate(
            uncheckedLatitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees)
    }

    /// Checks one value's parts and converts it to signed degrees.
    ///
    /// - Parameters:
    ///   - value: The grouped value.
    ///   - text: The value as written, for errors.
    /// - Throws: The error for a sign next to a hemisphere letter, a sign on minutes or seconds,
    ///   a fraction before a smaller unit, or minutes or seconds of 60 or more.
    private static func degrees(
        of value: Value, text: String
    ) throws(CoordinateParseError) -> Double {
        let parts = value.components
        if value.hemisphere != nil, parts[0].sign != nil {
            throw .signWithHemisphere(text)
        }
        if parts.dropFirst().contains(where: { $0.sign != nil }) {
            throw .signedMinutesOrSeconds(text)
        }
        if parts.dropLast().contains(where: \.hasFraction) {
            throw .fractionBeforeSmallerUnit(text)
        }
        var magnitude = parts[0].magnitude
        if parts.count > 1 {
            guard parts[1].magnitude < minutesPerDegree else {
                throw .minutesOutOfRange(text)
            }
            magnitude += parts[1].magnitude / minutesPerDegree
        }
        if parts.count > 2 {
            guard parts[2].magnitude < secondsPerMinute else {
                throw .secondsOutOfRange(text)
            }
            magnitude += parts[2].magnitude / secondsPerDegree
        }
        // The sign of the written degrees, not of their value, so `-0°30'` is negative.
        let isNegative = parts[0].sign == .minus || value.hemisphere?.isNegative == true
        return isNegative ? -magnitude : magnitude
    }

    // MARK: - geo: URIs (RFC 5870)

    /// Whether the input starts with the `geo:` scheme, in any case.
    private var hasGeoScheme: Bool {
        let scheme = Array(Self.geoScheme.unicodeScalars)
        guard scalars.count >= scheme.count else {
            return false
        }
        return text(0..<scheme.count).lowercased() == Self.geoScheme
    }

    /// Parses `geo:LAT,LON[,ALT][;crs=wgs84][;u=UNCERTAINTY][;name=value...]`.
    ///
    /// The altitude is checked but not kept. Unknown parameters are ignored, as
    /// RFC 5870 §3.4.4 asks. A query (`?z=17`, added by some map apps) is ignored too, except a
    /// search query (`?q=`), whose coordinates are only a placeholder.
    private func parseGeoURI() throws(CoordinateParseError) -> GeoURI {
        let body = scalars[Self.geoScheme.unicodeScalars.count...]
        let query = body.firstIndex(of: "?")
        if let query {
            let queryText = text(query + 1..<scalars.count).lowercased()
            let hasSearch = queryText.split(separator: "&").contains {
                $0 == "q" || $0.hasPrefix("q=")
            }
            if hasSearch {
                throw .malformedGeoURI(input)
            }
        }
        let path = body[..<(query ?? scalars.count)]
        let sections = path.split(separator: ";", omittingEmptySubsequences: false)
        guard !Self.trimmingWhitespace(sections[0]).isEmpty else {
            throw .malformedGeoURI(input)
        }
        let coordinates = sections[0].split(separator: ",", omittingEmptySubsequences: false)
        guard coordinates.count >= 2 else {
            throw .missingLongitude(input)
        }
        guard coordinates.count <= Self.maximumComponentsPerValue else {
            throw .tooManyValues(input)
        }
        var values: [Double] = []
        for coordinate in coordinates {
            let trimmed = Self.trimmingWhitespace(coordinate)
            guard !trimmed.isEmpty else {
                throw .malformedGeoURI(input)
            }
            guard let literal = Self.plainDecimal(trimmed) else {
                throw .invalidNumber(text(trimmed.startIndex..<trimmed.endIndex))
            }
            values.append(literal.sign == .minus ? -literal.magnitude : literal.magnitude)
        }
        var uncertaintyMeters: Double?
        for parameter in sections.dropFirst() {
            uncertaintyMeters = try checkGeoParameter(parameter) ?? uncertaintyMeters
        }
        // RFC 5870 §3.4.2: at a pole the longitude names no different point, but it must still
        // be a valid longitude, and we keep it as written.
        let latitudeText = text(coordinates[0].startIndex..<coordinates[0].endIndex)
        let longitudeText = text(coordinates[1].startIndex..<coordinates[1].endIndex)
        try Coordinate.validate(
            latitudeDegrees: values[0], latitudeText: latitudeText,
            longitudeDegrees: values[1], longitudeText: longitudeText)
        return GeoURI(
            coordinate: Coordinate(uncheckedLatitudeDegrees: values[0], longitudeDegrees: values[1]),
            uncertaintyMeters: uncertaintyMeters)
    }

    /// Checks one `;name[=value]` parameter of a `geo:` URI; returns the uncertainty, metres,
    /// when it is `u`.
    private func checkGeoParameter(
        _ parameter: ArraySlice<Unicode.Scalar>
    ) throws(CoordinateParseError) -> Double? {
        let equals = parameter.firstIndex(of: "=")
        let name = text(parameter.startIndex..<(equals ?? parameter.endIndex)).lowercased()
        // RFC 5870 §3.3: a parameter name is one or more letters, digits and hyphens.
        let isLabel =
            !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                Self.isASCIILetter($0) || Self.isDigit($0) || $0 == "-"
            }
        guard isLabel else {
            throw .malformedGeoURI(input)
        }
        let value = equals.map { parameter[($0 + 1)...] }
        switch name {
        case "crs":
            guard let value, !value.isEmpty else {
                throw .malformedGeoURI(input)
            }
            let label = text(value.startIndex..<value.endIndex)
            guard label.lowercased() == Self.supportedCoordinateSystem else {
                throw .unsupportedCoordinateSystem(label)
            }
        case "u":
            // The uncertainty in metres: a plain number without a sign.
            guard let value, let literal = Self.plainDecimal(value), literal.sign == nil else {
                throw .malformedGeoURI(input)
            }
            return literal.magnitude
        default:
            break
        }
        return nil
    }

    private static func trimmingWhitespace(
        _ slice: ArraySlice<Unicode.Scalar>
    ) -> ArraySlice<Unicode.Scalar> {
        var result = slice
        while let first = result.first, first.properties.isWhitespace {
            result = result.dropFirst()
        }
        while let last = result.last, last.properties.isWhitespace {
            result = result.dropLast()
        }
        return result
    }
}
