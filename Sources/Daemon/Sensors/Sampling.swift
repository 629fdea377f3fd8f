@preconcurrency import Glibc
import Geodesy
import GPSClient
import Guidance
import Haptics
import Heading
import IMU
import Simulation
import Synchronization
import SystemSupport

/// The sensor loop on a thread of its own. While the heading matters (a destination is set or
/// a calibration is collecting) it either wakes ten times a second and takes the samples the
/// accelerometer queued in its FIFO (`IMUReader.readBurst`), or, with a chip that has none, reads
/// the IMU once or twice per sample period (`IMUSampleAverage.readsPerSample`) and hands the
/// core the mean of what it read (`IMUSampleAverage`). Otherwise it reads once every
/// `idleInterval`. The core gets each sample synchronously, with the time it was taken. On a
/// simulated board it also steps the simulated world (walker, chips, GPS receiver, scripted
/// events) on the same schedule, so the simulation costs no wake-ups of its own.
///
/// Why a thread: a Swift task that sleeps 100 times a second wakes a timer thread and a worker
/// thread each time and hops between actors; this thread wakes once per read and allocates
/// nothing of its own in steady state.
struct Sampling: Sendable {
    /// How often to sample while idle (no destination, no calibration). The heading in
    /// `status` is then at most this old; a heading filter with a time step this long converges
    /// on each sample (its gains are clamped to 1). Two seconds: with libdispatch's workqueue
    /// monitor, which wakes any process using Swift concurrency once a second on Linux, that is
    /// 1.5 wake-ups a second idle.
    static let idleInterval = Duration.seconds(2)
    /// How often to take the FIFO's samples while the heading matters: five samples at 52 Hz.
    /// Each wake-up costs more than the samples it handles, so this, not the sample rate, sets
    /// the CPU the daemon takes while guiding; the motor's cue follows the heading within it.
    static let burstInterval = Duration.milliseconds(100)
    /// A simulated receiver reports once a second.
    static let simulatedFixInterval = 1.0

    let walker: WalkerBox?
    let script: SimulationScript?
    let configuration: Configuration
    let core: DaemonCore<ContinuousClock>
    let logger: Logger
    let alarm: ThreadAlarm<ContinuousClock>
    /// Pets systemd's watchdog (`WatchdogSec=`) at half its interval, from the loop that ticks
    /// the navigator, so a hung loop (or a core lock that is never released) gets the daemon
    /// restarted with the motor off. No timer of its own: it rides on the sampling wake-ups.
    let notifier: SystemdNotifier

    /// The sample period: how often the core gets a sample while the heading matters.
    var interval: Duration { .seconds(1 / configuration.sampleRateHertz) }

