@preconcurrency import Glibc
import PlaceIndex

/// `map import`'s progress on standard error: on a terminal one line rewritten in place, at
/// most twice a second; elsewhere (a log) a line when a phase starts and every 10 s. Each says
/// the phase, how much of it is done and, once that is known, about how long it has left.
struct ImportProgressLine {
    let onTerminal: Bool
    private var phase: MapImport.Progress.Phase?
    /// When the phase (or osmium's pass through the extract) started, and at what fraction.
    private var phaseStart: (time: ContinuousClock.Instant, fraction: Double)?
    private var lastShown: ContinuousClock.Instant?
    private var lastFraction: Double?
    private var written = false

    init(onTerminal: Bool) {
        self.onTerminal = onTerminal
    }

    /// Takes the import's latest progress, seen at `now`.
    mutating func update(_ progress: MapImport.Progress, at now: ContinuousClock.Instant) {
        let newPhase = progress.phase != phase
        // Between osmium's passes, and after it has read its last block, its offset is not
        // there to read: the last one stands.
        let fraction = progress.fraction ?? (newPhase ? nil : lastFraction)
        // osmium reads the extract twice: a fraction going back is its second pass starting.
        if newPhase || (fraction ?? 0) < (lastFraction ?? 0) - 0.05 { phaseStart = (now, fraction ?? 0) }
        phase = progress.phase
        lastFraction = fraction
        let interval: Duration = onTerminal ? .milliseconds(500) : .seconds(10)
        guard newPhase || lastShown.map({ now - $0 >= interval }) ?? true else { return }
        lastShown = now
        let text = Self.text(MapImport.Progress(phase: progress.phase, fraction: fraction, steps: progress.steps), left: secondsLeft(fraction, at: now))
        fputs(onTerminal ? "\r\u{1B}[K" + text : text + "\n", stderr)
        written = true
    }

    /// Ends the terminal's line, so what follows starts on its own.
    mutating func end() {
        if onTerminal, written { fputs("\n", stderr) }
        written = false
    }

    /// The phase's time left at its pace so far; nil until 5 % of it and 2 s have passed.
    private func secondsLeft(_ fraction: Double?, at now: ContinuousClock.Instant) -> Double? {
        guard let fraction, let start = phaseStart, fraction - start.fraction >= 0.05 else { return nil }
        let elapsed = (now - start.time).seconds
        guard elapsed >= 2 else { return nil }
        return elapsed / (fraction - start.fraction) * (1 - fraction)
    }

    /// `reading the extract: 45 %, about 20 s left`.
    static func text(_ progress: MapImport.Progress, left: Double?) -> String {
        let name =
            switch progress.phase {
            case .reading: "reading the extract"
            case .writing: "writing the index"
            case .finishing: "finishing the index"
            case .routes: "building the walking routes"
            }
        let step = "step \(progress.phase.rawValue + 1) of \(progress.steps), \(name)"
        guard let fraction = progress.fraction else { return step + "…" }
        var text = step + ": \(Int(fraction * 100)) %"
        if let left { text += left >= 90 ? ", about \(Int((left / 60).rounded())) min left" : ", about \(max(1, Int(left.rounded()))) s left" }
        return text
    }
}
