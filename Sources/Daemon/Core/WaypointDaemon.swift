import CommandLineSupport
@preconcurrency import Glibc
import Geodesy
import Core
import GPSClient
import Haptics
import IMU
import Simulation
import Synchronization
import SystemSupport

/// The daemon: opens the motor, the state directory and the control socket (failing fast, with a
/// sysexits status, when it cannot), makes the core, then runs its services under one
/// supervisor (``ServiceGroup``) until SIGTERM or SIGINT: the motor, the trail, systemd's
/// notifications, the control socket, the sensors and the GPS client, started in that order and
/// stopped in reverse, the motor switched off first and last. Every other signal that would end
/// it is logged and ignored (`SignalStream.ignored`).
///
/// With `--simulate` the sensors read the simulated board's bus and the GPS client the
/// simulated receiver (``SimulatedWorld``): the same services, through the same seams.
public enum WaypointDaemon {
    /// How long stopping may take before the daemon switches the motor off and exits anyway
    /// (systemd would wait 90 s, then kill it).
    static let stopDeadline = Duration.seconds(5)

    /// The motor's channel and the lock that makes this process its one owner.
    private struct Motor {
        let channel: SysfsPWMChannel
        let lock: PWMChannelLock
    }

    /// What the daemon opens before anything runs, in this order, each failing fast.
    private struct Opened {
        let motor: Motor
        let store: StateStore
        let recorder: Recorder?
        let listener: UnixSocketListener
        let socketPath: String
        let script: SimulationScript?
        let sysfsRoot: String
    }

