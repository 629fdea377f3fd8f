import TextFormats

/// A web link taken apart: host, path segments, query and fragment, each percent-decoded.
///
/// Only what reading a map link needs; not a general URL parser (no relative references, no
/// normalisation of dot segments). Pure.
struct LinkParts {
    /// The host, lower-cased, without port or user.
    var host: String
    /// The path's segments, percent-decoded (a `+` is kept: in a path it is not a space).
    var pathSegments: [String]
    /// The query's `name=value` pairs in order, names lower-cased, values percent-decoded with
    /// `+` read as a space.
    var query: [(name: String, value: String)]
    /// The fragment, percent-decoded; empty when there is none.
    var fragment: String

    /// The first query value of `name` (lower case).
    func value(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// Takes a link apart; nil unless it starts with `http://` or `https://` (any case) and
    /// names a host. Works on the UTF-8 bytes: every delimiter of a URL is ASCII.
    init?(_ text: Substring) {
        let bytes = Self.bytes(of: text)
        let lowerScheme = bytes.prefix(8).map { $0 | 0x20 }
        let schemeLength: Int
        if lowerScheme.starts(with: "https://".utf8) {
            schemeLength = 8
        } else if lowerScheme.starts(with: "http://".utf8) {
            schemeLength = 7
        } else {
            return nil
        }
        let rest = bytes[schemeLength...]
        let authorityEnd =
            rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
        if let colon = authority.firstIndex(of: UInt8(ascii: ":")) { authority = authority[..<colon] }
        guard !authority.isEmpty else { return nil }
        host = String(decoding: authority.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
        var remainder = bytes[authorityEnd...]
        fragment = ""
        if let hash = remainder.firstIndex(of: UInt8(ascii: "#")) {
            fragment = Self.decoded(remainder[(hash + 1)...], plusIsSpace: false)
            remainder = remainder[..<hash]
        }
        query = []
        if let mark = remainder.firstIndex(of: UInt8(ascii: "?")) {
            for pair in remainder[(mark + 1)...].split(separator: UInt8(ascii: "&")) {
                let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
                let value = equals == pair.endIndex ? "" : Self.decoded(pair[(equals + 1)...], plusIsSpace: true)
                let name = Self.decoded(pair[..<equals], plusIsSpace: true)
                query.append((name.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") } ? name.lowercased() : name, value))
            }
            remainder = remainder[..<mark]
        }
        pathSegments = remainder.split(separator: UInt8(ascii: "/")).map { Self.decoded($0, plusIsSpace: false) }
    }

    /// ``decoded(_:plusIsSpace:)`` for text.
    static func decoded(_ text: Substring, plusIsSpace: Bool) -> String {
        decoded(bytes(of: text)[...], plusIsSpace: plusIsSpace)
    }

    /// The UTF-8 bytes of `text`, copied at once from its storage (`Array(text.utf8)` copies
    /// them one by one through an iterator: a third of the time taken to read a link).
    static func bytes(of text: Substring) -> [UInt8] {
        text.utf8.withContiguousStorageIfAvailable { Array($0) } ?? Array(text.utf8)
    }

    /// `text` with each `%XX` replaced by its byte (the bytes then read as UTF-8, a malformed
    /// sequence as U+FFFD) and, when asked, each `+` by a space. A `%` not followed by two
    /// hexadecimal digits is kept as written.
    static func decoded(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> String {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex, let high = HexDigit.value(bytes[index + 1]),
                let low = HexDigit.value(bytes[index + 2])
            {
                result.append(high << 4 | low)
                index += 3
                continue
            }
            result.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }
}
