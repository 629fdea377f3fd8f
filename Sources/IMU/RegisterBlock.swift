/// The bytes of one run of consecutive registers, up to the 32 an SMBus block transfer carries,
/// held inline: reading a sample 50 times a second allocates nothing.
///
/// A collection of `UInt8` indexed from 0, comparable with an array literal
/// (`bytes == [0x48, 0x34, 0x33]`).
public struct RegisterBlock: RandomAccessCollection, MutableCollection, Hashable, Sendable,
    ExpressibleByArrayLiteral
{
    /// The most bytes a block holds: `I2C_SMBUS_BLOCK_MAX`.
    public static let capacity = 32

    private var storage: InlineArray<32, UInt8>
    /// The number of bytes in the block.
    public private(set) var count: Int

    /// An empty block.
    public init() {
        storage = InlineArray(repeating: 0)
        count = 0
    }

    /// `count` copies of `byte`.
    public init(repeating byte: UInt8, count: Int) {
        precondition((0...Self.capacity).contains(count), "a register block holds 0 to 32 bytes")
        storage = InlineArray(repeating: byte)
        self.count = count
    }

    /// The bytes of a sequence of at most 32.
    public init(_ bytes: some Sequence<UInt8>) {
        self.init()
        for byte in bytes { append(byte) }
    }

    public init(arrayLiteral bytes: UInt8...) { self.init(bytes) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> UInt8 {
        get {
            precondition(position >= 0 && position < count, "register block index out of range")
            return storage[position]
        }
        set {
            precondition(position >= 0 && position < count, "register block index out of range")
            storage[position] = newValue
        }
    }

    /// Adds a byte at the end.
    public mutating func append(_ byte: UInt8) {
        precondition(count < Self.capacity, "a register block holds at most 32 bytes")
        storage[count] = byte
        count += 1
    }

    /// Lets `body` write up to 32 bytes into the block's storage; the block then holds the
    /// first n of them, where n is what `body` returns (clamped to 0…32). For C calls that fill
    /// a caller's buffer.
    public mutating func fill(_ body: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        let filled = withUnsafeMutableBytes(of: &storage) { raw in body(raw.bindMemory(to: UInt8.self)) }
        count = Swift.min(Swift.max(filled, 0), Self.capacity)
    }

    public static func == (left: RegisterBlock, right: RegisterBlock) -> Bool {
        left.elementsEqual(right)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for byte in self { hasher.combine(byte) }
    }
}
