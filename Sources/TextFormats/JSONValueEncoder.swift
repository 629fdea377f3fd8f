/// Turns any `Encodable` into a ``JSONValue``, as Foundation's `JSONEncoder` would before
/// writing it, for ``JSONWriter`` to write: the programs link no Foundation.
///
/// Keyed, unkeyed and single-value containers all work, nested to any depth, with
/// `superEncoder()` as a member `"super"`. What JSON cannot hold is refused with an
/// `EncodingError`, never a crash: NaN and infinities (as `JSONEncoder` refuses them), integers
/// beyond ±2⁵³ (a ``JSONValue`` keeps numbers as `Double`, which would round them), `Float`
/// (`JSONEncoder` writes a `Float`'s own shortest form, which the `Double` would not give), and
/// asking one encoder for two different kinds of container.
package struct JSONValueEncoder {
    /// The largest magnitude up to which every integer is exactly a `Double`: 2⁵³.
    static let largestExactInteger = 9_007_199_254_740_992

    /// Creates an encoder.
    package init() {}

    /// The JSON form of `value`.
    ///
    /// - Parameter value: What to encode. A value that encodes nothing at all is `{}`, as with
    ///   `JSONEncoder`.
    /// - Throws: `EncodingError.invalidValue` with the coding path of what could not be encoded,
    ///   or whatever `value`'s `encode(to:)` throws.
    package func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Slot(codingPath: [])
        try value.encode(to: SlotEncoder(slot: root))
        return try root.finished()
    }
}

/// A value under construction. Containers are handed out before their members are written, so
/// each member is a slot that is filled in later, and the tree becomes a ``JSONValue`` at the end.
private final class Slot {
    enum Content {
        /// Nothing was encoded here (yet).
        case empty
        case value(JSONValue)
        case object([String: Slot])
        case array([Slot])
        /// What could not be encoded; thrown when the tree is finished, because the container
        /// methods that detect it cannot throw.
        case failed(EncodingError)
    }

    let codingPath: [any CodingKey]
    var content = Content.empty

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    /// The finished value; an empty slot is `{}`, as `JSONEncoder` writes a type that encoded
    /// nothing.
    func finished() throws -> JSONValue {
        switch content {
        case .empty: return .object([:])
        case .value(let value): return value
        case .object(let members): return .object(try members.mapValues { try $0.finished() })
        case .array(let elements): return .array(try elements.map { try $0.finished() })
        case .failed(let error): throw error
        }
    }

    /// Makes this slot an object, unless it already is one.
    func becomeObject() {
        switch content {
        case .object, .failed: break
        case .empty: content = .object([:])
        case .value, .array: content = .failed(conflict("a keyed container"))
        }
    }

    /// Makes this slot an array, unless it already is one.
    func becomeArray() {
        switch content {
        case .array, .failed: break
        case .empty: content = .array([])
        case .value, .object: content = .failed(conflict("an unkeyed container"))
        }
    }

    /// The slot for member `key`, replacing any earlier one, as `JSONEncoder` does.
    func member(_ key: any CodingKey) -> Slot {
        let member = Slot(codingPath: codingPath + [key])
        guard case .object(var members) = content else { return member }
        // `content` lets go of the dictionary first, so that `members` is its only owner and the
        // insert happens in place: otherwise every member would copy all the earlier ones.
        content = .empty
        members[key.stringValue] = member
        content = .object(members)
        return member
    }

    /// A slot appended to this array.
    func appended() -> Slot {
        guard case .array(var elements) = content else { return Slot(codingPath: codingPath) }
        let element = Slot(codingPath: codingPath + [JSONCodingKey(index: elements.count)])
        // As in `member(_:)`: one owner, so that the append does not copy the array.
        content = .empty
        elements.append(element)
        content = .array(elements)
        return element
    }

    var count: Int {
        if case .array(let elements) = content { elements.count } else { 0 }
    }

    /// Stores one primitive value; a second value, or a value where a container was asked for,
    /// is a conflict.
    func store(_ value: JSONValue) {
        switch content {
        case .empty, .value: content = .value(value)
        case .failed: break
        case .object, .array: content = .failed(conflict("a single value"))
        }
    }

    /// Stores a number, refusing those JSON cannot hold exactly.
    func store(number: Double) throws {
        guard number.isFinite else {
            throw EncodingError.invalidValue(
                number,
                EncodingError.Context(
                    codingPath: codingPath, debugDescription: "JSON has no NaN or infinity: \(number)"))
        }
        store(.number(number))
    }

