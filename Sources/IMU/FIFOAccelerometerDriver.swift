/// An accelerometer and gyroscope whose chip can queue its samples in a FIFO, so the sampler can
/// wake ten times a second and take five samples each time instead of waking fifty times: on a
/// battery the wake-ups, not the arithmetic, are what sampling costs.
public protocol FIFOAccelerometerDriver: AccelerometerDriver {
    /// The rate the chip queues data sets at, Hz: its output data rate.
    static var fifoRateHertz: Double { get }
    /// Empties the FIFO and starts queueing every sample (continuous mode: when full, the
    /// oldest is dropped). Call after `configure()`, which leaves the FIFO off.
    func startFIFO() throws(I2CError)
    /// Stops queueing, which also empties the FIFO; `readAcceleration()` and
    /// `readAngularRate()` read the output registers as before.
    func stopFIFO() throws(I2CError)
    /// Moves every queued data set into `batch` (emptied first), oldest first. When the chip
    /// lost samples, or held more than `FIFOBatch.capacity`, the FIFO is emptied and started
    /// again and `batch.gap` is set.
    func drainFIFO(into batch: inout FIFOBatch) throws(I2CError)
}