    /// Runs until a signal; returns the exit status (sysexits codes for startup failures).
    public static func run(_ options: DaemonOptions, configuration: Configuration) async -> ExitStatus {
        let level = options.logLevel ?? Logger.Level(name: configuration.logLevel.rawValue) ?? .info
        let logger = Logger(label: "waypointd", level: level, handler: StandardErrorLogHandler())
        HeapPolicy.returnLargeBlocks()
        SignalStream.ignoreQuietly()
        let stopSignals: AsyncStream<Int32>
        do throws(Errno) {
            stopSignals = try takeSignals(logger: logger)
        } catch {
            logger.error("cannot start the thread that takes signals", ["error": "\(error)"])
            return .software
        }
        let notifier = SystemdNotifier()
        let opened: Opened
        switch open(options, configuration: configuration, notifier: notifier, logger: logger) {
        case .success(let parts): opened = parts
        case .failure(let failure): return failure.status
        }
        // The motor has one owner (PWMChannelLock): held until the process ends.
        defer { withExtendedLifetime(opened.motor.lock) {} }

        let clock = ScaledClock(speed: options.simulationSpeed)
        let simulatedButton = options.simulate ? simulatedButton(configuration: configuration, logger: logger) : nil
        let world =
            options.simulate
            ? simulatedWorld(
                opened.script, start: options.simulationStart, configuration: configuration, clock: clock,
                button: simulatedButton?.0, logger: logger)
            : nil
        let handsFree = HandsFree(devices: configuration.buttonDevices + (simulatedButton == nil ? [] : [ButtonReader.simulatedLabel]))
        let voice = Voice(command: configuration.speech, handsFree: handsFree, stateDirectory: opened.store.directory, logger: logger)
        let player = HapticPlayer(channel: opened.motor.channel, settings: configuration.motorSettings, clock: ContinuousClock()) {
            fault in
            // Once per spell: the player reports a fault when it starts and nil when it ends.
            if let fault {
                logger.error("the motor failed; it is off, and its channel is set up again until it works", ["error": "\(fault)"])
            } else {
                logger.notice("the motor works again")
            }
        }
        let alarm = ThreadAlarm(clock: clock)
        let trailFiles = TrailFiles(directory: opened.store.directory)
        let trailService = TrailService()
        let planning = WalkPlanning(stateDirectory: opened.store.directory, setting: configuration.walk)
        let core = DaemonCore(
            state: loadState(opened.store, configuration: configuration, trailFiles: trailFiles, simulated: world != nil, logger: logger),
            clock: clock, wallClock: { Int64(time(nil)) }, motor: player, store: opened.store, trailFiles: trailFiles,
            trailQueue: trailService, logger: logger, recorder: opened.recorder,
            hooks: DaemonCore.Hooks(
                destinationChanged: { destination in
                    world?.setDestination(destination)
                    // Back to the full sampling rate at once: the first cue needs a fresh heading.
                    alarm.wake()
                },
                calibratingChanged: { calibrating in
                    world?.setCalibrating(calibrating)
                    alarm.wake()
                }),
            places: PlaceLookup(stateDirectory: opened.store.directory), planning: planning, handsFree: handsFree)
        core.start()
        let actions = ButtonActions(
            handle: { core.handle($0) }, confirm: { core.confirm($0) }, voice: voice, handsFree: handsFree,
            wallClock: { Int64(time(nil)) }, markSeconds: configuration.buttonVeryLongSeconds)
        let buttons = ButtonReader(
            settings: configuration.buttonSettings, simulated: simulatedButton?.1, handsFree: handsFree, logger: logger,
            onGesture: { actions.perform($0) })

        let server = ControlServer(listener: opened.listener, handler: core, logger: logger)
        let watchdog = notifier.watchdogInterval.map { interval in
            (interval: interval, pet: { @Sendable in notifier.watchdog() })
        }
        let services: [any Service] = [
            NamedService("motor") { try await player.run() },
            NamedService("trail") { try await trailService.run { core.appendTrail($0) } },
            NotifyService(notifier: notifier, states: core.states, initial: core.state, logger: logger),
            NamedService("control socket") { try await server.run() },
            Sampling(
                openBus: { world?.bus ?? LinuxI2CBus(number: configuration.i2cBus) }, configuration: configuration, core: core,
                clock: clock, logger: logger, alarm: alarm, watchdog: watchdog),
            GPSService(
                source: world?.gpsSource()
                    ?? LibGPSSource(server: configuration.gpsdAddress, settings: configuration.gpsClientSettings),
                core: core, logger: logger),
            NamedService("speech") { try await voice.run() },
            NamedService("button") { try await buttons.run() },
        ]
        notifier.ready(status: world != nil ? "guiding on a simulated board" : "ready")
        var started = ["socket": opened.socketPath, "simulate": "\(options.simulate)", "sysfs": opened.sysfsRoot]
        if world != nil { started["speed"] = "\(options.simulationSpeed)" }
        logger.notice("started", started)

        let deadline = StopDeadline()
        await ServiceGroup(services, logger: logger).run {
            for await number in stopSignals {
                logger.notice("stopping", ["signal": SignalStream.name(number)])
                break
            }
            notifier.stopping()
            // Off first: whatever the sensors still deliver while they stop is not played.
            core.stopMotor()
            planning.stop()
            arm(deadline, motor: opened.motor, logger: logger)
        }
        core.stop()
        deadline.disarm()
        return .success
    }

