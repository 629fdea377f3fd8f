import Testing

@testable import SystemSupport

@Suite("Backoff", .timeLimit(.minutes(5)))
struct BackoffTests {
    @Test("1, 2, 4 … capped at 30 s, far past the cap; a success starts again at the first")
    func doubling() {
        var backoff = Backoff<Duration>(first: .seconds(1), longest: .seconds(30))
        let waits = (0..<1000).map { _ in backoff.failed() }
        #expect(waits.prefix(7) == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30), .seconds(30)])
        #expect(waits.allSatisfy { $0 <= .seconds(30) })
        #expect(backoff.failures == 1000)
        backoff.succeeded()
        #expect(backoff.failures == 0)
        #expect(backoff.failed() == .seconds(1))
    }
}
