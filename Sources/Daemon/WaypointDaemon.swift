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

/// How `waypointd` was started.
public struct DaemonOptions: Sendable {
    public var configPath: String?
    public var simulate = false
    public var socketPath: String?
    public var stateDirectory: String?
    public var sysfsRoot: String?
    public var logLevel: Logger.Level?
    public var recordPath: String?
    /// A ``SimulationScript``: what happens to the simulated world, and when (`--simulate-events`).
    public var simulationEventsPath: String?

    public init() {}
}

/// The daemon: opens the devices (or the simulated board), starts the sensor loops, the motor,
/// the tick and the control server under one task group, tells systemd when it is ready, and
/// on SIGTERM or SIGINT stops them all, leaving the motor off. Every other signal that would end
/// it is logged and ignored (`SignalStream.ignored`).
public enum WaypointDaemon {
    /// Where the simulated wearer starts: the Champ de Mars, Paris.
    static let simulatedStart = Coordinate(uncheckedLatitudeDegrees: 48.8556, longitudeDegrees: 2.2986)

    /// How long stopping may take before the daemon switches the motor off and exits anyway
    /// (systemd would wait 90 s, then kill it).
    static let stopDeadline = Duration.seconds(5)

    /// Runs until a signal; returns the exit status (sysexits codes for startup failures).
    public static func run(_ options: DaemonOptions, configuration: Configuration) async -> Int32 {
        let level = options.logLevel ?? Logger.Level(name: configuration.logLevel.rawValue) ?? .info
        let logger = Logger(label: "waypointd", level: level, handler: StandardErrorLogHandler())
        SignalStream.ignoreQuietly()
        let signals = SignalStream.make(SignalStream.stopping + SignalStream.ignored)
        let notifier = SystemdNotifier()

        var parsedScript: SimulationScript?
        if let path = options.simulationEventsPath {
            let bytes: [UInt8]
            do throws(FileReadError) {
                bytes = try LinuxFileReading().contents(
                    ofRegularFile: path, maximumBytes: SimulationScript.maximumFileBytes, followingLinks: true)
            } catch {
                logger.error("cannot read the simulation events", ["file": path, "error": "\(error)"])
                return 66
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                logger.error("cannot read the simulation events", ["file": path, "error": "not UTF-8 text"])
                return 66
            }
            do throws(SimulationScriptError) {
                parsedScript = try SimulationScript(parsing: text)
            } catch {
                logger.error("bad simulation events", ["file": "\(path):\(error.line)", "error": error.message])
                return 65
            }
        }

        // The motor first: whatever happens next, it is known to be off.
        let sysfsRoot = options.sysfsRoot ?? "/"
        let motor = configuration.motorSettings
        let channel: SysfsPWMChannel
        // The motor has one owner (PWMChannelLock): held until the process ends.
        let motorLock: PWMChannelLock
        do throws(PWMError) {
            motorLock = try LinuxSysfs(root: sysfsRoot).lockChip(configuration.pwmChip)
            channel = try SysfsPWMChannel(
                fileSystem: LinuxSysfs(root: sysfsRoot), chip: configuration.pwmChip, channel: configuration.pwmChannel,
                periodNanoseconds: motor.periodNanoseconds)
        } catch {
            logger.error("cannot open the motor's PWM channel", ["error": "\(error)"])
            return 69
        }
        defer { withExtendedLifetime(motorLock) {} }

        let store: StateStore
        do throws(StateStoreError) {
            store = try StateStore(directory: options.stateDirectory ?? configuration.stateDirectory)
        } catch {
            logger.error("cannot use the state directory", ["error": "\(error)"])
            try? channel.shutDown()
            return 73
        }
        let (saved, report) = store.load()
        for line in report.entries { logger.warning("state file set aside", ["file": "\(line)"]) }

        // A simulated board is calibrated by construction (no hard iron is simulated).
        let calibration = saved.calibration?.calibration ?? (options.simulate ? .identity : nil)
        let pipeline = configuration.navigationPipeline(calibration: calibration)
        let player = HapticPlayer(channel: channel, settings: motor, clock: ContinuousClock()) { fault in
            // Once per spell: the player reports a fault when it starts and nil when it ends.
            if let fault {
                logger.error("the motor failed; it is off, and its channel is set up again until it works", ["error": "\(fault)"])
            } else {
                logger.notice("the motor works again")
            }
        }
        var recorder: Recorder?
        if let path = options.recordPath {
            do {
                recorder = try Recorder(path: path)
            } catch {
                logger.error("cannot create the recording", ["path": path, "error": "\(error)"])
                try? channel.shutDown()
                return 73
            }
        }
        let walker = options.simulate ? WalkerBox(SimulatedWalker(position: simulatedStart, yawDegrees: 200, seed: 1)) : nil
        let alarm = SamplingAlarm()
        let core = DaemonCore(
            pipeline: pipeline, player: player, store: store, saved: saved, logger: logger, recorder: recorder,
            problems: report.entries.filter(\.isProblem).map(\.description),
            destinationChanged: { destination in
                walker?.walker.withLock { $0.destination = destination }
                // Back to the full sampling rate at once: the first cue needs a fresh heading.
                alarm.wake()
            },
            calibratingChanged: { calibrating in
                walker?.walker.withLock { $0.isCalibrating = calibrating }
                alarm.wake()
            })

        let socketPath = options.socketPath ?? configuration.socketPath
        let listener: UnixSocketListener
        do throws(UnixSocketError) {
            if let activated = notifier.listenFileDescriptors().first {
                listener = try UnixSocketListener.adopt(descriptor: activated)
            } else {
                listener = try UnixSocketListener.bind(path: socketPath)
            }
        } catch {
            logger.error("cannot open the control socket", ["socket": socketPath, "error": "\(error)"])
            try? channel.shutDown()
            return 69
        }
        let server = ControlServer(listener: listener, handler: core, logger: logger)
        await core.recordCalibration(calibration)
        await core.restore()

        let sampling = Sampling(
            walker: walker, script: parsedScript, configuration: configuration, core: core, logger: logger,
            alarm: alarm, notifier: notifier)
        let source: (any GPSFixSource)? =
            walker == nil ? LibGPSSource(server: configuration.gpsdAddress, settings: configuration.gpsClientSettings) : nil

        notifier.ready(status: options.simulate ? "guiding on a simulated board" : "ready")
        logger.notice("started", ["socket": socketPath, "simulate": "\(options.simulate)", "sysfs": sysfsRoot])

        let deadline = StopDeadline()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await player.run()
                } catch {
                    logger.error("the motor failed; it is off", ["error": "\(error)"])
                }
            }
            group.addTask {
                do {
                    try await server.run()
                } catch {
                    logger.error("the control server stopped", ["error": "\(error)"])
                }
            }
            if let source {
                group.addTask {
                    // gpsd missing or silent is retried every few seconds for as long as it
                    // lasts: one spell in the log, not a line per attempt.
                    var faults = FaultSpell<ContinuousClock.Instant>(quietInterval: .zero)
                    for await event in source.events() {
                        switch event {
                        case .fix(let fix):
                            core.fix(fix)
                            if case .ended(let count) = faults.working(at: .now) {
                                logger.notice("gps data again", ["faults": "\(count)"])
                            }
                        case .connected(let server):
                            core.gpsChanged(problem: nil)
                            let failures = faults.working(at: .now)
                            var metadata = ["gps.server": "\(server)"]
                            if case .ended(let count) = failures { metadata["failures"] = "\(count)" }
                            logger.info("gps connected", metadata)
                        case .noData(let seconds):
                            switch faults.fault(at: .now) {
                            case .began: logger.warning("no data from gps", ["seconds": "\(Int(seconds))"])
                            case .continuing(let count): logger.warning("no data from gps", ["times": "\(count)"])
                            case .ended, nil: break
                            }
                        case .failure(let error):
                            core.gpsChanged(problem: "\(error)")
                            switch faults.fault(at: .now) {
                            case .began: logger.warning("gps problem", ["error": "\(error)"])
                            case .continuing(let count): logger.warning("gps problem", ["error": "\(error)", "failures": "\(count)"])
                            case .ended, nil: break
                            }
                        }
                    }
                }
            }
            // The sampling thread also pets the watchdog: it is the loop that ticks the navigator.
            group.addTask { await sampling.run() }
            // The state reaches systemd and the log when it changes, not on a timer.
            group.addTask {
                notifier.status(core.state.rawValue)
                logger.info("state", ["state": core.state.rawValue])
                for await state in core.states {
                    notifier.status(state.rawValue)
                    logger.info("state", ["state": state.rawValue])
                }
            }
            // Each ignored signal is logged the first time only: a flood of them cannot flood
            // the journal.
            var logged: Set<Int32> = []
            for await number in signals {
                if SignalStream.stopping.contains(number) {
                    logger.notice("stopping", ["signal": SignalStream.name(number)])
                    break
                }
                if logged.insert(number).inserted {
                    logger.notice(
                        "signal ignored (restart the service to reload its configuration)",
                        ["signal": SignalStream.name(number)])
                }
            }
            notifier.stopping()
            do throws(Errno) {
                try deadline.arm(after: stopDeadline) {
                    logger.log(.critical, "not stopped after \(stopDeadline); switching the motor off and exiting")
                    do throws(PWMError) {
                        try channel.shutDown()
                    } catch {
                        logger.log(.critical, "the motor may still run", ["error": "\(error)"])
                    }
                    _exit(70)
                }
            } catch {
                logger.warning("no thread for the stop deadline; stopping without one", ["error": "\(error)"])
            }
            server.stop()
            group.cancelAll()
        }
        deadline.disarm()
        return 0
    }
}

