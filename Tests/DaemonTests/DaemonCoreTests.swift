import ControlProtocol
import Core
import Daemon
import Foundation
import Geodesy
import Guidance
import Haptics
import Heading
import Simulation
import Synchronization
import SystemSupport
import TestSupport
import Testing

/// The executor around the core (``DaemonCore``) on a manual clock, with a real state
/// directory and trail files in a temporary directory: what a fix or a request leads to on
/// disk and on the motor, with no thread, socket or sensor. Route progress, the trail and `back`
/// are simulated walks (a fix a second along a line).
@Suite("The daemon's executor on a manual clock", .timeLimit(.minutes(5)))
struct DaemonCoreTests {
    /// A motor that records what it is asked to play.
    final class RecordingMotor: MotorOutput {
        let patterns = Mutex<[HapticPattern]>([])
        let cues = Mutex<[HapticCue?]>([])
        func deliver(cue: HapticCue?) { cues.withLock { $0.append(cue) } }
        func deliver(pattern: HapticPattern) { patterns.withLock { $0.append(pattern) } }
        func silence() {}
        var duty: Double { 0 }
        var pattern: HapticPattern? { nil }
        var faultDescription: String? { nil }
        var isPlayingPattern: Bool { false }
    }

    /// An executor on a fresh state directory, with its clock and motor.
    struct Rig {
        let directory: String
        let clock = ManualClock()
        let motor = RecordingMotor()
        let core: DaemonCore<ManualClock>

        init(directory: String? = nil) throws {
            let directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("core-\(UUID().uuidString)").path
            self.directory = directory
            let store = try StateStore(directory: directory)
            let files = TrailFiles(directory: directory)
            let (saved, _) = store.load()
            core = DaemonCore(
                state: DaemonState(
                    pipeline: NavigationPipeline(calibration: .identity), saved: saved, builtInCalibration: .identity,
                    trail: TrailLog(currentFileBytes: files.currentFileBytes)),
                clock: clock, wallClock: { 1_782_950_400 }, motor: motor, store: store, trailFiles: files,
                logger: Logger(label: "test", level: .critical, handler: StandardErrorLogHandler()))
            core.start()
        }

        /// A fix at `north` metres north of the start, dated `second` seconds after the epoch,
        /// given to the core one second after the last.
        func walk(north: Double, second: Int) {
            clock.advance(by: .seconds(1))
            var fix = ParisGrid.fix(ParisGrid.point(0, north))
            fix.time = UTCTime(seconds: 1_782_950_400 + Int64(second))
            core.fix(fix)
        }

        func reply(_ request: ControlRequest) async -> ControlReply { core.handle(request) }
    }

