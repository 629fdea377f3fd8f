/// Whole records out of the bytes an input device (or a pipe standing in for one) gives: a
/// read may end inside a record, and the rest comes with the next read. Holds at most one
/// record's bytes between reads.
public struct InputEventDecoder: Sendable {
    private var partial: [UInt8] = []

    public init() {}

    /// The records completed by `bytes`, each handed to `body` in order.
    public mutating func decode(_ bytes: UnsafeRawBufferPointer, _ body: (InputEvent) -> Void) {
        let size = InputEvent.size
        var start = 0
        if !partial.isEmpty {
            let needed = min(size - partial.count, bytes.count)
            partial.append(contentsOf: bytes[0..<needed])
            start = needed
            guard partial.count == size else { return }
            partial.withUnsafeBytes { body(InputEvent(record: $0)) }
            partial.removeAll(keepingCapacity: true)
        }
        while bytes.count - start >= size {
            body(InputEvent(record: UnsafeRawBufferPointer(rebasing: bytes[start..<start + size])))
            start += size
        }
        partial.append(contentsOf: bytes[start...])
    }

    /// Drops a partial record (the device was closed).
    public mutating func reset() { partial.removeAll(keepingCapacity: true) }
}
