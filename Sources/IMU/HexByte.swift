/// A byte written as i2cdetect and datasheets write it: `0x1C`, two upper-case hex digits.
/// Used for addresses, registers and identities in reports.
struct HexByte: CustomStringConvertible {
    /// The byte.
    var value: UInt8

    /// The byte to format.
    init(_ value: UInt8) { self.value = value }

    var description: String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + (digits.count < 2 ? "0" + digits : digits)
    }

    /// Bytes separated by spaces: `0x48 0x34 0x33`.
    static func list(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { HexByte($0).description }.joined(separator: " ")
    }
}
