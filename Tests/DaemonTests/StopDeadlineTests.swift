import Daemon
import Synchronization
import Testing

@Suite("Stop deadline", .timeLimit(.minutes(5)))
struct StopDeadlineTests {
    @Test("the expiry action runs when not disarmed in time, and not when disarmed")
    func expiry() async throws {
        let expired = Atomic(0)
        let late = StopDeadline()
        try late.arm(after: .milliseconds(50)) { expired.add(1, ordering: .relaxed) }
        let prompt = StopDeadline()
        try prompt.arm(after: .milliseconds(50)) { expired.add(10, ordering: .relaxed) }
        prompt.disarm()
        try await Task.sleep(for: .milliseconds(400))
        #expect(expired.load(ordering: .relaxed) == 1)
    }
}
