import Heading

/// The samples one read of an accelerometer's FIFO took, oldest first, held inline: draining
/// the FIFO ten times a second allocates nothing.
///
/// Each entry is one data set as the chip queued it: specific force in g and angular rate in
/// °/s, both in the chip's axes, taken at the chip's FIFO rate.
public struct FIFOBatch: Sendable {
    /// The most data sets one batch holds: 32, 0.6 s at 52 Hz. A reader that falls further
    /// behind than that empties the FIFO and starts again (`gap`).
    public static let capacity = 32

    private var accelerations = InlineArray<32, Vector3>(repeating: .zero)
    private var angularRates = InlineArray<32, Vector3>(repeating: .zero)
    /// The number of data sets held.
    public private(set) var count = 0
    /// Whether the chip lost samples before these (its FIFO overflowed, or it was emptied
    /// because it held more than `capacity`): the time between the previous batch's last
    /// sample and this one's first is not one FIFO period.
    public var gap = false

    /// An empty batch.
    public init() {}

    /// The `index`th data set, oldest first.
    public subscript(index: Int) -> (accelerationG: Vector3, angularRateDegreesPerSecond: Vector3) {
        precondition(index >= 0 && index < count, "FIFO batch index out of range")
        return (accelerations[index], angularRates[index])
    }

    /// Adds a data set at the end; the batch must not be full.
    public mutating func append(accelerationG: Vector3, angularRateDegreesPerSecond: Vector3) {
        precondition(count < Self.capacity, "a FIFO batch holds at most 32 data sets")
        accelerations[count] = accelerationG
        angularRates[count] = angularRateDegreesPerSecond
        count += 1
    }

    /// Empties the batch and clears `gap`.
    public mutating func removeAll() {
        count = 0
        gap = false
    }
}
