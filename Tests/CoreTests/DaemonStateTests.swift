import ControlProtocol
import Core
import Daemon
import Foundation
import Geodesy
import Guidance
import Heading
import TestSupport
import Testing

/// The daemon's decisions on manual time: whole scenarios driven through ``DaemonState``, each
/// asserting what the daemon would do (patterns, saves, logs), with no process, socket or clock.
@Suite("The daemon core as a value", .timeLimit(.minutes(5)))
struct DaemonStateTests {
    static let paris = ParisGrid.origin
    /// About 300 m north.
    static let far = Coordinate(uncheckedLatitudeDegrees: 48.8611, longitudeDegrees: 2.2945)

    static func fix(_ coordinate: Coordinate = paris) -> Fix { ParisGrid.fix(coordinate) }

    /// A level, still device facing magnetic north in Paris's field.
    static let sample = IMUSample(magneticMicrotesla: Vector3(20.8, 0, 43.0), accelerationG: Vector3(0, 0, -1))

    static func fresh(saved: PersistentState = .initial) -> DaemonState {
        DaemonState(pipeline: NavigationPipeline(calibration: .identity), saved: saved, builtInCalibration: .identity)
    }

    static func patterns(_ effects: [DaemonState.Effect]) -> [HapticPattern] {
        effects.compactMap { if case .play(let pattern) = $0 { pattern } else { nil } }
    }

    static func patterns(_ actions: Navigator.Actions) -> [HapticPattern] {
        actions.compactMap { if case .play(let pattern) = $0 { pattern } else { nil } }
    }

    static func saves<Reply>(_ driven: Driven<Reply>) -> [SavedItem] { driven.saves }

    @Test("start without an IMU: status names it, the heading says no-imu; go warns heading-unreliable once settled")
    func noIMU() {
        var state = Self.fresh()
        state.imuMissing("cannot open /dev/i2c-1: No such file or directory")
        _ = state.fix(Self.fix(), at: 0.5)
        let status = state.status(at: 1, duty: 0, pattern: nil, motorFault: nil)
        #expect(status.problems == ["imu: cannot open /dev/i2c-1: No such file or directory; trying again"])
        #expect(status.heading.problem == "no-imu")
        #expect(status.imu == nil)
        let go = state.go(Self.far, name: "far", at: 1)
        #expect(Self.patterns(go.effects) == [.destinationAccepted])
        var warnings: [(Double, HapticPattern)] = []
        for tenth in 11...50 {
            let seconds = Double(tenth) / 10
            var played = Self.patterns(state.tick(at: seconds))
            if tenth % 10 == 0 { played += Self.patterns(state.fix(Self.fix(), at: seconds).actions) }
            for pattern in played { warnings.append((seconds, pattern)) }
        }
        #expect(state.state == .noHeading)
        #expect(warnings.map(\.1) == [.headingUnreliable], "\(warnings)")
        #expect(warnings.first.map { $0.0 >= 4 } == true, "not before settling: \(warnings)")
        // The board answers: the IMU is in status, and the problem is gone.
        state.imuInUse(IMUInUse(chips: "LSM9DS1", samples: 1, transferErrors: 0, faults: 0, restarts: 0))
        let found = state.status(at: 5, duty: 0, pattern: nil, motorFault: nil)
        #expect(found.problems.isEmpty)
        #expect(found.imu?.chips == "LSM9DS1")
    }

    @Test("the IMU stops answering while guiding: no heading, not reliable, no turn, the problem named with its age; then back")
    func imuSilent() {
        var state = Self.fresh()
        _ = state.fix(Self.fix(), at: 0)
        _ = state.go(Self.far, name: "far", at: 0.5)
        for tenth in 6...20 { _ = state.imu(Self.sample, at: Double(tenth) / 10) }
        let measured = state.status(at: 2)
        #expect(measured.heading.isReliable && measured.heading.trueDegrees != nil && measured.errorDegrees != nil)
        #expect(measured.destination?.radiusMeters == 15, "the arrival radius in effect (issue 30, item 11)")
        state.imuSilent(since: 2)
        let silent = state.status(at: 12.4)
        #expect(silent.heading.trueDegrees == nil && silent.heading.magneticDegrees == nil)
        #expect(!silent.heading.isReliable)
        #expect(silent.heading.problem == "no-imu")
        #expect(silent.errorDegrees == nil)
        #expect(silent.problems == ["imu: not answering for 10 s; trying again"])
        state.imuSilent(since: nil)
        _ = state.imu(Self.sample, at: 12.5)
        let back = state.status(at: 12.5)
        #expect(back.problems.isEmpty && back.heading.isReliable && back.errorDegrees != nil)
    }

