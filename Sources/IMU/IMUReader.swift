import Heading
import SystemSupport

/// Reads a magnetometer and an accelerometer (with its gyroscope, if any) and turns each poll into
/// a body-frame `IMUSample`, "no new sample", or "device fault", riding out bus trouble on its
/// own.
///
/// Each transfer that fails (EIO, EREMOTEIO, a NAK, …) is tried once more at once: a single
/// glitch on a Pi's I2C bus is common and costs nothing to retry. Both tries are counted in
/// `statistics`, with the last error. A poll whose retry fails too is a failed poll; after
/// `Settings.failuresBeforeReinitialisation` failed polls in a row the devices are configured
/// again (a chip that lost power comes back in power-down), and if that does not bring samples
/// back, each further attempt waits twice as many polls as the one before, up to a limit, without
/// touching the bus in between. A chip that answers but stops producing data for
/// `Settings.stallPolls` polls counts as failing too. Nothing here traps or discards a device
/// error: every one ends in `statistics` and in the `Outcome` the caller uses to mark the
/// heading unreliable.
///
/// Backoff is counted in polls rather than time, so the reader needs no clock: at the daemon's
/// poll rate a count is a duration, and tests step it exactly.
///
/// When the accelerometer has a FIFO (`fifoRateHertz`), `readBurst(into:polls:)` takes every
/// sample it queued since the last burst, so the caller can wake a few times a second instead
/// of once per sample; `read()` and `readBurst` switch the FIFO off and on as they alternate.
///
/// Not thread-safe: one poller owns it, as it owns the bus.
public final class IMUReader {
    /// When to give up on a device and how long to wait between attempts.
    public struct Settings: Sendable, Hashable {
        /// Failed polls in a row before the devices are configured again. Default 5.
        public var failuresBeforeReinitialisation: Int
        /// Polls to wait before the second configuration attempt when the first did not bring
        /// samples back; each later attempt waits twice as long. Default 10 (0.2 s at 50 Hz).
        public var initialBackoffPolls: Int
        /// The longest wait between attempts, in polls. Default 500 (10 s at 50 Hz).
        public var maximumBackoffPolls: Int
        /// Polls in a row without new data from one sensor before it counts as failed; 0 turns
        /// the check off. Default 50 (1 s at 50 Hz, ten samples of the slowest chip here). Until
        /// then, samples carry that sensor's last reading.
        public var stallPolls: Int

        /// Settings with the documented defaults, or the values given.
        public init(
            failuresBeforeReinitialisation: Int = 5, initialBackoffPolls: Int = 10, maximumBackoffPolls: Int = 500,
            stallPolls: Int = 50
        ) {
            self.failuresBeforeReinitialisation = max(1, failuresBeforeReinitialisation)
            self.initialBackoffPolls = max(1, initialBackoffPolls)
            self.maximumBackoffPolls = max(self.initialBackoffPolls, maximumBackoffPolls)
            self.stallPolls = max(0, stallPolls)
        }
    }

    /// One of the two sensors.
    public enum Sensor: String, Sendable, Hashable {
        case magnetometer, accelerometer
    }

    /// Why a poll produced nothing usable.
    public enum Fault: Sendable, Hashable, CustomStringConvertible {
        /// A transfer failed twice (or a configuration failed twice).
        case transfer(I2CError)
        /// The sensor answered but produced no new data for this many polls.
        case noData(Sensor, polls: Int)

        public var description: String {
            switch self {
            case .transfer(let error): return error.description
            case .noData(let sensor, let polls): return "no new \(sensor.rawValue) data for \(polls) polls"
            }
        }
    }

    /// What one poll produced.
    public enum Outcome: Sendable, Hashable {
        /// A new body-frame sample: field µT, specific force g, angular rate °/s or nil.
        case sample(IMUSample)
        /// The devices work but neither had a new reading.
        case noNewSample
        /// The devices are failing or being recovered; the heading is unreliable.
        case deviceFault(Fault)
    }

    /// Counters for `status` and `waypointd check`.
    public struct Statistics: Sendable, Hashable {
        /// Samples produced.
        public var samples = 0
        /// Transfers that failed, retries included.
        public var transferErrors = 0
        /// Failures whose immediate retry succeeded.
        public var recoveredByRetry = 0
        /// Polls answered with `deviceFault`, waiting for the next attempt included.
        public var faultedPolls = 0
        /// Failed polls in a row now (0 once a poll succeeds).
        public var consecutiveFailures = 0
        /// Times the devices were configured again after failing.
        public var reinitialisations = 0
        /// The most recent transfer error, even one a retry recovered from.
        public var lastError: I2CError?
        /// The most recent fault.
        public var lastFault: Fault?
        /// Times the accelerometer's FIFO overflowed or fell out of step and was emptied:
        /// samples were lost (the burst after it starts later, and its times say so).
        public var fifoRestarts = 0