/// Wakes the sampling thread early: to stop, or to speed up when the heading starts to matter.
/// A pipe whose read end the thread polls with its timeout, so one sleep serves both the
/// sampling period and the wake-up (Glibc's module does not import eventfd).
final class SamplingAlarm: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32
    private let stopped = Atomic(false)

    /// An alarm; without a pipe (EMFILE, ENFILE) the thread sleeps its periods out and notices a
    /// stop within one period.
    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Whether `stop()` was called.
    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Ends the sleep under way, or the next one. Corresponds to `write`; EAGAIN (the pipe is
    /// full) means a wake is pending anyway.
    func wake() {
        guard writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Asks the thread to end, and wakes it.
    func stop() {
        stopped.store(true, ordering: .releasing)
        wake()
    }

    /// Sleeps until `deadline` or a wake, whichever comes first. Corresponds to `poll`.
    /// - Returns: true when woken early.
    func sleep(until deadline: ContinuousClock.Instant) -> Bool {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return false }
        var request = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        guard poll(&request, 1, left.pollMilliseconds) > 0 else { return false }
        var drain: (UInt64, UInt64) = (0, 0)
        _ = withUnsafeMutableBytes(of: &drain) { read(readEnd, $0.baseAddress, $0.count) }
        return true
    }
}

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
    let core: DaemonCore
    let logger: Logger
    let alarm: SamplingAlarm
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
        while !alarm.isStopped {
            if reader == nil, let opened = acquisition.attempt() {
                reader = opened
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
            let readsPerPeriod = IMUSampleAverage.readsPerSample(
                hasGyroscope: reader?.hasGyroscope ?? false, sampleRateHertz: configuration.sampleRateHertz)
            let readInterval = interval / readsPerPeriod
            if let board {
                // While bursting, the chips queue a sample per step of their own rate.
                world?.advance(
                    to: ContinuousClock.now, board: board, core: core,
                    stepSeconds: burstRateHertz.map { 1 / $0 } ?? readInterval.seconds,
                    updatingEachStep: burstRateHertz != nil)
            }
            if let reader, let burstRateHertz {
                let pollsPerBurst = Int((Self.burstInterval.seconds * configuration.sampleRateHertz).rounded())
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
                    if let sample = average.take() { core.sample(sample) } else { core.tick() }
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
            if alarm.sleep(until: deadline) { deadline = ContinuousClock.now }
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

/// IMU faults in the log without flooding it: a board cut off fails every read, ten to a hundred
/// times a second, for as long as it lasts, and a loaded bus can fail every other read. One
/// ``FaultSpell``: the first fault, a count every five minutes, and the recovery once reads
/// have worked for 2 s.
private struct FaultLog {
    private var spell = FaultSpell<ContinuousClock.Instant>(quietInterval: .seconds(2))

    mutating func note(_ outcome: IMUReader.Outcome, logger: Logger) {
        switch outcome {
        case .deviceFault(let fault):
            switch spell.fault(at: .now) {
            case .began: logger.warning("imu fault", ["fault": "\(fault)"])
            case .continuing(let count): logger.warning("imu fault", ["fault": "\(fault)", "failed.reads": "\(count)"])
            case .ended, nil: break
            }
        case .sample:
            if case .ended(let count) = spell.working(at: .now) { logger.notice("imu recovered", ["failed.reads": "\(count)"]) }
        case .noNewSample:
            break
        }
    }
}

/// The simulated world on the sampling thread: the walker moves in steps of the read interval
/// or of the chips' own rate (however long the thread slept), scripted events fire on time,
/// and the simulated receiver reports a fix once a second, as gpsd would.
private struct SimulatedWorld {
    let walker: WalkerBox
    let script: SimulationScript?
    let logger: Logger
    var receiver = SimulatedGPSReceiver(startTime: UTCTime(seconds: Int64(time(nil))), seed: 2)
    let start = ContinuousClock.now
    /// Simulated time the walker has reached, seconds since start.
    var elapsedSeconds = 0.0
    /// When the next fix is due, seconds since start: the first at once.
    var nextFixSeconds = 0.0

    init(walker: WalkerBox, script: SimulationScript?, logger: Logger) {
        self.walker = walker
        self.script = script
        self.logger = logger
    }

    /// Moves the world on to `now` in steps of `stepSeconds`, and the chips' outputs with it:
    /// after each step when `updatingEachStep` (chips queueing in a FIFO need every sample),
    /// else once at the end.
    mutating func advance(
        to now: ContinuousClock.Instant, board: SimulatedBoard, core: DaemonCore, stepSeconds: Double,
        updatingEachStep: Bool
    ) {
        let target = (now - start).seconds
        while true {
            if elapsedSeconds >= nextFixSeconds {
                nextFixSeconds += Sampling.simulatedFixInterval
                if walker.isGPSOn.load(ordering: .relaxed) {
                    core.fix(receiver.nextFix(truth: walker.walker.withLock { SimulatedGPSReceiver.Truth(walker: $0) }))
                } else {
                    receiver.skipEpoch()
                }
            }
            // Steps of the read interval up to now, the last one rounded to the nearest.
            guard elapsedSeconds + stepSeconds <= target + stepSeconds / 2 else { break }
            if let script {
                for event in script.events(after: elapsedSeconds, through: elapsedSeconds + stepSeconds) {
                    apply(event, to: board)
                }
            }
            elapsedSeconds += stepSeconds
            walker.walker.withLock { $0.step(seconds: stepSeconds) }
            if updatingEachStep { update(board) }
        }
        if !updatingEachStep { update(board) }
    }

    /// The events scripted for time 0, before anything reads the board: `0 imu-off` means no
    /// IMU at start.
    func start(board: SimulatedBoard) {
        for event in script?.events(after: -1, through: 0) ?? [] { apply(event, to: board) }
    }

    private func apply(_ event: SimulationScript.Event, to board: SimulatedBoard) {
        logger.notice("simulation", ["event": "\(event)"])
        switch event {
        case .gps(let on): walker.isGPSOn.store(on, ordering: .relaxed)
        case .magnet(let microtesla): board.physics.hardIronMicrotesla = Vector3(0, 0, microtesla)
        case .imu(let on): board.bus.isDisconnected = !on
        // On this thread, on purpose: the thread that samples and pets the watchdog is held up,
        // as a stalled SD card or bus would hold it.
        case .stall(let seconds): ThreadSleep.sleep(for: .milliseconds(Int64(seconds * 1000)))
        }
    }

    /// The chips' outputs from where the walker is now.
    private func update(_ board: SimulatedBoard) {
        let (attitude, acceleration, yawRate) = walker.walker.withLock { walker in
            (walker.attitude, walker.linearAccelerationG, walker.yawRateDegreesPerSecond)
        }
        board.update(
            attitude: attitude, linearAccelerationG: acceleration,
            bodyRatesDegreesPerSecond: attitude.toBody(Vector3(0, 0, yawRate)))
    }
}

/// The simulated wearer, shared by the IMU loop (which moves them), the fix source (which
/// reports where they are) and the core (which tells them where to go).
final class WalkerBox: Sendable {
    let walker: Mutex<SimulatedWalker>
    /// Whether the simulated receiver reports fixes (a script can silence it).
    let isGPSOn = Atomic(true)
    init(_ walker: SimulatedWalker) { self.walker = Mutex(walker) }
}
