/// A number as the protocol writes it: the value when it is known and finite, otherwise
/// `null` (JSON has no NaN or infinity, and `JSONValueEncoder` would throw on them).
struct WireNumber: Encodable {
    /// The value, or nil for `null`.
    let value: Double?

    /// Wraps a value; NaN and infinities become nil.
    init(_ value: Double?) {
        self.value = value.flatMap { $0.isFinite ? $0 : nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}
