/// How far apart two words are, for "did you mean …" (config keys, place names, commands): the
/// Levenshtein distance over characters, as given (callers fold case first when case does not
/// matter). The one edit distance of both programs.
public enum EditDistance {
    /// The insertions, deletions and substitutions that turn `a` into `b`; once every path is
    /// over `limit` it stops counting and returns `limit + 1` (a suggestion only needs to know
    /// "close or not", and names can be long).
    public static func between(_ a: String, _ b: String, limit: Int = .max) -> Int {
        between(Array(a), Array(b), limit: limit)
    }

    /// ``between(_:_:limit:)`` over any elements: the place index compares folded words as
    /// bytes, thousands of them a query.
    public static func between<Element: Equatable>(_ a: [Element], _ b: [Element], limit: Int = .max) -> Int {
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            if current.min()! > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// What a misspelt `word` most likely meant among `candidates`, case folded: every candidate
    /// it cuts short at a hyphen (`berrygps` for `berrygps-imu-v3` and `-v4`, `fix-timeout` for
    /// `fix-timeout-seconds`) or that it runs past (`socket-path` for `socket`); else the nearest
    /// within max(2, a third of its length), ties kept; else none. Two edits are one typo and a
    /// swap; longer names tolerate more, short ones must not match every short word.
    public static func suggestions(for word: String, among candidates: [String]) -> [String] {
        let lowered = word.lowercased()
        if let exact = candidates.first(where: { $0.lowercased() == lowered }) { return [exact] }
        let related = candidates.filter {
            let candidate = $0.lowercased()
            return candidate.hasPrefix(lowered + "-") || lowered.hasPrefix(candidate + "-")
        }
        if !related.isEmpty { return related }
        var best: [String] = []
        var bestDistance = Int.max
        for candidate in candidates {
            let allowed = max(2, candidate.count / 3)
            let distance = between(lowered, candidate.lowercased(), limit: allowed)
            guard distance <= allowed else { continue }
            if distance < bestDistance { (best, bestDistance) = ([candidate], distance) }
            else if distance == bestDistance { best.append(candidate) }
        }
        return best
    }

    /// `did you mean 'a'?` or `did you mean 'a' or 'b'?`; nil for none.
    public static func didYouMean(_ suggestions: [String]) -> String? {
        guard !suggestions.isEmpty else { return nil }
        return "did you mean " + suggestions.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }
}