        /// Zero counts.
        public init() {}
    }

    /// Where the reader is in its life.
    private enum Phase {
        /// Not configured yet: the next poll configures.
        case unconfigured
        /// Configured; polls read.
        case running
        /// Failing with `fault`: this many polls pass untouched before the next configuration
        /// attempt.
        case waiting(polls: Int, fault: Fault)
    }

    /// The counters so far.
    public private(set) var statistics = Statistics()
    /// The settings.
    public let settings: Settings

    private let magnetometer: any MagnetometerDriver
    private let magnetometerMap: AxisMap
    private let accelerometer: any AccelerometerDriver
    private let accelerometerMap: AxisMap
    /// The accelerometer again when it can queue samples.
    private let fifo: (any FIFOAccelerometerDriver)?
    /// Whether the FIFO is queueing (bursts), as far as the reader knows.
    private var isFIFORunning = false
    /// The last FIFO read, kept here so that a burst does not copy it.
    private var batch = FIFOBatch()
    /// Whether the samples carry an angular rate (the accelerometer chip has a gyroscope).
    public let hasGyroscope: Bool
    private var phase = Phase.unconfigured
    /// Configuration attempts since the last sample: the exponent of the backoff.
    private var attemptsSinceSample = 0
    private var latestField: Vector3?
    /// The field the burst before the last one ended with: the nearer one in time for the
    /// first half of a burst's samples.
    private var previousBurstField: Vector3?
    private var latestAcceleration: Vector3?
    private var latestAngularRate: Vector3?
    private var pollsWithoutField = 0
    private var pollsWithoutAcceleration = 0

    /// A reader over two drivers.
    /// - Parameters:
    ///   - magnetometer: the magnetometer's driver.
    ///   - magnetometerMap: its axes to body axes.
    ///   - accelerometer: the accelerometer's driver; configured before the magnetometer, because
    ///     an ICM-20948's configuration is what makes its AK09916 reachable.
    ///   - accelerometerMap: its axes (and its gyroscope's) to body axes; a rotation.
    ///   - settings: retry and backoff limits.
    public init(
        magnetometer: any MagnetometerDriver, magnetometerMap: AxisMap, accelerometer: any AccelerometerDriver,
        accelerometerMap: AxisMap, settings: Settings = Settings()
    ) {
        self.magnetometer = magnetometer
        self.magnetometerMap = magnetometerMap
        self.accelerometer = accelerometer
        self.accelerometerMap = accelerometerMap
        self.hasGyroscope = type(of: accelerometer).hasGyroscope
        fifo = accelerometer as? any FIFOAccelerometerDriver
        self.settings = settings
    }

    /// The rate the accelerometer queues samples at, Hz, when it has a FIFO; nil otherwise
    /// (then only `read()` works).
    public var fifoRateHertz: Double? { fifo.map { type(of: $0).fifoRateHertz } }

    /// A reader for the chips `selection` names on `bus`.
    /// - Parameters:
    ///   - selection: the pair and its axis maps.
    ///   - bus: the bus the chips are on.
    ///   - settings: retry and backoff limits.
    ///   - pause: blocks for a duration while a chip resets (ThreadSleep by default).
    /// - Throws: `I2CError` when the bus cannot hand out a device (no bus, no permission, an
    ///   address claimed by a kernel driver): a startup problem, not a transient one.
    public convenience init(
        selection: IMUSelection, bus: any I2CBus, settings: Settings = Settings(),
        pause: @escaping (Duration) -> Void = ThreadSleep.sleep(for:)
    ) throws(I2CError) {
        let magnetometerDevice = try bus.device(at: selection.magnetometer.address)
        let accelerometerDevice = try bus.device(at: selection.accelerometer.address)
        // IMUSelection only holds chips in their roles, so both drivers exist.
        guard let magnetometer = selection.magnetometer.chip.makeMagnetometer(device: magnetometerDevice, pause: pause),
            let accelerometer = selection.accelerometer.chip.makeAccelerometer(
                device: accelerometerDevice, pause: pause)
        else {
            preconditionFailure("IMUSelection holds a chip outside its role: \(selection)")
        }
        self.init(
            magnetometer: magnetometer, magnetometerMap: selection.magnetometer.axisMap, accelerometer: accelerometer,
            accelerometerMap: selection.accelerometer.axisMap, settings: settings)
    }

