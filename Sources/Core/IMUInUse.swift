/// The IMU the daemon reads and what reading it has cost, as the sampling thread counts it.
public struct IMUInUse: Sendable, Hashable {
    /// The magnetometer and accelerometer, with their addresses.
    public var chips: String
    /// Samples read since the IMU was found.
    public var samples: Int
    /// I2C transfers that failed, retries included.
    public var transferErrors: Int
    /// Reads that failed after their retry.
    public var faults: Int
    /// Times the chips were configured again after failing.
    public var restarts: Int

    /// An IMU's counters from their parts.
    public init(chips: String, samples: Int, transferErrors: Int, faults: Int, restarts: Int) {
        self.chips = chips
        self.samples = samples
        self.transferErrors = transferErrors
        self.faults = faults
        self.restarts = restarts
    }
}
