/// The coding keys ``JSONValueEncoder`` and ``JSONValueDecoder`` make themselves: an array
/// element's index in a coding path, and the `"super"` member of `superEncoder()`.
struct JSONCodingKey: CodingKey {
    /// The key of `superEncoder()` and `superDecoder()`, as in `JSONEncoder`.
    static let superKey = JSONCodingKey(stringValue: "super")

    let stringValue: String
    let intValue: Int?

    /// An array element: `Index 2`, as `JSONDecoder` names it, with the index as `intValue`.
    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init?(intValue: Int) { self.init(index: intValue) }
}