    /// Runs the thread until the task is cancelled.
    func run() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                do throws(Errno) {
                    try BlockingThread.start {
                        loop()
                        finished.resume()
                    }
                } catch {
                    logger.error("cannot start the sampling thread", ["error": "\(error)"])
                    finished.resume()
                }
            }
        } onCancel: {
            alarm.stop()
        }
    }

    /// Samples until stopped: opens the IMU (or the simulated board) when it can, retrying
    /// while it cannot (``IMUAcquisition``), ticks the core either way, and pets the watchdog.
    private func loop() {
        var board: SimulatedBoard?
        if walker != nil {
            let physics = SensorPhysics(
                latitudeDegrees: WaypointDaemon.simulatedStart.latitudeDegrees,
                longitudeDegrees: WaypointDaemon.simulatedStart.longitudeDegrees,
                decimalYear: UTCTime(seconds: Int64(time(nil))).decimalYear, seed: 3)
            // The configured board when it names one (so a board without a gyroscope can be
            // tried), else the BerryGPS-IMU v4.
            let preset: BoardPreset
            if case .preset(let configured) = configuration.imu { preset = configured } else { preset = .berryGPSIMUv4 }
            board = SimulatedBoard(preset: preset, physics: physics)
        }
        var world = walker.map { SimulatedWorld(walker: $0, script: script, logger: logger) }
        if let board { world?.start(board: board) }
        if world != nil { logger.info("gps connected", ["gps.server": "simulated"]) }
        var acquisition = IMUAcquisition(
            source: board.map { .simulated($0) } ?? .linux(bus: configuration.i2cBus), configuration: configuration,
            logger: logger)
        var reader: IMUReader?

        // Petted at a third of its interval, in every state, so that a stall of up to two
        // thirds of it (an SD card or a bus holding the thread up) is survived.
        let watchdogInterval = notifier.watchdogInterval
        let idleInterval = watchdogInterval.map { min(Self.idleInterval, $0 / 3) } ?? Self.idleInterval
        var deadline = ContinuousClock.now
        var nextPet = deadline
        var average = IMUSampleAverage()
        var reads = 0
        var faults = FaultLog()
        var burst = IMUBurst()
        var nextReport = ContinuousClock.now
        // The pace of the reader in use, set once when it is found (the simulated world steps at
        // it meanwhile).
        var readsPerPeriod = IMUSampleAverage.readsPerSample(
            hasGyroscope: false, sampleRateHertz: configuration.sampleRateHertz)
        var readInterval = interval / readsPerPeriod
        let pollsPerBurst = Int((Self.burstInterval.seconds * configuration.sampleRateHertz).rounded())
        while !alarm.isStopped {
            if reader == nil, let opened = acquisition.attempt() {
                reader = opened
                readsPerPeriod = IMUSampleAverage.readsPerSample(
                    hasGyroscope: opened.hasGyroscope, sampleRateHertz: configuration.sampleRateHertz)
                readInterval = interval / readsPerPeriod
                core.imuChanged(problem: nil)
            } else if reader == nil {
                core.imuChanged(problem: acquisition.problem)
            }
            if let reader, let chips = acquisition.chips, ContinuousClock.now >= nextReport {
                core.imuInUse(chips: chips, statistics: reader.statistics)
                nextReport = ContinuousClock.now.advanced(by: .seconds(1))
            }
            let needsHeading = core.needsHeading
            // The FIFO's rate while bursts are read; nil while polling (or without an IMU).
            let burstRateHertz = needsHeading ? reader?.fifoRateHertz : nil
            if let board {
                // While bursting, the chips queue a sample per step of their own rate.
                world?.advance(
                    to: ContinuousClock.now, board: board, core: core,
                    stepSeconds: burstRateHertz.map { 1 / $0 } ?? readInterval.seconds,
                    updatingEachStep: burstRateHertz != nil)
            }
            if let reader, let burstRateHertz {
                let outcome = reader.readBurst(into: &burst, polls: pollsPerBurst)
                faults.note(outcome, logger: logger)
                if case .sample = outcome { deliver(burst, rateHertz: burstRateHertz) } else { core.tick() }
            } else if let reader {
                let outcome = reader.read()
                faults.note(outcome, logger: logger)
                if case .sample(let sample) = outcome { average.add(sample) }
                reads += 1
                if reads >= readsPerPeriod || !needsHeading {
                    reads = 0
                    if let sample = average.take() { core.sample(sample, at: ContinuousClock.now) } else { core.tick() }
                }
            } else {
                // No IMU: time still passes for the navigator (stale fixes, warnings).
                core.tick()
            }
            let now = ContinuousClock.now
            if let watchdogInterval, now >= nextPet {
                notifier.watchdog()
                nextPet = now.advanced(by: watchdogInterval / 3)
            }
            let period =
                reader == nil ? idleInterval
                : burstRateHertz != nil ? Self.burstInterval : needsHeading ? readInterval : idleInterval
            deadline = deadline.advanced(by: period)
            // Behind (the machine was suspended, or the pace just slowed): start afresh from now.
            if deadline < now || deadline > now.advanced(by: period) { deadline = now.advanced(by: period) }
            if reader == nil { deadline = min(deadline, max(acquisition.nextAttempt, now)) }
            // Woken for the pet itself, not the wake-up after it: a wake a millisecond before
            // it is due would otherwise put the pet off by a whole period.
            if watchdogInterval != nil { deadline = min(deadline, nextPet) }
            if alarm.wait(until: deadline) { deadline = ContinuousClock.now }
        }
    }

    /// Hands the core a burst's samples, each dated back from now by the chip's sample period:
    /// the newest was queued within one period of the read.
    private func deliver(_ burst: IMUBurst, rateHertz: Double) {
        let now = ContinuousClock.now
        let period = Duration.seconds(1 / rateHertz)
        for index in 0..<burst.count {
            core.sample(burst[index], at: now - period * (burst.count - 1 - index))
        }
    }
}