    /// Stores an integer if a `Double` holds it exactly.
    func store(integer: some BinaryInteger) throws {
        guard integer.magnitude <= JSONValueEncoder.largestExactInteger, let number = Double(exactly: integer) else {
            throw EncodingError.invalidValue(
                integer,
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "\(integer) is beyond ±2^53, where JSON numbers read as Double lose digits"))
        }
        store(.number(number))
    }

    private func conflict(_ asked: String) -> EncodingError {
        EncodingError.invalidValue(
            asked,
            EncodingError.Context(
                codingPath: codingPath,
                debugDescription: "asked for \(asked) where a different kind of value was already encoded"))
    }
}

/// The `Encoder` handed to `encode(to:)`: a view of one slot.
private struct SlotEncoder: Encoder {
    let slot: Slot
    var codingPath: [any CodingKey] { slot.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.becomeObject()
        return KeyedEncodingContainer(KeyedSlotContainer<Key>(slot: slot))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        slot.becomeArray()
        return UnkeyedSlotContainer(slot: slot)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleSlotContainer(slot: slot) }
}

/// The members of an object. Every value goes through its own `encode(to:)` into a member slot,
/// so only ``SingleSlotContainer`` deals with primitives.
private struct KeyedSlotContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: Slot
    var codingPath: [any CodingKey] { slot.codingPath }

    mutating func encodeNil(forKey key: Key) throws { slot.member(key).store(.null) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(value, forKey: key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        SlotEncoder(slot: slot.member(key)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        SlotEncoder(slot: slot.member(key)).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { SlotEncoder(slot: slot.member(JSONCodingKey.superKey)) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { SlotEncoder(slot: slot.member(key)) }

    /// Every `encode` overload ends here; a distinct name, so that the overloads cannot call
    /// themselves.
    private func put(_ value: some Encodable, forKey key: Key) throws {
        try value.encode(to: SlotEncoder(slot: slot.member(key)))
    }
}

/// The elements of an array, each through its own `encode(to:)` into a new slot.
private struct UnkeyedSlotContainer: UnkeyedEncodingContainer {
    let slot: Slot
    var codingPath: [any CodingKey] { slot.codingPath }
    var count: Int { slot.count }

    mutating func encodeNil() throws { slot.appended().store(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try put(value) }
    mutating func encode(_ value: Bool) throws { try put(value) }
    mutating func encode(_ value: String) throws { try put(value) }
    mutating func encode(_ value: Double) throws { try put(value) }
    mutating func encode(_ value: Float) throws { try put(value) }
    mutating func encode(_ value: Int) throws { try put(value) }
    mutating func encode(_ value: Int8) throws { try put(value) }
    mutating func encode(_ value: Int16) throws { try put(value) }
    mutating func encode(_ value: Int32) throws { try put(value) }
    mutating func encode(_ value: Int64) throws { try put(value) }
    mutating func encode(_ value: UInt) throws { try put(value) }
    mutating func encode(_ value: UInt8) throws { try put(value) }
    mutating func encode(_ value: UInt16) throws { try put(value) }
    mutating func encode(_ value: UInt32) throws { try put(value) }
    mutating func encode(_ value: UInt64) throws { try put(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        SlotEncoder(slot: slot.appended()).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        SlotEncoder(slot: slot.appended()).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { SlotEncoder(slot: slot.appended()) }

    /// Every `encode` overload ends here; a distinct name, so that the overloads cannot call
    /// themselves.
    private func put(_ value: some Encodable) throws { try value.encode(to: SlotEncoder(slot: slot.appended())) }
}

/// One value: where the primitives become JSON.
private struct SingleSlotContainer: SingleValueEncodingContainer {
    let slot: Slot
    var codingPath: [any CodingKey] { slot.codingPath }

    mutating func encodeNil() throws { slot.store(.null) }
    mutating func encode(_ value: Bool) throws { slot.store(.bool(value)) }
    mutating func encode(_ value: String) throws { slot.store(.string(value)) }
    mutating func encode(_ value: Double) throws { try slot.store(number: value) }
    mutating func encode(_ value: Float) throws {
        throw EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: codingPath,
                debugDescription: "Float is not supported: JSONEncoder writes its own shortest form; use Double"))
    }
    mutating func encode(_ value: Int) throws { try slot.store(integer: value) }
    mutating func encode(_ value: Int8) throws { try slot.store(integer: value) }
    mutating func encode(_ value: Int16) throws { try slot.store(integer: value) }
    mutating func encode(_ value: Int32) throws { try slot.store(integer: value) }
    mutating func encode(_ value: Int64) throws { try slot.store(integer: value) }
    mutating func encode(_ value: UInt) throws { try slot.store(integer: value) }
    mutating func encode(_ value: UInt8) throws { try slot.store(integer: value) }
    mutating func encode(_ value: UInt16) throws { try slot.store(integer: value) }
    mutating func encode(_ value: UInt32) throws { try slot.store(integer: value) }
    mutating func encode(_ value: UInt64) throws { try slot.store(integer: value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try value.encode(to: SlotEncoder(slot: slot)) }
}
