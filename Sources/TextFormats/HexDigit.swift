/// ASCII hexadecimal digits, what JSON's `\uXXXX` escapes and a link's `%XX` are made of.
package enum HexDigit {
    /// The digit's value, 0 to 15; nil for any other byte.
    package static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The digit for a value from 0 to 15: `0`–`9`, `a`–`f`.
    package static func lowercase(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
