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
    /// Whether the samples carry an angular rate (the accelerometer chip has a gyroscope).
    public let hasGyroscope: Bool
    private var phase = Phase.unconfigured
    /// Configuration attempts since the last sample: the exponent of the backoff.
    private var attemptsSinceSample = 0
    private var latestField: Vector3?
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
        self.settings = settings
    }

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
        switch phase {
        case .waiting(let polls, let fault) where polls > 0:
            // Leave a failing bus alone until the backoff is over.
            phase = .waiting(polls: polls - 1, fault: fault)
            statistics.faultedPolls += 1
            return .deviceFault(fault)
        case .waiting:
            statistics.reinitialisations += 1
            if let fault = reconfigure() { return fault }
        case .unconfigured:
            if let fault = reconfigure() { return fault }
        case .running:
            break
        }
        return poll()
    }

    /// Configures both devices; nil on success, else the fault outcome (with the next attempt
    /// scheduled).
    private func reconfigure() -> Outcome? {
        attemptsSinceSample += 1
        do throws(I2CError) {
            try configureDevices()
        } catch {
            statistics.faultedPolls += 1
            statistics.consecutiveFailures += 1
            let fault = Fault.transfer(error)
            statistics.lastFault = fault
            phase = .waiting(polls: backoffPolls(), fault: fault)
            return .deviceFault(fault)
        }
        phase = .running
        statistics.consecutiveFailures = 0
        // Readings from before the fault may be stale or from a chip that reset: start afresh.
        latestField = nil
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
        let doublings = attemptsSinceSample - 1
        guard doublings >= 0 else { return 0 }
        // Stop doubling at the cap, so a long outage cannot overflow the count.
        var polls = settings.initialBackoffPolls
        for _ in 0..<doublings where polls < settings.maximumBackoffPolls { polls *= 2 }
        return min(polls, settings.maximumBackoffPolls)
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
            return fail(.transfer(error))
        }
        pollsWithoutField = field == nil ? pollsWithoutField + 1 : 0
        pollsWithoutAcceleration = acceleration == nil ? pollsWithoutAcceleration + 1 : 0
        if settings.stallPolls > 0 {
            if pollsWithoutField >= settings.stallPolls {
                return fail(.noData(.magnetometer, polls: pollsWithoutField))
            }
            if pollsWithoutAcceleration >= settings.stallPolls {
                return fail(.noData(.accelerometer, polls: pollsWithoutAcceleration))
            }
        }
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

    /// Records a failed poll and, after enough in a row, schedules the devices' reconfiguration.
    private func fail(_ fault: Fault) -> Outcome {
        statistics.faultedPolls += 1
        statistics.consecutiveFailures += 1
        statistics.lastFault = fault
        if statistics.consecutiveFailures >= settings.failuresBeforeReinitialisation {
            phase = .waiting(polls: backoffPolls(), fault: fault)
        }
        return .deviceFault(fault)
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
