import Geodesy
import Testing
import TestSupport

@testable import GPSClient

@Suite("One report per epoch, from gpsd's own expected output", .timeLimit(.minutes(10)))
struct FixAssemblerTests {
    /// Feeds every JSON line of a `.chk` file through libgps's parser (`gps_unpack`, no daemon)
    /// and the assembler, 10 ms apart, as gpsd would send them in a burst.
    static func assemble(log: String) throws -> [GPSEvent] {
        let directory = LibGPSVersion.apiMajor >= 14 ? "Tests/GPSClientTests/Data/chk-3.25/" : "Tests/GPSClientTests/Data/"
        var assembler = FixAssembler(settings: GPSClientSettings(), now: .zero)
        var events: [GPSEvent] = []
        var now = Duration.zero
        for line in try TestData.text(directory + log + ".chk").split(whereSeparator: \.isNewline) where line.hasPrefix("{") {
            now += .milliseconds(10)
            events += assembler.tick(now: now)
            if case .report(let fix, let hasCourse) = LibGPSConnection.interpret(jsonLine: String(line)) {
                events += assembler.receive(fix, hasCourse: hasCourse, now: now)
            }
        }
        events += assembler.tick(now: now + .seconds(1))
        return events
    }

    @Test("the distinct fix epochs equal those of the .chk", arguments: ExpectedEpochs.logs)
    func epochs(log: String) throws {
        let expected = try ExpectedEpochs(log: log, apiMajor: LibGPSVersion.apiMajor)
        expectReports(try Self.assemble(log: log), match: expected, log: log)
    }

    @Test("an epoch carries the receiver's speed and course, never gpsd's speed from a GGA")
    func receiverSpeed() throws {
        // haicom-305N, 09:53:05.802: the GGA report says speed 9.224 (gpsd's, from positions),
        // the RMC report says 0.993 m/s on course 133.96°.
        let events = try Self.assemble(log: "haicom-305N.log")
        let matching = events.compactMap { event -> Fix? in
            if case .fix(let fix) = event, fix.time?.iso8601 == "2026-11-22T09:53:05.802Z" { return fix }
            return nil
        }
        let fix = try #require(matching.first)
        #expect(fix.speedMetersPerSecond == 0.993)
        #expect(fix.trackDegrees == 133.96)
        #expect(fix.horizontalErrorMeters == 400.9)
        #expect(fix.altitudeHAEMeters == 45.2)
        #expect(fix.altitudeMSLMeters == 3.0)
    }

    @Test("a GGA-only epoch is held for the rest of the epoch, then passed on without speed")
    func hold() {
        var assembler = FixAssembler(settings: GPSClientSettings(), now: .zero)
        var gga = Fix(mode: .threeDimensional, time: UTCTime(seconds: 100),
                      coordinate: Coordinate(uncheckedLatitudeDegrees: 1, longitudeDegrees: 2))
        gga.horizontalErrorMeters = 5
        #expect(assembler.receive(gga, hasCourse: false, now: .milliseconds(0)).isEmpty)
        #expect(assembler.nextDeadline() == .seconds(1))
        #expect(assembler.tick(now: .milliseconds(999)).isEmpty)
        #expect(assembler.tick(now: .milliseconds(1000)) == [.fix(gga)])
        // A late report of the same epoch is a duplicate.
        #expect(assembler.receive(gga, hasCourse: true, now: .milliseconds(1100)).isEmpty)
        // The next epoch's first report flushes nothing (nothing held) and is held itself.
        var next = gga
        next.time = UTCTime(seconds: 101)
        #expect(assembler.receive(next, hasCourse: false, now: .milliseconds(1200)).isEmpty)
        // Its RMC completes it at once, merged.
        var rmc = next
        rmc.horizontalErrorMeters = nil
        rmc.speedMetersPerSecond = 1.2
        rmc.trackDegrees = 90
        var merged = rmc
        merged.horizontalErrorMeters = 5
        #expect(assembler.receive(rmc, hasCourse: true, now: .milliseconds(1300)) == [.fix(merged)])
    }

    @Test("silence is reported once after the timeout, and a lost fix once per loss")
    func silenceAndLoss() {
        var assembler = FixAssembler(settings: GPSClientSettings(), now: .zero)
        #expect(assembler.tick(now: .milliseconds(2999)).isEmpty)
        #expect(assembler.tick(now: .seconds(3)) == [.noData(seconds: 3)])
        #expect(assembler.tick(now: .seconds(10)).isEmpty)
        #expect(assembler.nextDeadline() == nil)
        let lost = Fix(mode: .noFix)
        #expect(assembler.receive(lost, hasCourse: false, now: .seconds(11)) == [.fix(lost)])
        #expect(assembler.receive(lost, hasCourse: false, now: .seconds(12)).isEmpty)
        #expect(assembler.nextDeadline() == .seconds(15))
        #expect(assembler.tick(now: .seconds(15)) == [.noData(seconds: 3)])
    }
}