    /// Opens the motor (first: whatever happens next, it is known to be off), the state
    /// directory, the recording and the control socket, and reads the simulation's script; on a
    /// failure, logs it, switches the motor off and says how to exit.
    private static func open(
        _ options: DaemonOptions, configuration: Configuration, notifier: SystemdNotifier, logger: Logger
    ) -> Result<Opened, StartFailure> {
        let script: SimulationScript?
        switch loadScript(options.simulationEventsPath, logger: logger) {
        case .success(let loaded): script = loaded
        case .failure(let failure): return .failure(failure)
        }
        guard let sysfsRoot = sysfsRoot(options, configuration: configuration, logger: logger) else {
            return .failure(StartFailure(status: .cannotCreate))
        }
        guard let motor = openMotor(sysfsRoot: sysfsRoot, configuration: configuration, logger: logger) else {
            return .failure(StartFailure(status: .unavailable))
        }
        func fail(_ status: ExitStatus) -> Result<Opened, StartFailure> {
            try? motor.channel.shutDown()
            return .failure(StartFailure(status: status))
        }
        let store: StateStore
        do throws(StateStoreError) {
            // A directory that went read-only (a failing SD card) still guides, on what it holds.
            store = try StateStore(directory: options.stateDirectory ?? configuration.stateDirectory, readingIfNotWritable: true)
            if let reason = store.readOnlyReason {
                logger.error("the state directory cannot be written: guiding on what it holds, saving nothing", ["error": "\(reason)"])
            }
        } catch {
            logger.error("cannot use the state directory", ["error": "\(error)"])
            return fail(.cannotCreate)
        }
        var recorder: Recorder?
        if let path = options.recordPath {
            do throws(Errno) {
                recorder = try Recorder(path: path)
            } catch {
                logger.error("cannot create the recording", ["path": path, "error": "\(error)"])
                return fail(.cannotCreate)
            }
        }
        let socketPath = options.socketPath ?? configuration.socketPath
        do throws(UnixSocketError) {
            let listener = try bindControlSocket(socketPath, notifier: notifier)
            return .success(
                Opened(
                    motor: motor, store: store, recorder: recorder, listener: listener, socketPath: socketPath, script: script,
                    sysfsRoot: sysfsRoot))
        } catch {
            logger.error("cannot open the control socket", ["socket": socketPath, "error": "\(error)"])
            return fail(.unavailable)
        }
    }

    /// The state as saved, each damaged file logged; the trail sized to what `trail.log` holds.
    private static func loadState(
        _ store: StateStore, configuration: Configuration, trailFiles: TrailFiles, simulated: Bool, logger: Logger
    ) -> DaemonState {
        let (saved, report) = store.load()
        for line in report.entries { logger.warning("state file set aside", ["file": "\(line)"]) }
        return DaemonState(
            pipeline: configuration.navigationPipeline(calibration: nil), saved: saved,
            // A simulated board is calibrated by construction (no hard iron is simulated).
            builtInCalibration: simulated ? .identity : nil, trail: TrailLog(currentFileBytes: trailFiles.currentFileBytes),
            startProblems: (store.readOnlyReason.map { ["state: \($0): guiding on what it holds; nothing is saved until it can be written and the daemon restarted"] } ?? [])
                + report.entries.filter(\.isProblem).map(\.description))
    }

    /// The world of `--simulate`: starting now (so the trail's times and the clock agree), on
    /// the configured board when the configuration names one (a board without a gyroscope can
    /// be tried).
    private static func simulatedWorld(
        _ script: SimulationScript?, start: Coordinate?, configuration: Configuration, clock: ScaledClock,
        button: SimulatedButton?, logger: Logger
    ) -> SimulatedWorld {
        var settings = SimulatedWorld.Settings()
        if let start { settings.start = start }
        settings.startUTCSeconds = Int64(time(nil))
        if case .preset(let preset) = configuration.imu { settings.board = preset }
        return SimulatedWorld(settings: settings, script: script, clock: clock, logger: logger, button: button)
    }

    /// The simulated button's pipe: the world writes the script's presses into one end, the
    /// button's reader reads the other as it reads a device.
    private static func simulatedButton(configuration: Configuration, logger: Logger) -> (SimulatedButton, FileDescriptor)? {
        guard let code = configuration.buttonKeys.first else { return nil }
        switch SocketCall.makeWakePipe() {
        case .success(let ends):
            return (SimulatedButton(code: code, output: FileDescriptor(rawValue: ends.write)), FileDescriptor(rawValue: ends.read))
        case .failure(let error):
            logger.error("no simulated button", ["error": "\(error)"])
            return nil
        }
    }

    /// Arms the stop deadline: stopping that takes longer switches the motor off and exits 70.
    private static func arm(_ deadline: StopDeadline, motor: Motor, logger: Logger) {
        do throws(Errno) {
            try deadline.arm(after: stopDeadline) {
                logger.log(.critical, "not stopped after \(stopDeadline); switching the motor off and exiting")
                do throws(PWMError) {
                    try motor.channel.shutDown()
                } catch {
                    logger.log(.critical, "the motor may still run", ["error": "\(error)"])
                }
                _exit(ExitStatus.software.rawValue)
            }
        } catch {
            logger.warning("no thread for the stop deadline; stopping without one", ["error": "\(error)"])
        }
    }

