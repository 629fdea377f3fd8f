import Heading
import IMU
import SystemSupport

/// The sensor loop on a thread of its own. While the heading matters (a destination is set or a
/// calibration is collecting) it either wakes ten times a second and takes the samples the
/// accelerometer queued in its FIFO (`IMUReader.readBurst`), every sample as the chip makes it
/// while the heading is near the zone's edge (`DaemonCore.isNearZoneEdge`: the motor then
/// starts or stops within a sample of the turn, not within a burst), or, with a chip that has none, reads
/// the IMU once or twice per sample period (`IMUSampleAverage.readsPerSample`) and hands the core
/// the mean of what it read (`IMUSampleAverage`). Otherwise it reads once every
/// ``idleInterval``. The core gets each sample synchronously, dated on the daemon's clock. It
/// reads whatever bus it was given (`/dev/i2c-N`, or the simulated board's) the same way.
///
/// Why a thread: a Swift task that sleeps 100 times a second wakes a timer thread and a worker
/// thread each time and hops between actors; this thread wakes once per read and allocates
/// nothing of its own in steady state. It does no file IO (fixes, saves and the trail are on
/// other threads), so it is also the one that pets systemd's watchdog: a hung bus or a core lock
/// never released gets the daemon restarted with the motor off.
public struct Sampling: Service {
    /// How often to sample while idle (no destination, no calibration). The heading in
    /// `status` is then at most this old; a heading filter with a time step this long converges
    /// on each sample (its gains are clamped to 1). Two seconds: with libdispatch's workqueue
    /// monitor, which wakes any process using Swift concurrency once a second on Linux, that is
    /// 1.5 wake-ups a second idle.
    static let idleInterval = Duration.seconds(2)
    /// How often to take the FIFO's samples while the heading matters, away from the zone's
    /// edge: five samples at 52 Hz. Each wake-up costs more than the samples it handles, so
    /// this, not the sample rate, sets the CPU the daemon takes while guiding on course or
    /// searching; near the edge each sample is taken as it comes.
    static let burstInterval = Duration.milliseconds(100)

    public var name: String { "sensors" }

    /// Makes the bus to read, on the sampling thread that then owns it: `/dev/i2c-N`, or the
    /// simulated board's.
    let openBus: @Sendable () -> any I2CBus
    let configuration: Configuration
    let core: DaemonCore<ScaledClock>
    let clock: ScaledClock
    let logger: Logger
    /// Woken when the heading starts to matter, and stopped at the end.
    let alarm: ThreadAlarm<ScaledClock>
    /// systemd's watchdog (`WatchdogSec=`), petted at a third of its interval, in every state,
    /// so that a stall of up to two thirds of it (a bus holding the thread up) is survived. No
    /// timer of its own: it rides on the sampling wake-ups. Nil without one.
    let watchdog: (interval: Duration, pet: @Sendable () -> Void)?

    /// The loop, not started yet (``run()``).
    public init(
        openBus: @escaping @Sendable () -> any I2CBus, configuration: Configuration, core: DaemonCore<ScaledClock>,
        clock: ScaledClock, logger: Logger, alarm: ThreadAlarm<ScaledClock>,
        watchdog: (interval: Duration, pet: @Sendable () -> Void)?
    ) {
        self.openBus = openBus
        self.configuration = configuration
        self.core = core
        self.clock = clock
        self.logger = logger
        self.alarm = alarm
        self.watchdog = watchdog
    }

    /// The sample period: how often the core gets a sample while the heading matters.
    var interval: Duration { .seconds(1 / configuration.sampleRateHertz) }

    /// Runs the thread until the task is cancelled.
    public func run() async throws {
        try await BlockingThread.run(name: "sampling", onCancel: { alarm.stop() }) { loop() }
    }

