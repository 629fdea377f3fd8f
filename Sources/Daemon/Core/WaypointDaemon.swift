import CommandLineSupport
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
    public static func run(_ options: DaemonOptions, configuration: Configuration) async -> ExitStatus {
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
                return .noInput
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                logger.error("cannot read the simulation events", ["file": path, "error": "not UTF-8 text"])
                return .noInput
            }
            do throws(SimulationScriptError) {
                parsedScript = try SimulationScript(parsing: text)
            } catch {
                logger.error("bad simulation events", ["file": "\(path):\(error.line)", "error": error.message])
                return .dataError
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
            return .unavailable
        }
        defer { withExtendedLifetime(motorLock) {} }

        let store: StateStore
        do throws(StateStoreError) {
            store = try StateStore(directory: options.stateDirectory ?? configuration.stateDirectory)
        } catch {
            logger.error("cannot use the state directory", ["error": "\(error)"])
            try? channel.shutDown()
            return .cannotCreate
        }
        let (saved, report) = store.load()
        for line in report.entries { logger.warning("state file set aside", ["file": "\(line)"]) }

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
                return .cannotCreate
            }
        }
        let walker = options.simulate ? WalkerBox(SimulatedWalker(position: simulatedStart, yawDegrees: 200, seed: 1)) : nil
        let alarm = ThreadAlarm(clock: ContinuousClock())
        let trailFiles = TrailFiles(directory: store.directory)
        let trailService = TrailService()
        // A simulated board is calibrated by construction (no hard iron is simulated).
        let state = DaemonState(
            pipeline: configuration.navigationPipeline(calibration: nil), saved: saved,
            builtInCalibration: options.simulate ? .identity : nil,
            trail: TrailLog(currentFileBytes: trailFiles.currentFileBytes),
            startProblems: report.entries.filter(\.isProblem).map(\.description))
        let core = DaemonCore(
            state: state, clock: ContinuousClock(), wallClock: { Int64(time(nil)) }, motor: player, store: store,
            trailFiles: trailFiles, trailQueue: trailService, logger: logger, recorder: recorder,
            hooks: DaemonCore.Hooks(
                destinationChanged: { destination in
                    walker?.walker.withLock { $0.destination = destination }
                    // Back to the full sampling rate at once: the first cue needs a fresh heading.
                    alarm.wake()
                },
                calibratingChanged: { calibrating in
                    walker?.walker.withLock { $0.isCalibrating = calibrating }
                    alarm.wake()
                }))

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
            return .unavailable
        }
        let server = ControlServer(listener: listener, handler: core, logger: logger)
        core.start()

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
                    try await trailService.run { core.appendTrail($0) }
                } catch {
                    logger.error("the trail's thread stopped", ["error": "\(error)"])
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
                var last = core.state
                notifier.status(last.rawValue)
                logger.info("state", ["state": last.rawValue])
                // The stream may begin with the state just logged: each change once.
                for await state in core.states where state != last {
                    last = state
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
        core.stop()
        deadline.disarm()
        return .success
    }
}
