/// How far apart two words are, for "did you mean …" (config keys, place names, commands): the
/// Levenshtein distance over characters, as given (callers fold case first when case does not
/// matter). The one edit distance of both programs.
public enum EditDistance {
    /// The insertions, deletions and substitutions that turn `a` into `b`; once every path is
    /// over `limit` it stops counting and returns `limit + 1` (a suggestion only needs to know
    /// "close or not", and names can be long).
    public static func between(_ a: String, _ b: String, limit: Int = .max) -> Int {
        let a = Array(a)
        let b = Array(b)
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
}
