import Foundation
import Testing
import TestSupport

/// What the wearer feels when the world misbehaves, on the real daemon: the simulated GPS goes
/// silent, then a magnet comes close to the device. The run is recorded and replayed, and the
/// replay must match the live pipeline sample by sample.
@Suite("Guidance warnings end to end", .timeLimit(.minutes(10)))
struct GuidanceWarningTests {
    /// Seconds from the sensors' start: guiding by 6 s, GPS silent 8–16 s, a 15 µT magnet 24–30 s.
    static let events = """
        # what happens to the simulated wearer
        8 gps-off
        16 gps-on
        24 magnet 15
        30 magnet 0
        """
    /// The daemon's default fix timeout, seconds, and its tick.
    static let fixTimeoutSeconds = 3.0
    static let tickSeconds = 0.5

    /// What `status` and the motor showed at one moment.
    typealias StatusSample = (at: ContinuousClock.Instant, state: String, pattern: String?, intensity: Double?, duty: String)

    /// Between `start` and `end`: no-heading within 1.5 s of `start`, the heading-unreliable
    /// warning, and the motor silent apart from it.
    static func expectHeadingLost(
        in samples: [StatusSample], from start: ContinuousClock.Instant, until end: ContinuousClock.Instant,
        cause: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let at = sourceLocation
        let noHeading = try #require(
            samples.first { $0.at > start && $0.state == "no-heading" }, "never no-heading", sourceLocation: at)
        #expect((noHeading.at - start) <= .seconds(1.5), "no-heading after \(noHeading.at - start)", sourceLocation: at)
        let lost = samples.filter { $0.at > noHeading.at && $0.at < end }
        #expect(lost.contains { $0.pattern == "heading-unreliable" }, "no heading-unreliable warning", sourceLocation: at)
        for sample in lost where sample.pattern == nil {
            #expect(sample.intensity == nil && sample.duty == "0", "the motor ran \(cause): \(sample)", sourceLocation: at)
        }
    }

    /// `status` and the motor's duty every 80 ms, until the daemon logs `line` (and at least five
    /// samples are in) or `seconds` pass.
    static func statusSamples(
        _ daemon: SimulatedDaemon, _ client: ControlClient, seconds: Double, until line: String
    ) async throws -> [StatusSample] {
        var samples: [StatusSample] = []
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline, daemon.logged(line) == nil || samples.count < 5 {
            let status = try #require(client.request(#"{"cmd":"status"}"#), "\(daemon.log)")
            let haptic = status.object("haptic")
            samples.append(
                (.now, status["state"] as? String ?? "?", haptic?["pattern"] as? String, haptic?["intensity"] as? Double,
                 daemon.dutyNanoseconds))
            try await Task.sleep(for: .milliseconds(80))
        }
        return samples
    }

    @Test("the IMU board cut off mid-guidance: no-heading within 1.5 s, its warning, the motor silent; guidance resumes")
    func imuCutOff() async throws {
        let daemon = try await SimulatedDaemon(events: "6 imu-off\n11 imu-on\n")
        let client = try daemon.client()
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        let samples = try await Self.statusSamples(daemon, client, seconds: 25, until: "event=imu-on")
        let resumed = try await daemon.waitForStatus(client, seconds: 5) { $0["state"] as? String == "guiding" }
        #expect(resumed != nil, "guidance did not resume when the IMU came back")
        let off = try #require(daemon.logged("event=imu-off"), "\(daemon.log)")
        let on = try #require(daemon.logged("event=imu-on"))
        #expect(samples.contains { $0.at < off && $0.state == "guiding" }, "not guiding before the IMU was cut off")
        // The last heading goes stale after 1 s (the navigator's heading timeout); a burst and
        // a status poll later the state shows it.
        try Self.expectHeadingLost(in: samples, from: off, until: on, cause: "without a compass")
        // The recovery is logged once reads have worked for 2 s, so a flickering bus is one spell.
        _ = await daemon.process.wait(timeout: .seconds(5)) { _, errors in errors.contains { $0.text.contains("imu recovered") } }
        #expect(daemon.stop() == 0, "\(daemon.log)")
        // Logged once when it started (and at most every 5 minutes), not at every failed read;
        // and the recovery.
        let faultLines = daemon.process.errors.filter { $0.text.contains("imu fault") }
        #expect(faultLines.count == 1, "\(faultLines.map(\.text))")
        #expect(daemon.logged("imu recovered") != nil, "\(daemon.log)")
    }

    @Test("a lost fix and magnetic interference (coasting off) each stop the motor with their own warning; guidance resumes; replay matches live")
    func warnings() async throws {
        // The board has a gyroscope, so a disturbed field would be coasted through; with
        // coasting off it stops guidance at once, the path a board without one takes.
        let daemon = try await SimulatedDaemon(configuration: "max-coasting-seconds 0\n", events: Self.events)
        let client = try daemon.client()
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")

        let samples = try await Self.statusSamples(daemon, client, seconds: 40, until: "magnet 0")
        // Let guidance resume after the magnet is gone.
        let resumed = try await daemon.waitForStatus(client, seconds: 5) { $0["state"] as? String == "guiding" }
        #expect(resumed != nil, "guidance did not resume after the magnet left")

        let gpsOff = try #require(daemon.logged("event=gps-off"), "\(daemon.log)")
        let gpsOn = try #require(daemon.logged("event=gps-on"))
        let magnetOn = try #require(daemon.logged("magnet 15"))
        let magnetOff = try #require(daemon.logged("magnet 0"))
        #expect(samples.contains { $0.at < gpsOff && $0.state == "guiding" }, "not guiding before the GPS went silent")

        // GPS silent: no-fix within the fix timeout (plus a tick and a poll), the GPS-lost
        // warning, and the motor silent apart from it.
        let noFix = try #require(samples.first { $0.at > gpsOff && $0.state == "no-fix" }, "never no-fix")
        #expect((noFix.at - gpsOff) <= .seconds(Self.fixTimeoutSeconds + Self.tickSeconds + 0.6), "no-fix after \(noFix.at - gpsOff)")
        let withoutFix = samples.filter { $0.at > noFix.at && $0.at < gpsOn }
        #expect(withoutFix.contains { $0.pattern == "gps-lost" }, "no GPS-lost warning")
        for sample in withoutFix where sample.pattern == nil {
            #expect(sample.intensity == nil && sample.duty == "0", "the motor ran without a fix: \(sample)")
        }
        #expect(samples.contains { $0.at > gpsOn && $0.at < magnetOn && $0.state == "guiding" }, "guidance did not resume with the GPS")

        // Interference: no-heading within a second and a half, its own warning, motor silent.
        try Self.expectHeadingLost(in: samples, from: magnetOn, until: magnetOff, cause: "with a disturbed compass")

        #expect(daemon.stop() == 0, "\(daemon.log)")

        // Replay: the same states, intensities and headings as live, sample by sample.
        let live = try daemon.expectReplayMatchesLive()
        let states = Set(live.compactMap { $0["state"] as? String })
        #expect(states.isSuperset(of: ["guiding", "no-fix", "no-heading"]), "\(states)")
    }

    @Test("with a gyroscope a magnet is coasted through: still guiding, the heading reliable and marked coasting; then corrected again")
    func coasting() async throws {
        let daemon = try await SimulatedDaemon(events: "7 magnet 15\n13 magnet 0\n")
        let client = try daemon.client()
        #expect(client.request(SimulatedDaemon.far)?["class"] as? String == "OK")
        var samples: [(at: ContinuousClock.Instant, state: String, reliable: Bool?, correction: String?, coasting: Double?)] = []
        let deadline = ContinuousClock.now + .seconds(25)
        while ContinuousClock.now < deadline {
            let status = try #require(client.request(#"{"cmd":"status"}"#), "\(daemon.log)")
            let heading = status.object("heading")
            samples.append(
                (.now, status["state"] as? String ?? "?", heading?["reliable"] as? Bool, heading?["correction"] as? String,
                 heading?["coasting"] as? Double))
            if let off = daemon.logged("magnet 0"), ContinuousClock.now - off > .seconds(4) { break }
            try await Task.sleep(for: .milliseconds(80))
        }
        let magnetOn = try #require(daemon.logged("magnet 15"), "\(daemon.log)")
        let magnetOff = try #require(daemon.logged("magnet 0"))
        #expect(samples.contains { $0.at < magnetOn && $0.state == "guiding" && $0.correction == "magnetic" })
        let coasting = try #require(samples.first { $0.at > magnetOn && $0.correction == "coasting" }, "never coasting")
        #expect(coasting.at - magnetOn <= .seconds(1.5), "coasting after \(coasting.at - magnetOn)")
        for sample in samples where sample.at > coasting.at && sample.at < magnetOff {
            #expect(sample.state == "guiding" && sample.reliable == true, "while coasting: \(sample)")
        }
        let longest = samples.filter { $0.at < magnetOff }.compactMap(\.coasting).max() ?? 0
        #expect(longest >= 3, "coasted for \(longest) s of the magnet's 6")
        let corrected = samples.first { $0.at > magnetOff && $0.correction == "magnetic" }
        #expect(corrected.map { $0.at - magnetOff <= .seconds(3) } == true, "the field corrects the heading again")
    }
}