    /// Samples until stopped: opens the IMU when it can, retrying while it cannot
    /// (``IMUAcquisition``), ticks the core either way, and pets the watchdog.
    private func loop() {
        var acquisition = IMUAcquisition(bus: openBus(), configuration: configuration, logger: logger, now: clock.now)
        var reader: IMUReader?
        let petInterval = watchdog.map { $0.interval / 3 }
        let idleInterval = petInterval.map { min(Self.idleInterval, $0) } ?? Self.idleInterval
        var deadline = clock.now
        var nextPet = deadline
        var average = IMUSampleAverage()
        var reads = 0
        var faults = FaultLog()
        var silence = IMUSilence(now: clock.now)
        var burst = IMUBurst()
        var nextReport = clock.now
        // The pace of the reader in use, set once when it is found.
        var readInterval = interval
        var readsPerPeriod = 1
        let pollsPerBurst = Int((Self.burstInterval.seconds * configuration.sampleRateHertz).rounded())
        // The sample periods since the previous burst: fewer near the zone's edge.
        var burstPolls = pollsPerBurst
        while !alarm.isStopped {
            if reader == nil, let opened = acquisition.attempt(at: clock.now) {
                reader = opened
                silence = IMUSilence(now: clock.now)
                readsPerPeriod = IMUSampleAverage.readsPerSample(
                    hasGyroscope: opened.hasGyroscope, sampleRateHertz: configuration.sampleRateHertz)
                readInterval = interval / readsPerPeriod
                core.imuChanged(problem: nil)
            } else if reader == nil {
                core.imuChanged(problem: acquisition.problem)
            }
            if let reader, let chips = acquisition.chips, clock.now >= nextReport {
                core.imuInUse(chips: chips, statistics: reader.statistics)
                nextReport = clock.now.advanced(by: .seconds(1))
            }
            let needsHeading = core.needsHeading
            // The FIFO's rate while bursts are read; nil while polling (or without an IMU).
            let burstRateHertz = needsHeading ? reader?.fifoRateHertz : nil
            if let reader, let burstRateHertz {
                let outcome = reader.readBurst(into: &burst, polls: burstPolls)
                faults.note(outcome, logger: logger)
                note(outcome, in: &silence)
                if case .sample = outcome { deliver(burst, rateHertz: burstRateHertz) } else { core.tick() }
            } else if let reader {
                let outcome = reader.read()
                faults.note(outcome, logger: logger)
                note(outcome, in: &silence)
                if case .sample(let sample) = outcome { average.add(sample) }
                reads += 1
                if reads >= readsPerPeriod || !needsHeading {
                    reads = 0
                    if let sample = average.take() { core.sample(sample, at: clock.now) } else { core.tick() }
                }
            } else {
                // No IMU: time still passes for the navigator (stale fixes, warnings).
                core.tick()
            }
            let now = clock.now
            let nearZoneEdge = burstRateHertz != nil && core.isNearZoneEdge
            burstPolls = nearZoneEdge ? 1 : pollsPerBurst
            let period =
                reader == nil ? idleInterval
                : burstRateHertz.map { nearZoneEdge ? .seconds(1 / $0) : Self.burstInterval }
                ?? (needsHeading ? readInterval : idleInterval)
            // Petted now if the next wake-up may come after the pet is due, so it never takes a
            // wake-up of its own (waking for it a moment after a sample doubled the idle wake-ups).
            // The period never exceeds the pet interval, so the pets stay at most that far apart.
            if let watchdog, let petInterval, now.advanced(by: period) >= nextPet {
                watchdog.pet()
                nextPet = now.advanced(by: petInterval)
            }
            deadline = deadline.advanced(by: period)
            // Behind (the machine was suspended, or the pace just slowed): start afresh from now.
            if deadline < now || deadline > now.advanced(by: period) { deadline = now.advanced(by: period) }
            if reader == nil { deadline = min(deadline, max(acquisition.nextAttempt, now)) }
            if alarm.wait(until: deadline) { deadline = clock.now }
        }
    }

    /// Tells the core when the IMU stops answering and when it answers again.
    private func note(_ outcome: IMUReader.Outcome, in silence: inout IMUSilence<ScaledClock.Instant>) {
        switch outcome {
        case .sample: if silence.answered(at: clock.now) { core.imuSilent(since: nil) }
        case .deviceFault: if let since = silence.failed(at: clock.now) { core.imuSilent(since: since) }
        case .noNewSample: break
        }
    }

    /// Hands the core a burst's samples, each dated back from now by the chip's sample period:
    /// the newest was queued within one period of the read.
    private func deliver(_ burst: IMUBurst, rateHertz: Double) {
        let now = clock.now
        let period = Duration.seconds(1 / rateHertz)
        for index in 0..<burst.count {
            core.sample(burst[index], at: now.advanced(by: .zero - period * (burst.count - 1 - index)))
        }
    }
}