    @Test("near the zone's edge, where a sample may start or stop the motor, the sampling thread is asked for every sample; on course and far off, not")
    func nearZoneEdge() async throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        // Due north, 2 km: the zone is the default 20°.
        let far = ParisGrid.point(0, 2000)
        _ = await rig.reply(.go(latitude: far.latitudeDegrees, longitude: far.longitudeDegrees, name: nil))
        var physics = SensorPhysics(
            latitudeDegrees: ParisGrid.origin.latitudeDegrees,
            longitudeDegrees: ParisGrid.origin.longitudeDegrees, decimalYear: 2026.5, seed: 4)
        // Without a gyroscope (the tilt-compensated compass follows a heading set at once); the
        // last sample of each with the turn rate a gyroscope would report.
        func face(_ yaw: Double, turning rate: Double) {
            for index in 0..<100 {
                rig.clock.advance(by: .milliseconds(20))
                let attitude = Attitude(yawDegrees: yaw, pitchDegrees: 0, rollDegrees: 0)
                rig.core.sample(
                    physics.sample(attitude, bodyRatesDegreesPerSecond: index == 99 ? Vector3(0, 0, rate) : nil), at: rig.clock.now)
            }
        }
        // Near: within 5° of the edge, or within reach of a turn in the next 0.12 s.
        for (index, (yaw, rate, near)) in [(0.0, 0.0, false), (18, 0, true), (23, 0, true), (90, 0, false), (30, 0, false), (30, 60, true)]
            .enumerated()
        {
            rig.walk(north: 0, second: index + 1)
            face(yaw, turning: rate)
            #expect(rig.core.state == .guiding)
            #expect(rig.core.isNearZoneEdge == near, "facing \(yaw)°, turning at \(rate) °/s")
        }
    }

    @Test("route progress reaches target.json with the fix that made it, and a new executor resumes there")
    func routeProgress() async throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        let waypoints = [40.0, 80, 120].map { north in
            let point = ParisGrid.point(0, north)
            return DestinationReport(latitude: point.latitudeDegrees, longitude: point.longitudeDegrees, name: "N\(Int(north))")
        }
        guard case .route(let loaded?) = await rig.reply(.route(.load(name: "North", waypoints: waypoints))) else {
            Issue.record("no ROUTE reply")
            return
        }
        #expect(loaded.waypoint == 1)
        var saved: [Int] = []
        for second in 0..<100 {
            rig.walk(north: Double(second) * 1.4, second: second)
            let file = try String(contentsOfFile: rig.directory + "/target.json", encoding: .utf8)
            if let index = (try JSONSerialization.jsonObject(with: Data(file.utf8)) as? [String: Any])
                .flatMap({ ($0["route"] as? [String: Any])?["index"] as? Int }), saved.last != index
            {
                saved.append(index)
            }
        }
        #expect(saved == [0, 1, 2, 3], "target.json's route index as the walk went on: \(saved)")
        #expect(rig.motor.patterns.withLock { $0.filter { $0 == .waypointReached }.count } == 2)
        #expect(rig.motor.patterns.withLock { $0.filter { $0 == .arrived }.count } == 1)
        let restarted = try Rig(directory: rig.directory)
        guard case .status(let status) = await restarted.reply(.status) else {
            Issue.record("no STATUS reply")
            return
        }
        #expect(status.route?.isFinished == true && status.route?.waypoint == 3)
    }

    @Test("the trail: appended once a minute, exported in pages with what still waits, walked back as a route")
    func trailExportAndBack() async throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        for second in 0..<150 { rig.walk(north: Double(second) * 1.4, second: second) }
        let stored = try String(contentsOfFile: rig.directory + "/trail.log", encoding: .utf8)
        let storedLines = stored.split(separator: "\n").count
        #expect(storedLines > 20 && storedLines < 45, "two minutes appended, the rest waiting: \(storedLines) lines")
        guard case .track(let page) = await rig.reply(.track(.export(since: nil, until: nil, cursor: nil))) else {
            Issue.record("no TRACK reply")
            return
        }
        #expect(page.points.count > storedLines, "the waiting points come after the file's")
        #expect(page.points.first?.startsSegment == true)
        #expect(zip(page.points, page.points.dropFirst()).allSatisfy { $0.seconds < $1.seconds })
        guard case .route(let back?) = await rig.reply(.back(minutes: nil)) else {
            Issue.record("no ROUTE reply to back")
            return
        }
        #expect(back.name == "back" && back.waypoint == 1)
        let shownRoute = await rig.reply(.route(.show))
        guard case .route(let shown?) = shownRoute else {
            Issue.record("not the reply asked for: \(shownRoute)")
            return
        }
        #expect(shown.count == back.count)
        let last = try #require(await Self.lastWaypoint(of: rig))
        #expect(last.name == "start of the trail")
        #expect(abs(last.latitude - ParisGrid.point(0, 0).latitudeDegrees) * 111_200 < 6, "back ends where the walk began")
        // A cursor from before a clear is refused, not misread.
        #expect(await rig.reply(.track(.clear)) == .ok)
        let stale = await rig.reply(.track(.export(since: nil, until: nil, cursor: "0:10")))
        #expect(stale == .error(ControlError(.refused, "the trail was rotated or cleared during the export; export again")))
        #expect(await rig.reply(.back(minutes: nil)) == .error(ControlError(.refused, "no trail since the daemon started: it keeps one while it has a fix; try back --minutes N")))
    }

    @Test("back after a restart (issue 30, item 7): the trail since guidance last started, not since the restart; none said clearly")
    func backAfterRestart() async throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        // 40 s of walking before any destination: not part of the way back.
        for second in 0..<40 { rig.walk(north: Double(second) * 1.4, second: second) }
        let far = ParisGrid.point(0, 2000)
        #expect(await rig.reply(.go(latitude: far.latitudeDegrees, longitude: far.longitudeDegrees, name: "far")) == .ok)
        for second in 40..<150 { rig.walk(north: Double(second) * 1.4, second: second) }
        rig.core.stop()

        let restarted = try Rig(directory: rig.directory)
        for second in 150..<153 { restarted.walk(north: Double(second) * 1.4, second: second) }
        guard case .route(let back?) = await restarted.reply(.back(minutes: nil)) else {
            Issue.record("no ROUTE reply to back")
            return
        }
        // A straight walk north: one waypoint back, 150 m away, not the few metres since the restart.
        #expect((back.remainingMeters ?? 0) > 140, "\(back)")
        let last = try #require(await Self.lastWaypoint(of: restarted))
        #expect(last.name == "start of the trail")
        // Where guidance started: 39 × 1.4 m north (the last fix before go), not the start of
        // the walk and not where the daemon restarted.
        let metersNorth = (last.latitude - ParisGrid.point(0, 0).latitudeDegrees) * 111_200
        #expect(abs(metersNorth - 39 * 1.4) < 6, "back ends \(metersNorth) m north")

        // Guidance started, and no fix since: said so.
        let fresh = try Rig()
        defer { try? FileManager.default.removeItem(atPath: fresh.directory) }
        #expect(await fresh.reply(.go(latitude: far.latitudeDegrees, longitude: far.longitudeDegrees, name: "far")) == .ok)
        #expect(
            await fresh.reply(.back(minutes: nil))
                == .error(ControlError(.refused, "no trail since guidance last started: it keeps one while it has a fix; try back --minutes N for an older one")))
    }

    @Test("a failed save leaves the files as the reply says (issue 30, item 18; issue 37): a target that cannot be saved stays the old one on disk, every other save is still made, and a restart finds what the reply said")
    func failedSaveConsistent() async throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        let waypoints = [40.0, 80].map { north in
            let point = ParisGrid.point(0, north)
            return DestinationReport(latitude: point.latitudeDegrees, longitude: point.longitudeDegrees, name: "N\(Int(north))")
        }
        guard case .route = await rig.reply(.route(.load(name: "North", waypoints: waypoints))) else {
            Issue.record("no ROUTE reply")
            return
        }
        // recent.json can no longer be replaced (its temporary file's name is taken by a
        // directory): the new target is saved, and the reply says what was not.
        try FileManager.default.createDirectory(atPath: rig.directory + "/recent.json.tmp", withIntermediateDirectories: false)
        let bakery = ParisGrid.point(30, 0)
        let reply = await rig.reply(.go(latitude: bakery.latitudeDegrees, longitude: bakery.longitudeDegrees, name: "bakery"))
        guard case .error(let error) = reply else {
            Issue.record("go answered \(reply), not the recent list's failure")
            return
        }
        #expect(error.message.hasPrefix("guiding, but recent.json could not be saved"), "\(error.message)")
        #expect(!error.message.contains("target.json"), "\(error.message)")
        let restarted = try Rig(directory: rig.directory)
        let restartedStatus = await restarted.reply(.status)
        guard case .status(let status) = restartedStatus else {
            Issue.record("not the reply asked for: \(restartedStatus)")
            return
        }
        #expect(status.route == nil, "the dropped route came back")
        #expect(status.destination?.name == "bakery")

        // Now target.json cannot be replaced either: the old target (the bakery) stays on disk,
        // whole, and the reply says so; a restart finds the bakery, never nothing.
        try FileManager.default.createDirectory(atPath: rig.directory + "/target.json.tmp", withIntermediateDirectories: false)
        let routeReply = await restarted.reply(.route(.load(name: "North", waypoints: waypoints)))
        guard case .error(let routeError) = routeReply else {
            Issue.record("route load answered \(routeReply), not the target's failure")
            return
        }
        #expect(routeError.message.hasPrefix("guiding along the route, but target.json could not be saved"), "\(routeError.message)")
        let again = try Rig(directory: rig.directory)
        let laterStatus = await again.reply(.status)
        guard case .status(let after) = laterStatus else {
            Issue.record("not the reply asked for: \(laterStatus)")
            return
        }
        #expect(after.route == nil)
        #expect(after.destination?.name == "bakery")
    }

    /// The route's last waypoint, stepping to it with `route next`.
    static func lastWaypoint(of rig: Rig) async -> DestinationReport? {
        guard case .route(var report?) = await rig.reply(.route(.show)) else { return nil }
        while case .route(let next?) = await rig.reply(.route(.next)) { report = next }
        return report.target
    }

    @Test("a failed save answers internal, saying what was done and which file was not kept; the state goes on")
    func failedSave() async throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        // A directory where the file would go: the rename over it fails.
        try FileManager.default.createDirectory(atPath: rig.directory + "/mute.json", withIntermediateDirectories: false)
        guard case .error(let error) = await rig.reply(.mute(true)) else {
            Issue.record("mute was not refused")
            return
        }
        #expect(error.code == .internal)
        #expect(error.message.hasPrefix("muted, but mute.json could not be saved: "), "\(error.message)")
        let statusReply = await rig.reply(.status)
        guard case .status(let status) = statusReply else {
            Issue.record("not the reply asked for: \(statusReply)")
            return
        }
        #expect(status.isMuted == true, "the wearer's mute holds for this run")
    }

    @Test("after stopMotor nothing more is played: the sensors' last cues and patterns are dropped")
    func stopMotor() async throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        rig.core.stopMotor()
        let before = rig.motor.patterns.withLock { $0.count }
        #expect(await rig.reply(.go(latitude: 48.8611, longitude: 2.2945, name: "far")) == .ok)
        rig.walk(north: 0, second: 0)
        #expect(rig.motor.patterns.withLock { $0.count } == before, "no accepted pattern after the stop began")
        #expect(rig.motor.cues.withLock { $0.last } == .some(nil), "the last cue is silence")
    }
}