    /// Configures both devices now, so a missing or broken device shows at startup with its
    /// error (the daemon then exits with a message). Optional: the first `read()` configures
    /// otherwise. Each configuration is retried once, as every transfer is.
    /// - Throws: `I2CError` from the second failed attempt.
    public func start() throws(I2CError) {
        do throws(I2CError) {
            try configureDevices()
            phase = .running
        } catch {
            statistics.lastFault = .transfer(error)
            throw error
        }
    }

    /// Whether the reader is waiting out a backoff before configuring the devices again.
    public var isRecovering: Bool {
        if case .waiting = phase { return true }
        return false
    }

    /// One poll: reads whatever the devices have and says what came of it.
    public func read() -> Outcome {
        if let fault = prepare(polls: 1) { return .deviceFault(fault) }
        if isFIFORunning, let fifo {
            do throws(I2CError) {
                try withRetry { () throws(I2CError) in try fifo.stopFIFO() }
                isFIFORunning = false
            } catch {
                return .deviceFault(fail(.transfer(error)))
            }
        }
        return poll()
    }

    /// One burst: every sample the accelerometer queued since the last burst, each with the
    /// magnetometer's field read nearest in time to it (the field is read once a burst: the
    /// first half of the samples takes the previous burst's, the second half this one's). The
    /// gyroscope carries the heading between them.
    /// - Parameters:
    ///   - burst: receives the samples, body frame, oldest first.
    ///   - polls: how many sample periods the burst stands for, so that stall detection and
    ///     backoff keep their durations (`Settings` counts at the sample rate).
    /// - Returns: `.sample` with the newest sample when `burst` holds any.
    /// - Precondition: `fifoRateHertz` is not nil.
    public func readBurst(into burst: inout IMUBurst, polls: Int) -> Outcome {
        guard let fifo else { preconditionFailure("readBurst(into:polls:) needs an accelerometer with a FIFO") }
        burst.removeAll()
        let polls = max(1, polls)
        if let fault = prepare(polls: polls) { return .deviceFault(fault) }
        if !isFIFORunning {
            // The FIFO starts empty, so this burst takes the sample in the output registers:
            // the caller then has a current one now, not a burst interval later. The last sample
            // of an idle spell is up to two seconds old, past the navigator's heading timeout, so
            // an empty first burst would flash "heading unreliable" at the wearer.
            let current = poll()
            do throws(I2CError) {
                try withRetry { () throws(I2CError) in try fifo.startFIFO() }
                isFIFORunning = true
            } catch {
                return .deviceFault(fail(.transfer(error)))
            }
            previousBurstField = latestField
            if case .sample(let sample) = current { burst.append(sample) }
            return current
        }
        let field: Vector3?
        do throws(I2CError) {
            try withRetry { () throws(I2CError) in try fifo.drainFIFO(into: &batch) }
            field = try withRetry { () throws(I2CError) in try magnetometer.readMagneticField() }
        } catch {
            return .deviceFault(fail(.transfer(error)))
        }
        let previousField = previousBurstField ?? field ?? latestField
        if let field { latestField = field }
        previousBurstField = latestField
        pollsWithoutField = field == nil ? pollsWithoutField + polls : 0
        pollsWithoutAcceleration = batch.count == 0 ? pollsWithoutAcceleration + polls : 0
        if let fault = stallFault() { return .deviceFault(fail(fault)) }
        if batch.gap { statistics.fifoRestarts += 1 }
        statistics.consecutiveFailures = 0
        guard batch.count > 0, let latestField, let previousField else { return .noNewSample }
        for index in 0..<batch.count {
            let (acceleration, rate) = batch[index]
            burst.append(
                IMUSample(
                    magneticMicrotesla: magnetometerMap.apply(index < batch.count / 2 ? previousField : latestField),
                    accelerationG: accelerometerMap.apply(acceleration),
                    angularRateDegreesPerSecond: accelerometerMap.apply(rate)))
        }
        latestAcceleration = batch[batch.count - 1].accelerationG
        latestAngularRate = batch[batch.count - 1].angularRateDegreesPerSecond
        statistics.samples += batch.count
        attemptsSinceSample = 0
        return .sample(burst[burst.count - 1])
    }

    /// Waits out a backoff (`polls` at a time) or configures the devices when they need it;
    /// the fault when the reader is not running afterwards.
    private func prepare(polls: Int) -> Fault? {
        switch phase {
        case .waiting(let left, let fault) where left > 0:
            // Leave a failing bus alone until the backoff is over.
            phase = .waiting(polls: max(0, left - polls), fault: fault)
            statistics.faultedPolls += 1
            return fault
        case .waiting:
            statistics.reinitialisations += 1
            return reconfigure()
        case .unconfigured:
            return reconfigure()
        case .running:
            return nil
        }
    }