    @Test("not calibrated: the heading is kept for tools but no turn is given, and the remedy is a problem")
    func notCalibrated() {
        var state = DaemonState(pipeline: NavigationPipeline(), saved: .initial, builtInCalibration: nil)
        _ = state.fix(Self.fix(), at: 0)
        _ = state.go(Self.far, name: "far", at: 0.5)
        for tenth in 6...20 { _ = state.imu(Self.sample, at: Double(tenth) / 10) }
        let status = state.status(at: 2)
        #expect(status.heading.problem == "not-calibrated" && !status.heading.isReliable)
        #expect(status.heading.trueDegrees != nil)
        #expect(status.errorDegrees == nil)
        #expect(status.problems == ["compass: not calibrated; run: waypointctl calibrate start"])
    }

    @Test("gpsd lost and regained: the problem comes and goes; a fix too old is shown stale, with its age")
    func gpsLostAndRegained() {
        var state = Self.fresh()
        _ = state.fix(Self.fix(), at: 0)
        state.gpsMissing("cannot connect to gpsd at 127.0.0.1:2947 (Connection refused)")
        let lost = state.status(at: 10, duty: 0, pattern: nil, motorFault: nil)
        #expect(lost.problems == ["gps: cannot connect to gpsd at 127.0.0.1:2947 (Connection refused); trying again"])
        #expect(lost.fix?.problem == "stale")
        #expect(lost.fix?.ageSeconds == 10)
        #expect(lost.fix?.altitudeMSLMeters == 35)
        state.gpsMissing(nil)
        _ = state.fix(Self.fix(), at: 11)
        let back = state.status(at: 11.5, duty: 0, pattern: nil, motorFault: nil)
        #expect(back.problems.isEmpty)
        #expect(back.fix?.problem == nil)
        #expect(back.fix?.ageSeconds == 0.5)
    }

    @Test("go without a fix: accepted, the destination and recent list saved, gps-lost once settled and every 10 s")
    func goWithoutFix() {
        var state = Self.fresh()
        let go = state.go(Self.far, name: "far", at: 0)
        #expect(Self.patterns(go.effects) == [.destinationAccepted])
        #expect(go.effects.contains(.destinationChanged(Self.far)))
        let saved = SavedDestination(coordinate: Self.far, name: "far")
        #expect(Self.saves(go) == [.target(saved, nil), .recent(state.persistent.recent)])
        #expect(state.persistent.recent.first == saved)
        #expect((try? go.reply.get()) != nil)
        var warnings: [Double] = []
        for tenth in 1...250 {
            let seconds = Double(tenth) / 10
            let played = Self.patterns(state.imu(Self.sample, at: seconds).actions) + Self.patterns(state.tick(at: seconds))
            if played.contains(.gpsLost) { warnings.append(seconds) }
        }
        #expect(warnings == [3, 13, 23], "\(warnings)")
        #expect(state.needsHeading)
    }

    @Test("arrive: two fixes at the destination play arrived once; bearing and turn are then unknown")
    func arrive() {
        var state = Self.fresh()
        _ = state.go(Self.paris, name: nil, at: 0)
        var played: [HapticPattern] = []
        for second in 1...5 {
            played += Self.patterns(state.fix(Self.fix(), at: Double(second)).actions)
            played += Self.patterns(state.imu(Self.sample, at: Double(second) + 0.1).actions)
        }
        #expect(state.state == .arrived)
        #expect(played == [.arrived])
        let status = state.status(at: 5.5, duty: 0, pattern: nil, motorFault: nil)
        #expect(status.bearingDegrees == nil && status.errorDegrees == nil)
        #expect(status.distanceMeters == 0)
    }

