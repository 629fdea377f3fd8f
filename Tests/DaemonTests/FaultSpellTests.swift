import Testing

@testable import Daemon

@Suite("Recurring faults in the log", .timeLimit(.minutes(5)))
struct FaultSpellTests {
    typealias Instant = ContinuousClock.Instant

    @Test("a fault 100 times a second for an hour: its start, one count every 5 min, its end once quiet for 10 s")
    func spell() {
        var spell = FaultSpell<Instant>()
        let start = ContinuousClock.now
        var reports: [(Duration, FaultSpell<Instant>.Report)] = []
        for hundredth in 0..<360_000 {
            let now = start + .milliseconds(hundredth * 10)
            if let report = spell.fault(at: now) { reports.append((now - start, report)) }
            // A read that works now and then does not end the spell.
            if hundredth % 7 == 0, let report = spell.working(at: now) { reports.append((now - start, report)) }
        }
        #expect(reports.count == 1 + 11, "\(reports)")
        #expect(reports.first?.1 == .began)
        #expect(reports.dropFirst().allSatisfy { if case .continuing(let count) = $0.1 { count == 30_000 } else { false } })
        #expect(spell.working(at: start + .seconds(3605)) == nil, "5 s quiet is not yet the end")
        #expect(spell.working(at: start + .seconds(3610)) == .ended(count: 360_000))
        #expect(!spell.isUnderWay)
        #expect(spell.fault(at: start + .seconds(3611)) == .began, "a new spell")
    }
}
