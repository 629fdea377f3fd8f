@preconcurrency import Glibc
import ControlProtocol
import Core
import Daemon
import Geodesy
import Guidance
import Haptics
import IMU
import Simulation
import Synchronization
import SystemSupport

/// `waypoint-bench latency`: from the IMU sample at which the wearer's heading enters the zone
/// to the motor's first duty rise, on the daemon's own threads in real time: the simulated
/// board's FIFO read in bursts by the sampling thread, the core, the player's thread, and sysfs
/// writes to a tree of ordinary files. The wearer stands and turns on the spot, by script, into
/// the zone and out again; the world reports the step at which the true heading crosses the
/// zone's edge, and every duty write is stamped as it returns. With a gyroscope (BerryGPS-IMU
/// v4: LSM6DSL, FIFO) and without (Adafruit LSM303AGR, polled), at 50 Hz.
enum LatencyBench {
    /// Sweeps per board: into the zone, a hold inside, out across its other edge, a hold
    /// outside; then back the other way. Crossing each edge both ways, so that a heading a
    /// degree off makes half the entries early and half late rather than all one way.
    static let sweeps = 20
    /// The first turn, seconds after the start: a fix, the accepted pattern and settling first.
    static let firstTurnSeconds = 6.0
    /// The turn's rate, °/s: a brisk turn of the trunk.
    static let turnDegreesPerSecond = 60.0
    /// Where the wearer stands between sweeps, degrees either side of the bearing.
    static let outsideDegrees = 60.0
    /// The holds inside (at the bearing) and outside, seconds.
    static let holdInsideSeconds = 0.8
    static let holdOutsideSeconds = 0.7
    /// The zone, degrees either side of the bearing: the default, with the destination far
    /// enough that the fix's accuracy does not widen it.
    static let zoneDegrees = 20.0

    static func run(sweeps: Int, printingMarks: Bool) async -> Int32 {
        for (label, board) in [("gyro", BoardPreset.berryGPSIMUv4), ("no gyro", .adafruitLSM303AGR)] {
            do throws(BenchFailure) {
                let marks = try await measure(board: board, sweeps: sweeps)
                report(marks, label: label, printingMarks: printingMarks)
            } catch {
                fputs("waypoint-bench latency: \(error.message)\n", stderr)
                return 1
            }
        }
        return 0
    }

    struct BenchFailure: Error { let message: String }

    /// What happened when, seconds on the world's clock.
    enum Mark: Sendable {
        case entered, left, cueOn, cueOff
        case duty(UInt64)
    }

    /// Marks from several threads, in one preallocated list.
    final class Timeline: Sendable {
        private let marks = Mutex<[(seconds: Double, mark: Mark)]>([])
        let clock: ScaledClock
        init(clock: ScaledClock) {
            self.clock = clock
            marks.withLock { $0.reserveCapacity(1 << 16) }
        }
        func note(_ mark: Mark, at seconds: Double? = nil) {
            let seconds = seconds ?? clock.now.offset.seconds
            marks.withLock { if $0.count < 1 << 16 { $0.append((seconds, mark)) } }
        }
        var all: [(seconds: Double, mark: Mark)] { marks.withLock { $0 }.sorted { $0.seconds < $1.seconds } }
    }

