import Heading

/// The body-frame samples one burst read produced (`IMUReader.readBurst`), oldest first, held
/// inline so that a burst allocates nothing.
public struct IMUBurst: Sendable {
    private var samples = InlineArray<32, IMUSample>(repeating: IMUSample(magneticMicrotesla: .zero, accelerationG: .zero))
    /// The number of samples held.
    public private(set) var count = 0

    /// An empty burst.
    public init() {}

    /// The `index`th sample, oldest first.
    public subscript(index: Int) -> IMUSample {
        precondition(index >= 0 && index < count, "IMU burst index out of range")
        return samples[index]
    }

    /// Adds a sample at the end; at most `FIFOBatch.capacity`.
    mutating func append(_ sample: IMUSample) {
        precondition(count < FIFOBatch.capacity, "an IMU burst holds at most 32 samples")
        samples[count] = sample
        count += 1
    }

    /// Empties the burst.
    mutating func removeAll() { count = 0 }
}
