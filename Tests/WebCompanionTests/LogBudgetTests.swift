import Testing
import WebCompanion

@Suite(.timeLimit(.minutes(5))) struct LogBudgetTests {
    /// A million lines in a minute log twenty; the next minute's first line says how many
    /// were left out.
    @Test func aFloodOfLinesLogsTwentyAMinuteAndSaysHowManyWereLeftOut() {
        var budget = LogBudget()
        var logged = 0
        for line in 0..<1_000_000 where budget.admit(at: Double(line) * 0.000_05).allowed { logged += 1 }
        #expect(logged == LogBudget.linesPerWindow)
        let next = budget.admit(at: 61)
        #expect(next.allowed && next.suppressedBefore == 1_000_000 - LogBudget.linesPerWindow)
        #expect(budget.admit(at: 62).suppressedBefore == 0, "said once")
    }

    @Test func aQuietSourceLogsEveryLine() {
        var budget = LogBudget()
        for minute in 0..<10 {
            for line in 0..<LogBudget.linesPerWindow {
                #expect(budget.admit(at: Double(minute) * 60 + Double(line)) == (true, 0))
            }
        }
    }
}