    private static func measure(board: BoardPreset, sweeps: Int) async throws(BenchFailure) -> [(seconds: Double, mark: Mark)] {
        let clock = ScaledClock(speed: 1)
        let timeline = Timeline(clock: clock)
        var settings = SimulatedWorld.Settings()
        settings.board = board
        // About 20 km north.
        let destination = Coordinate(
            uncheckedLatitudeDegrees: settings.start.latitudeDegrees + 0.18, longitudeDegrees: settings.start.longitudeDegrees)
        let bearing = Geodesic.wgs84.inverse(from: settings.start, to: destination).initialAzimuthDegrees
        settings.startYawDegrees = Angle.normalized(bearing + outsideDegrees)
        let turnSeconds = outsideDegrees / turnDegreesPerSecond
        var lines = ["0 turn 0 1"]
        var start = firstTurnSeconds
        for trial in 0..<sweeps {
            let sign = trial.isMultiple(of: 2) ? -1.0 : 1.0
            // A different phase of the sampling thread's reads each time.
            start += 0.1 * Benchmark.quasiRandom(trial, dimension: 0, of: 1)
            lines.append("\(start) turn \(sign * outsideDegrees) \(turnDegreesPerSecond)")
            start += turnSeconds + holdInsideSeconds
            lines.append("\(start) turn \(sign * outsideDegrees) \(turnDegreesPerSecond)")
            start += turnSeconds + holdOutsideSeconds
        }
        let end = start + 0.5
        let script: SimulationScript
        do throws(SimulationScriptError) {
            script = try SimulationScript(parsing: lines.joined(separator: "\n"))
        } catch {
            throw BenchFailure(message: "the bench's script: \(error)")
        }
        let inside = Mutex(false)
        let world = SimulatedWorld(settings: settings, script: script, clock: clock) { seconds, yaw in
            let now = abs(Angle.signedDifference(from: yaw, to: bearing)) <= zoneDegrees
            let changed = inside.withLock { was in
                defer { was = now }
                return was != now
            }
            if changed { timeline.note(now ? .entered : .left, at: seconds) }
        }

        let directory = "/dev/shm/waypoint-bench-latency-\(getpid())"
        defer { removeTree(directory) }
        let channel: SysfsPWMChannel
        var configuration = Configuration()
        configuration.imu = .preset(board)
        do {
            try SimulatedPWMTree.make(at: directory)
            channel = try SysfsPWMChannel(
                fileSystem: StampedSysfs(inner: LinuxSysfs(root: directory), timeline: timeline), chip: .auto, channel: 0,
                periodNanoseconds: configuration.motorSettings.periodNanoseconds)
        } catch {
            throw BenchFailure(message: "cannot set up the motor's tree in \(directory): \(error)")
        }
        let logger = Logger(label: "waypoint-bench", level: .error, handler: StandardErrorLogHandler())
        let player = HapticPlayer(channel: channel, settings: configuration.motorSettings, clock: ContinuousClock())
        let alarm = ThreadAlarm(clock: clock)
        let core = DaemonCore(
            state: DaemonState(
                pipeline: configuration.navigationPipeline(calibration: nil), saved: .initial, builtInCalibration: .identity),
            clock: clock, wallClock: { Int64(time(nil)) }, motor: TimedMotor(player: player, timeline: timeline),
            store: nil, logger: logger,
            hooks: DaemonCore.Hooks(
                destinationChanged: { world.setDestination($0); alarm.wake() }, calibratingChanged: { _ in }))
        core.start()
        let services: [any Service] = [
            NamedService("motor") { try await player.run() },
            Sampling(
                openBus: { world.bus }, configuration: configuration, core: core, clock: clock, logger: logger, alarm: alarm,
                watchdog: nil),
            GPSService(source: world.gpsSource(), core: core, logger: logger),
        ]
        let running = services.map { service in Task { try? await service.run() } }
        _ = core.handle(.go(latitude: destination.latitudeDegrees, longitude: destination.longitudeDegrees, name: nil))
        try? await Task.sleep(for: .seconds(end - clock.now.offset.seconds))
        core.stopMotor()
        for task in running { task.cancel() }
        for task in running { await task.value }
        core.stop()
        return timeline.all
    }

    /// Removes the motor's tree: a few directories, files and a link. A file or a link is
    /// unlinked (a link is never followed); only what unlink refuses, a directory, is emptied
    /// and removed.
    private static func removeTree(_ path: String) {
        guard unlink(path) != 0 else { return }
        if let names = try? FileSystem.names(inDirectory: path, maximum: 64) {
            for name in names { removeTree(path + "/" + name) }
        }
        rmdir(path)
    }