    @Test("mute: silences at once and is saved; muted, go plays no accepted; clear silences and saves no destination")
    func muteAndClear() {
        var state = Self.fresh()
        let mute = state.mute(true, at: 0)
        #expect(mute.effects.contains(.silence))
        #expect(Self.saves(mute) == [.muted(true)])
        #expect(mute.effects.contains(.log(.info, "muted", [:])))
        let go = state.go(Self.far, name: nil, at: 1)
        #expect(Self.patterns(go.effects).isEmpty)
        let clear = state.clear(at: 2)
        #expect(clear.effects.contains(.silence))
        #expect(clear.effects.contains(.destinationChanged(nil)))
        #expect(Self.saves(clear) == [.target(nil, nil)])
        #expect(state.state == .idle)
        #expect(state.status(at: 3, duty: 0, pattern: nil, motorFault: "cannot set the duty cycle").problems
            == ["motor: cannot set the duty cycle; retrying"])
    }

    @Test("buzz: refused while a pattern plays, played otherwise; go recent past the list is not-found")
    func buzzAndRecent() {
        var state = Self.fresh()
        let busy = state.buzz(.test, patternPlaying: true)
        #expect(busy.effects.isEmpty)
        #expect(busy.reply.failure?.code == .refused)
        #expect(Self.patterns(state.buzz(.test, patternPlaying: false).effects) == [.motorTest])
        let missing = state.goRecent(1, at: 0)
        #expect(missing.reply.failure == ControlError(.notFound, "there are only 0 recent destinations"))
    }

    /// A client names the recent destination it removes by its place: two taps in a row remove
    /// the two places tapped, whatever the list's order became between them (issue 38: remove
    /// on #2 and #4 removed #2 and #5, numbers the first removal had moved).
    @Test("recent remove by place removes that place, and refuses one no longer there")
    func removeRecentByPlace() {
        var state = Self.fresh()
        let points = (1...5).map { Coordinate(uncheckedLatitudeDegrees: 48.85 + Double($0) * 0.01, longitudeDegrees: 2.29) }
        for (index, point) in points.enumerated() { _ = state.go(point, name: "P\(index + 1)", at: Double(index)) }
        #expect(state.recent.map(\.name) == ["P5", "P4", "P3", "P2", "P1"])
        for tapped in [state.recent[1], state.recent[3]] {
            let removed = state.drive(
                .removeRecentPlace(latitude: tapped.coordinate.latitudeDegrees, longitude: tapped.coordinate.longitudeDegrees), at: 10
            ) { $0 }
            #expect(removed.reply.failure == nil)
            #expect(removed.saves == [.recent(state.recent)])
        }
        #expect(state.recent.map(\.name) == ["P5", "P3", "P1"])
        let again = state.drive(.removeRecentPlace(latitude: points[3].latitudeDegrees, longitude: points[3].longitudeDegrees), at: 11) { $0 }
        #expect(again.reply.failure?.code == .notFound)
        #expect(state.recent.count == 3)
    }

    @Test("calibrate: start pauses guidance, finish without a fix is refused, with one it stores, saves and plays calibrated")
    func calibrate() {
        var state = DaemonState(pipeline: NavigationPipeline(), saved: .initial)
        #expect(state.calibrationReport().state == "none")
        let start = state.calibrate(.start, at: 0, utcSeconds: 1_782_950_400)
        #expect(start.effects.contains(.calibratingChanged(true)))
        #expect(start.effects.contains { if case .record(let event) = $0 { event.kind == .muted(true) } else { false } })
        #expect(state.needsHeading)
        #expect(state.calibrationReport().missing?.count == 8, "every direction missing before a sample")
        // Samples on a sphere of 48 µT around a hard-iron offset, every direction covered; each
        // direction that fills ticks the motor once (issue 30, item 14).
        let offset = Vector3(12, -30, 8)
        var seconds = 0.0
        var ticks = 0
        for latitude in stride(from: -80.0, through: 80, by: 20) {
            for longitude in stride(from: 0.0, to: 360, by: 15) {
                let (phi, lambda) = (latitude * .pi / 180, longitude * .pi / 180)
                let field = Vector3(48 * cos(phi) * cos(lambda), 48 * cos(phi) * sin(lambda), 48 * sin(phi))
                seconds += 0.02
                let actions = state.imu(IMUSample(magneticMicrotesla: field + offset, accelerationG: Vector3(0, 0, -1)), at: seconds).actions
                ticks += Self.patterns(actions).filter { $0 == .calibrationProgress }.count
            }
        }
        #expect(ticks >= 2 && ticks <= 8, "a tick as directions fill (several at once are one): \(ticks)")
        #expect(state.calibrationReport().missing == [])
        #expect(state.calibrationReport().isReady == false, "no fix yet: nothing to scale to")
        let refused = state.calibrate(.finish, at: seconds, utcSeconds: 1_782_950_400)
        #expect(refused.reply.failure?.code == .refused, "no fix yet")
        _ = state.fix(Self.fix(), at: seconds)
        #expect(state.calibrationReport().isReady == true, "a fit would be accepted now")
        let finished = state.calibrate(.finish, at: seconds, utcSeconds: 1_782_950_400)
        let report = try? finished.reply.get()
        #expect(report?.state == "stored", "\(String(describing: finished.reply))")
        #expect(Self.patterns(finished.effects) == [.calibrationDone])
        #expect(finished.effects.contains(.calibratingChanged(false)))
        #expect(finished.saves.contains { if case .calibration(let saved?) = $0 { saved.createdAt.seconds == 1_782_950_400 } else { false } })
        #expect(!state.needsHeading)
        #expect(state.calibrationReport().state == "stored")
    }
}

extension Result {
    /// The error, or nil on success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
