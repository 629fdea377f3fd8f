@preconcurrency import Glibc

/// Times an operation over a fixed set of inputs, repeating the whole set until a minimum time
/// has passed, and reports nanoseconds per operation.
enum Benchmark {
    /// At least this long per metric, so timer resolution and start-up noise do not matter.
    static let minimumDuration = Duration.seconds(1)

    /// Runs `operation` over every input, as many rounds as fit in `minimumDuration`.
    /// - Returns: nanoseconds per call.
    static func nanosecondsPerOperation<Input>(_ inputs: [Input], _ operation: (Input) -> Double) -> Double {
        precondition(!inputs.isEmpty, "a benchmark needs inputs")
        let clock = ContinuousClock()
        var calls = 0
        var sink = 0.0
        // One untimed round warms caches and the branch predictor.
        for input in inputs { sink += operation(input) }
        let start = clock.now
        var elapsed = Duration.zero
        while elapsed < minimumDuration {
            for input in inputs { sink += operation(input) }
            calls += inputs.count
            elapsed = clock.now - start
        }
        consume(sink)
        let (seconds, attoseconds) = elapsed.components
        let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
        return nanoseconds / Double(calls)
    }

    /// Prints one metric as `name value unit`.
    static func report(_ name: String, _ value: Double, _ unit: String) {
        print("\(name) \(Int(value.rounded())) \(unit)")
    }

    /// Keeps the optimiser from deleting the work whose result ends here.
    @inline(never)
    static func consume(_ value: Double) {
        if value == .pi { fputs("", stderr) }
    }

    /// The `i`-th point of a deterministic, evenly spread sequence in [0, 1)ᵈ (an additive
    /// recurrence on the generalised golden ratio, Roberts 2018), so every run times the same
    /// well-spread inputs without a random generator.
    static func quasiRandom(_ i: Int, dimension: Int, of dimensions: Int) -> Double {
        // φ_d is the positive root of x^(d+1) = x + 1; α_k = φ_d^−(k+1).
        var phi = 2.0
        for _ in 0..<32 { phi = pow(1 + phi, 1 / Double(dimensions + 1)) }
        let alpha = pow(1 / phi, Double(dimension + 1))
        let value = 0.5 + alpha * Double(i + 1)
        return value - value.rounded(.down)
    }

    /// The lines of a text file, or nil when it cannot be opened.
    static func lines(ofFile path: String) -> [String]? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var lines: [String] = []
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while getline(&buffer, &capacity, file) > 0, let buffer {
            lines.append(String(cString: buffer))
        }
        return lines
    }

    /// Voluntary plus involuntary context switches of the whole process while `body` runs:
    /// each is a wakeup of some thread, which is what costs battery on a sleeping device.
    static func contextSwitches(_ body: () -> Void) -> Int {
        var before = rusage()
        getrusage(RUSAGE_SELF.rawValue, &before)
        body()
        var after = rusage()
        getrusage(RUSAGE_SELF.rawValue, &after)
        return (after.ru_nvcsw - before.ru_nvcsw) + (after.ru_nivcsw - before.ru_nivcsw)
    }

    /// Heap allocations made while `body` runs, when the counting allocator is preloaded.
    static func allocations(_ body: () -> Void) -> Int? {
        typealias Counter = @convention(c) () -> UInt
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "waypoint_allocation_count") else { return nil }
        let count = unsafeBitCast(symbol, to: Counter.self)
        let before = count()
        body()
        return Int(count() - before)
    }

    /// Peak resident set size of this process in kB (`VmHWM` in /proc/self/status).
    static func peakResidentKilobytes() -> Int? {
        guard let line = lines(ofFile: "/proc/self/status")?.first(where: { $0.hasPrefix("VmHWM:") }) else {
            return nil
        }
        return Int(line.dropFirst("VmHWM:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }
}