    /// Prints the figures: per entry into the zone, the cue's delivery after the entering
    /// sample and the first duty rise after that; per exit, the cue's end. The heading the
    /// daemon estimates may cross a step before the truth does (a degree off at 60 °/s is
    /// 17 ms): such a crossing counts, early (negative), and is not left out.
    private static func report(_ marks: [(seconds: Double, mark: Mark)], label: String, printingMarks: Bool) {
        var felt: [Double] = []
        var compute: [Double] = []
        var off: [Double] = []
        var missed = 0
        var previousCrossing = -Double.infinity
        for (seconds, mark) in marks {
            // A crossing the estimate made before the truth counts, but not one a quarter of a
            // second early: that is the motor flickering on the edge as the last crossing passed.
            let windowStart = max(previousCrossing, seconds - 0.25)
            func first(_ wanted: (Mark) -> Bool) -> Double? {
                marks.first { $0.seconds > windowStart && wanted($0.mark) }?.seconds
            }
            if printingMarks, case .entered = mark {
                let near = marks.filter { abs($0.seconds - seconds) < 0.3 }
                print(near.map { "\(DecimalFormat.fixed(1000 * ($0.seconds - seconds), fractionDigits: 0)) ms \($0.mark)" }.joined(separator: ", "))
            }
            switch mark {
            case .entered:
                if let cue = first({ if case .cueOn = $0 { true } else { false } }),
                    let rise = marks.first(where: {
                        if case .duty(let value) = $0.mark { $0.seconds >= cue && value > 0 } else { false }
                    })?.seconds
                {
                    felt.append(rise - seconds)
                    compute.append(cue - seconds)
                } else {
                    missed += 1
                }
                previousCrossing = seconds
            case .left:
                if let cut = first({ if case .cueOff = $0 { true } else { false } }) { off.append(cut - seconds) } else { missed += 1 }
                previousCrossing = seconds
            default:
                continue
            }
        }
        func line(_ name: String, _ values: [Double]) {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return print("\(name) (\(label)): nothing measured") }
            func rank(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)] }
            func ms(_ seconds: Double) -> String { DecimalFormat.fixed(1000 * seconds, fractionDigits: 0) }
            print("\(name) (\(label)): median \(ms(rank(0.5))) ms, p95 \(ms(rank(0.95))) ms, max \(ms(sorted.last!)) ms (\(sorted.count) crossings)")
        }
        line("felt latency", felt)
        line("compute latency", compute)
        line("motor off after leaving", off)
        if missed > 0 { print("# \(label): \(missed) crossings the motor did not answer") }
    }
}

/// The player, with the moments the core's cue turns on and off noted.
final class TimedMotor: MotorOutput {
    let player: HapticPlayer<ContinuousClock>
    let timeline: LatencyBench.Timeline
    private let isOn = Atomic(false)
    init(player: HapticPlayer<ContinuousClock>, timeline: LatencyBench.Timeline) {
        self.player = player
        self.timeline = timeline
    }
    func deliver(cue: HapticCue?) {
        // Noted first: the player's thread may write before this one returns.
        if isOn.exchange(cue != nil, ordering: .relaxed) != (cue != nil) { timeline.note(cue != nil ? .cueOn : .cueOff) }
        player.deliver(cue: cue)
    }
    func deliver(pattern: HapticPattern) { player.deliver(pattern: pattern) }
    func silence() { player.silence() }
    var duty: Double { player.duty }
    var pattern: HapticPattern? { player.pattern }
    var faultDescription: String? { player.faultDescription }
    var isPlayingPattern: Bool { player.isPlayingPattern }
}

/// sysfs on ordinary files, with each duty written noted as its write returns.
struct StampedSysfs: SysfsFileSystem {
    let inner: LinuxSysfs
    let timeline: LatencyBench.Timeline
    func read(_ path: String) throws(SysfsError) -> String { try inner.read(path) }
    func write(_ value: String, to path: String) throws(SysfsError) { try inner.write(value, to: path) }
    func openAttribute(_ path: String) throws(SysfsError) -> any SysfsAttributeWriter {
        let attribute = try inner.openAttribute(path)
        return path.hasSuffix("duty_cycle") ? StampedAttribute(inner: attribute, timeline: timeline) : attribute
    }
    func exists(_ path: String) -> Bool { inner.exists(path) }
    func isWritable(_ path: String) -> Bool { inner.isWritable(path) }
    func linkTarget(_ path: String) -> String? { inner.linkTarget(path) }
    func contents(of directory: String) -> [String] { inner.contents(of: directory) }
    func onDisk(_ path: String) -> String { inner.onDisk(path) }
}

final class StampedAttribute: SysfsAttributeWriter {
    let inner: any SysfsAttributeWriter
    let timeline: LatencyBench.Timeline
    init(inner: any SysfsAttributeWriter, timeline: LatencyBench.Timeline) {
        self.inner = inner
        self.timeline = timeline
    }
    var path: String { inner.path }
    func write(_ value: UInt64) throws(SysfsError) {
        try inner.write(value)
        timeline.note(.duty(value))
    }
    func readValue() throws(SysfsError) -> UInt64? { try inner.readValue() }
    func close() throws(SysfsError) { try inner.close() }
}
