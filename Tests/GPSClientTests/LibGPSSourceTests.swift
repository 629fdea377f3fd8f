import Foundation
import Geodesy
import Testing
import TestSupport

@testable import GPSClient

@Suite("The libgps client against a real gpsd replaying recorded logs", .timeLimit(.minutes(10)))
struct LibGPSSourceTests {
    static func isConnected(_ events: [GPSEvent]) -> Bool {
        events.contains { if case .connected = $0 { true } else { false } }
    }

    @Test("the client reports exactly the fix epochs gpsd's expected output has", arguments: ExpectedEpochs.logs)
    func replay(log: String) async throws {
        let gpsd = try GPSDHarness.start()
        defer { gpsd.stop() }
        let source = LibGPSSource(server: GPSServerAddress(host: "127.0.0.1", port: gpsd.port))
        let recorder = StreamRecorder(source.events())
        defer { recorder.stop() }
        try #require(await recorder.wait(timeout: .seconds(10), until: Self.isConnected), "no WATCH reply from gpsd")

        let logURL = TestData.url("Tests/GPSClientTests/Data/\(log)")
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            Thread.detachNewThread {
                do {
                    try gpsd.feed(logURL)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        // gpsd needs a moment to process the last sentences; the last epoch may be held 1 s.
        let expected = try ExpectedEpochs(log: log, apiMajor: LibGPSVersion.apiMajor)
        await recorder.wait(timeout: .seconds(5)) { events in
            events.filter { if case .fix(let fix) = $0, fix.hasPosition, fix.time != nil { true } else { false } }.count
                >= expected.epochs.count
        }
        try await Task.sleep(for: .milliseconds(1500))
        let events = recorder.recorded
        expectReports(events, match: expected, log: log)
        let failures = events.filter { if case .failure = $0 { true } else { false } }
        #expect(failures.isEmpty, "\(log): \(failures)")
    }
}
