/// A coding key made at run time: an array element's index in a coding path, the `"super"`
/// member of `superEncoder()` that ``JSONValueEncoder`` and ``JSONValueDecoder`` make
/// themselves, and any member by name for a type whose keys are not a fixed enum (the state
/// files' `destination` or `calibration`, the tests' hand-written types).
package struct JSONCodingKey: CodingKey {
    /// The key of `superEncoder()` and `superDecoder()`, as in `JSONEncoder`.
    static let superKey = JSONCodingKey(stringValue: "super")

    /// The member's name, or `Index 2` for an array element.
    package let stringValue: String
    /// The array element's index; `nil` for a member by name.
    package let intValue: Int?

    /// An array element: `Index 2`, as `JSONDecoder` names it, with the index as `intValue`.
    package init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    /// A member by name.
    package init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    /// An array element, as ``init(index:)``: never fails.
    package init?(intValue: Int) { self.init(index: intValue) }
}