    /// Configures both devices; nil on success, else the fault (with the next attempt
    /// scheduled).
    private func reconfigure() -> Fault? {
        attemptsSinceSample += 1
        do throws(I2CError) {
            try configureDevices()
        } catch {
            statistics.faultedPolls += 1
            statistics.consecutiveFailures += 1
            let fault = Fault.transfer(error)
            statistics.lastFault = fault
            phase = .waiting(polls: backoffPolls(), fault: fault)
            return fault
        }
        phase = .running
        // Configuration leaves the FIFO as it was, or off after a reset: start it afresh.
        isFIFORunning = false
        statistics.consecutiveFailures = 0
        // Readings from before the fault may be stale or from a chip that reset: start afresh.
        latestField = nil
        previousBurstField = nil
        latestAcceleration = nil
        latestAngularRate = nil
        pollsWithoutField = 0
        pollsWithoutAcceleration = 0
        return nil
    }

    private func configureDevices() throws(I2CError) {
        try withRetry { () throws(I2CError) in try accelerometer.configure() }
        try withRetry { () throws(I2CError) in try magnetometer.configure() }
    }

    /// Polls to wait before configuration attempt `attemptsSinceSample + 1`: none before the
    /// first, then the initial backoff doubled per attempt, capped.
    private func backoffPolls() -> Int {
        Backoff(first: settings.initialBackoffPolls, longest: settings.maximumBackoffPolls)
            .wait(afterFailures: attemptsSinceSample)
    }

    private func poll() -> Outcome {
        let field: Vector3?
        let acceleration: Vector3?
        do throws(I2CError) {
            field = try withRetry { () throws(I2CError) in try magnetometer.readMagneticField() }
            if let field { latestField = field }
            acceleration = try withRetry { () throws(I2CError) in try accelerometer.readAcceleration() }
            if let acceleration { latestAcceleration = acceleration }
            if hasGyroscope, let rate = try withRetry({ () throws(I2CError) in try accelerometer.readAngularRate() }) {
                latestAngularRate = rate
            }
        } catch {
            return .deviceFault(fail(.transfer(error)))
        }
        pollsWithoutField = field == nil ? pollsWithoutField + 1 : 0
        pollsWithoutAcceleration = acceleration == nil ? pollsWithoutAcceleration + 1 : 0
        if let fault = stallFault() { return .deviceFault(fail(fault)) }
        statistics.consecutiveFailures = 0
        guard field != nil || acceleration != nil, let latestField, let latestAcceleration else { return .noNewSample }
        statistics.samples += 1
        attemptsSinceSample = 0
        return .sample(
            IMUSample(
                magneticMicrotesla: magnetometerMap.apply(latestField),
                accelerationG: accelerometerMap.apply(latestAcceleration),
                // The gyroscope shares the accelerometer's die and so its axes.
                angularRateDegreesPerSecond: hasGyroscope ? latestAngularRate.map(accelerometerMap.apply) : nil))
    }

    /// The stall of a sensor that has gone `Settings.stallPolls` polls without new data, if one has.
    private func stallFault() -> Fault? {
        guard settings.stallPolls > 0 else { return nil }
        if pollsWithoutField >= settings.stallPolls { return .noData(.magnetometer, polls: pollsWithoutField) }
        if pollsWithoutAcceleration >= settings.stallPolls {
            return .noData(.accelerometer, polls: pollsWithoutAcceleration)
        }
        return nil
    }

    /// Records a failed poll and, after enough in a row, schedules the devices' reconfiguration.
    private func fail(_ fault: Fault) -> Fault {
        statistics.faultedPolls += 1
        statistics.consecutiveFailures += 1
        statistics.lastFault = fault
        if statistics.consecutiveFailures >= settings.failuresBeforeReinitialisation {
            phase = .waiting(polls: backoffPolls(), fault: fault)
        }
        return fault
    }

    /// `operation`, tried a second time at once when it fails; both failures are counted.
    private func withRetry<T>(_ operation: () throws(I2CError) -> T) throws(I2CError) -> T {
        do throws(I2CError) {
            return try operation()
        } catch {
            statistics.transferErrors += 1
            statistics.lastError = error
        }
        do throws(I2CError) {
            let value = try operation()
            statistics.recoveredByRetry += 1
            return value
        } catch {
            statistics.transferErrors += 1
            statistics.lastError = error
            throw error
        }
    }
}
