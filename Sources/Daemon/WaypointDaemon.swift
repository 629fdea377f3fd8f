@preconcurrency import Glibc
import Foundation
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
/// on SIGTERM or SIGINT stops them all, leaving the motor off.
public enum WaypointDaemon {
    /// Where the simulated wearer starts: the Champ de Mars, Paris.
    static let simulatedStart = Coordinate(uncheckedLatitudeDegrees: 48.8556, longitudeDegrees: 2.2986)

    /// Runs until a signal; returns the exit status (sysexits codes for startup failures).
    public static func run(_ options: DaemonOptions, configuration: Configuration) async -> Int32 {
        let level = options.logLevel ?? Logger.Level(name: configuration.logLevel.rawValue) ?? .info
        let logger = Logger(label: "waypointd", level: level, handler: StandardErrorLogHandler())
        let signals = SignalStream.make([SIGINT, SIGTERM])
        let notifier = SystemdNotifier()

        var parsedScript: SimulationScript?
        if let path = options.simulationEventsPath {
            do {
                parsedScript = try SimulationScript(parsing: String(contentsOfFile: path, encoding: .utf8))
            } catch let error as SimulationScriptError {
                logger.error("bad simulation events", ["file": "\(path):\(error.line)", "error": error.message])
                return 65
            } catch {
                logger.error("cannot read the simulation events", ["file": path, "error": error.localizedDescription])
                return 66
            }
        }

        // The motor first: whatever happens next, it is known to be off.
        let sysfsRoot = options.sysfsRoot ?? "/"
        let motor = configuration.motorSettings
        let channel: SysfsPWMChannel
        do throws(PWMError) {
            channel = try SysfsPWMChannel(
                fileSystem: LinuxSysfs(root: sysfsRoot), chip: configuration.pwmChip, channel: configuration.pwmChannel,
                periodNanoseconds: motor.periodNanoseconds)
        } catch {
            logger.error("cannot open the motor's PWM channel", ["error": "\(error)"])
            return 69
        }

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
        let player = HapticPlayer(channel: channel, settings: motor, clock: ContinuousClock())
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
        let core = DaemonCore(
            pipeline: pipeline, player: player, store: store, saved: saved, logger: logger, recorder: recorder,
            destinationChanged: { destination in walker?.walker.withLock { $0.destination = destination } },
            calibratingChanged: { calibrating in walker?.walker.withLock { $0.isCalibrating = calibrating } })

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

        let source: any GPSFixSource
        if let walker {
            let receiver = SimulatedGPSReceiver(startTime: UTCTime(seconds: Int64(time(nil))), seed: 2)
            source = SimulatedFixSource(receiver: receiver, clock: ContinuousClock()) {
                guard walker.isGPSOn.load(ordering: .relaxed) else { return nil }
                return walker.walker.withLock { SimulatedGPSReceiver.Truth(walker: $0) }
            }
        } else {
            source = LibGPSSource(server: configuration.gpsdAddress, settings: configuration.gpsClientSettings)
        }
        let sampleInterval = Duration.seconds(1 / configuration.sampleRateHertz)
        let script = parsedScript
        let i2cBus = configuration.i2cBus
        let imuSetting = configuration

        notifier.ready(status: options.simulate ? "guiding on a simulated board" : "ready")
        logger.notice("started", ["socket": socketPath, "simulate": "\(options.simulate)", "sysfs": sysfsRoot])

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
            group.addTask {
                for await event in source.events() {
                    switch event {
                    case .fix(let fix): await core.fix(fix)
                    case .connected(let server): logger.info("gps connected", ["gps.server": "\(server)"])
                    case .noData(let seconds): logger.warning("no data from gps", ["seconds": "\(Int(seconds))"])
                    case .failure(let error): logger.warning("gps problem", ["error": "\(error)"])
                    }
                }
            }
            group.addTask {
                await runIMU(
                    walker: walker, script: script, interval: sampleInterval, bus: i2cBus, configuration: imuSetting, core: core,
                    logger: logger)
            }
            group.addTask {
                var lastState = ""
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(500))
                    await core.tick()
                    notifier.watchdog()
                    let state = await core.stateName
                    if state != lastState {
                        notifier.status(state)
                        logger.info("state", ["state": state])
                        lastState = state
                    }
                }
            }
            for await number in signals {
                logger.notice("stopping", ["signal": SignalStream.name(number)])
                break
            }
            notifier.stopping()
            server.stop()
            group.cancelAll()
        }
        return 0
    }

    /// Samples the IMU at the configured rate: the simulated board (stepping the walker), or
    /// the chips `imu` names or detection finds on the I2C bus.
    private static func runIMU(
        walker: WalkerBox?, script: SimulationScript?, interval: Duration, bus number: Int, configuration: Configuration, core: DaemonCore,
        logger: Logger
    ) async {
        let reader: IMUReader
        var board: SimulatedBoard?
        if walker != nil {
            let physics = SensorPhysics(
                latitudeDegrees: simulatedStart.latitudeDegrees, longitudeDegrees: simulatedStart.longitudeDegrees,
                decimalYear: UTCTime(seconds: Int64(time(nil))).decimalYear, seed: 3)
            let simulated = SimulatedBoard(physics: physics)
            board = simulated
            do throws(I2CError) {
                reader = try IMUReader(selection: simulated.selection, bus: simulated.bus)
            } catch {
                logger.error("cannot open the simulated IMU", ["error": "\(error)"])
                return
            }
        } else {
            let bus = LinuxI2CBus(number: number)
            let detected = IMUDetector(bus: bus).detect()
            guard let selection = configuration.imuSelection(detected: detected.selection) else {
                logger.error("no usable IMU found", ["i2c.bus": "\(number)", "report": detected.report])
                return
            }
            do throws(I2CError) {
                reader = try IMUReader(selection: selection, bus: bus)
            } catch {
                logger.error("cannot open the IMU", ["error": "\(error)"])
                return
            }
        }
        let seconds = interval.seconds
        let clock = ContinuousClock()
        var deadline = clock.now
        var elapsedSeconds = 0.0
        while !Task.isCancelled {
            if let walker, let board {
                for event in script?.events(after: elapsedSeconds, through: elapsedSeconds + seconds) ?? [] {
                    logger.notice("simulation", ["event": "\(event)"])
                    switch event {
                    case .gps(let on): walker.isGPSOn.store(on, ordering: .relaxed)
                    case .magnet(let microtesla): board.physics.hardIronMicrotesla = Vector3(0, 0, microtesla)
                    }
                }
                elapsedSeconds += seconds
                let (attitude, acceleration, yawRate) = walker.walker.withLock { walker in
                    walker.step(seconds: seconds)
                    return (walker.attitude, walker.linearAccelerationG, walker.yawRateDegreesPerSecond)
                }
                board.update(
                    attitude: attitude, linearAccelerationG: acceleration,
                    bodyRatesDegreesPerSecond: attitude.toBody(Vector3(0, 0, yawRate)))
            }
            switch reader.read() {
            case .sample(let sample): await core.imu(sample)
            case .noNewSample: break
            case .deviceFault(let fault): logger.warning("imu fault", ["fault": "\(fault)"])
            }
            deadline = deadline.advanced(by: interval)
            try? await clock.sleep(until: deadline)
        }
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
