/// Reads any `Decodable` from a ``JSONValue``, as Foundation's `JSONDecoder` would from the same
/// text: the programs link no Foundation.
///
/// Mistakes are reported with the same `DecodingError` cases and coding paths as `JSONDecoder`
/// reports them, because the messages for people are made from them (``ReplyDecodingError``, a
/// state file's defect):
/// - a missing member: `keyNotFound`, with the path of the object it is missing from;
/// - `null` where a value is needed: `valueNotFound(T.self)`, with the value's path;
/// - another kind of value: `typeMismatch(T.self)`, where `T` is `[String: Any]` for an object
///   and `[Any]` for an array;
/// - a number that does not fit the integer type asked for (`1.5` or `300` for a `UInt8`):
///   `dataCorrupted`, with the value's path.
///
/// Array elements appear in paths as keys with the index as `intValue`. Integers are read through
/// the `Double` a ``JSONValue`` holds, so exactly up to ±2⁵³. `Float` is refused, as
/// ``JSONValueEncoder`` refuses it.
package struct JSONValueDecoder {
    /// Creates a decoder.
    package init() {}

    /// Reads a `T` from `value`.
    ///
    /// - Parameters:
    ///   - type: What to read.
    ///   - value: The parsed JSON.
    /// - Throws: A `DecodingError` as described above, or whatever `T`'s `init(from:)` throws.
    package func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: ValueDecoder(value: value, codingPath: []))
    }
}

/// The `Decoder` handed to `init(from:)`: one value and where it is.
private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch value {
        case .object(let members):
            return KeyedDecodingContainer(KeyedValueContainer<Key>(members: members, codingPath: codingPath))
        case .null:
            throw DecodingError.valueNotFound(
                [String: Any].self, context("Cannot get keyed decoding container -- found null value instead"))
        default:
            throw mismatch([String: Any].self)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let elements): return UnkeyedValueContainer(elements: elements, codingPath: codingPath)
        case .null:
            throw DecodingError.valueNotFound(
                [Any].self, context("Cannot get unkeyed decoding container -- found null value instead"))
        default:
            throw mismatch([Any].self)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(decoder: self) }

    func context(_ description: String) -> DecodingError.Context {
        DecodingError.Context(codingPath: codingPath, debugDescription: description)
    }

    /// `value` is not a `T`: `valueNotFound` for null, as `JSONDecoder` says, else `typeMismatch`.
    func mismatch(_ type: Any.Type) -> DecodingError {
        if value == .null {
            return .valueNotFound(type, context("Expected \(type) value but found null instead."))
        }
        return .typeMismatch(type, context("Expected to decode \(type) but found \(value.kindName) instead."))
    }

    /// The value as an integer of type `T`, if it is a number that `T` holds exactly.
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .number(let number) = value else { throw mismatch(type) }
        guard let integer = T(exactly: number) else {
            throw DecodingError.dataCorrupted(
                context("Parsed JSON number <\(JSONWriter.number(number))> does not fit in \(type)."))
        }
        return integer
    }
}

/// An object's members. Every value goes through its type's `init(from:)`, so only
/// ``SingleValueContainer`` deals with primitives.
private struct KeyedValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).value == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try take(type, forKey: key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try take(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try take(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try take(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try take(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try take(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try take(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try take(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try take(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try take(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try take(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try take(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try take(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try take(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try take(type, forKey: key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try member(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { try member(JSONCodingKey.superKey) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try member(key) }

    /// The decoder of member `key`; `keyNotFound` with this object's path when there is none.
    private func member(_ key: any CodingKey) throws -> ValueDecoder {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return ValueDecoder(value: value, codingPath: codingPath + [key])
    }

    /// Every `decode` overload ends here; a distinct name, so that the overloads cannot call
    /// themselves.
    private func take<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: member(key))
    }
}

/// An array's elements, read in order.
private struct UnkeyedValueContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func decodeNil() throws -> Bool {
        guard try next(Never.self).value == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try take(type) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try take(type) }
    mutating func decode(_ type: String.Type) throws -> String { try take(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try take(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try take(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try take(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try take(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try take(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try take(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try take(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try take(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try take(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try take(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try take(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try take(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let container = try next(KeyedDecodingContainer<NestedKey>.self).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try next((any UnkeyedDecodingContainer).self).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try next((any Decoder).self)
        currentIndex += 1
        return decoder
    }

    /// The decoder of the element at `currentIndex`; `valueNotFound(type)` past the end.
    private func next(_ type: Any.Type) throws -> ValueDecoder {
        let path = codingPath + [JSONCodingKey(index: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        return ValueDecoder(value: elements[currentIndex], codingPath: path)
    }

    /// Every `decode` overload ends here; the index moves on only when the element was read, as
    /// in `JSONDecoder`.
    private mutating func take<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try T(from: next(type))
        currentIndex += 1
        return value
    }
}

/// One value: where JSON becomes primitives.
private struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = decoder.value else { throw decoder.mismatch(type) }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = decoder.value else { throw decoder.mismatch(type) }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let number) = decoder.value else { throw decoder.mismatch(type) }
        return number
    }

    func decode(_ type: Float.Type) throws -> Float {
        throw DecodingError.typeMismatch(
            type, decoder.context("Float is not supported: JSONValueDecoder reads numbers as Double"))
    }

    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: decoder) }
}