    /// Every signal the daemon takes: `main` blocks them before any thread starts
    /// (``SignalStream/block(_:)``), so that none sent in its first instant is lost.
    public static let signalsTaken = SignalStream.stopping + SignalStream.ignored

    /// Starts taking ``signalsTaken``: SIGTERM and SIGINT come out of the stream; each of the
    /// others is logged the first time only (a flood of them cannot flood the journal) and
    /// otherwise ignored.
    private static func takeSignals(logger: Logger) throws(Errno) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingOldest(1))
        let logged = Mutex<Set<Int32>>([])
        try SignalStream.receive(signalsTaken) { number in
            if SignalStream.stopping.contains(number) {
                continuation.yield(number)
            } else if logged.withLock({ $0.insert(number).inserted }) {
                logger.notice("signal ignored (restart the service to reload its configuration)", ["signal": SignalStream.name(number)])
            }
        }
        return stream
    }

    /// Where sysfs is: `--sysfs-root`, else `/`, else in a simulation a tree of ordinary files
    /// made in the state directory (``SimulatedPWMTree``); nil (logged) when that cannot be made.
    private static func sysfsRoot(_ options: DaemonOptions, configuration: Configuration, logger: Logger) -> String? {
        if let given = options.sysfsRoot { return given }
        guard options.simulate else { return "/" }
        let root = (options.stateDirectory ?? configuration.stateDirectory) + "/" + SimulatedPWMTree.directoryName
        do throws(SimulatedPWMTree.Failure) {
            try SimulatedPWMTree.make(at: root)
            return root
        } catch {
            logger.error("cannot simulate the motor", ["error": "\(error)", "fix": "give a tree with --sysfs-root DIR"])
            return nil
        }
    }

    /// The motor's channel, set up and off, and its lock; nil (logged) when it cannot be used.
    private static func openMotor(sysfsRoot: String, configuration: Configuration, logger: Logger) -> Motor? {
        do throws(PWMError) {
            let lock = try LinuxSysfs(root: sysfsRoot).lockChip(configuration.pwmChip)
            let channel = try SysfsPWMChannel(
                fileSystem: LinuxSysfs(root: sysfsRoot), chip: configuration.pwmChip, channel: configuration.pwmChannel,
                periodNanoseconds: configuration.motorSettings.periodNanoseconds)
            return Motor(channel: channel, lock: lock)
        } catch {
            logger.error("cannot open the motor's PWM channel", ["error": "\(error)"])
            return nil
        }
    }

    /// The listening socket systemd passed (socket activation), else one bound at `path`.
    private static func bindControlSocket(_ path: String, notifier: SystemdNotifier) throws(UnixSocketError) -> UnixSocketListener {
        if let activated = notifier.listenFileDescriptors().first { return try UnixSocketListener.adopt(descriptor: activated) }
        return try UnixSocketListener.bind(path: path)
    }

    /// Why the daemon cannot start, as its exit status.
    private struct StartFailure: Error {
        let status: ExitStatus
    }

    /// The simulation's script (`--simulate-events`), if one is given.
    private static func loadScript(_ path: String?, logger: Logger) -> Result<SimulationScript?, StartFailure> {
        guard let path else { return .success(nil) }
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try LinuxFileReading().contents(
                ofRegularFile: path, maximumBytes: SimulationScript.maximumFileBytes, followingLinks: true)
        } catch {
            logger.error("cannot read the simulation events", ["file": path, "error": "\(error)"])
            return .failure(StartFailure(status: .noInput))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            logger.error("cannot read the simulation events", ["file": path, "error": "not UTF-8 text"])
            return .failure(StartFailure(status: .noInput))
        }
        do throws(SimulationScriptError) {
            return .success(try SimulationScript(parsing: text))
        } catch {
            logger.error("bad simulation events", ["file": "\(path):\(error.line)", "error": error.message])
            return .failure(StartFailure(status: .dataError))
        }
    }
}
