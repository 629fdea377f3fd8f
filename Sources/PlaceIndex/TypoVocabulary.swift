import CommandLineSupport

/// The index's words, folded, for typo matching: kept by length, in one buffer, so that a
/// word is compared only with the words whose length its typos allow (an edit changes the
/// length by at most one), and the whole list costs its bytes and four more a word.
///
/// A look-up reads the words of ``count`` ± the typos allowed: a few length buckets of the
/// vocabulary, not all of it; each comparison stops at the allowed distance.
struct TypoVocabulary {
    /// Every word's bytes, shortest words first.
    private let bytes: [UInt8]
    /// Where each word starts in ``bytes``, and one past the last.
    private let starts: [UInt32]
    /// `buckets[n]`: the first word of length n or more, in ``starts``.
    private let buckets: [Int]

    /// Words longer than this are not matched for typos (a word that long is a code or a run of
    /// letters, not a name someone mistypes).
    static let maximumWordBytes = 40
    /// The most alternatives one typed word brings into a query.
    static let maximumAlternatives = 20

    init(_ words: some Sequence<[UInt8]>) {
        var byLength = [[[UInt8]]](repeating: [], count: Self.maximumWordBytes + 2)
        for word in words where !word.isEmpty && word.count <= Self.maximumWordBytes { byLength[word.count].append(word) }
        var bytes: [UInt8] = []
        var starts: [UInt32] = []
        var buckets: [Int] = []
        for group in byLength {
            buckets.append(starts.count)
            for word in group {
                starts.append(UInt32(bytes.count))
                bytes += word
            }
        }
        starts.append(UInt32(bytes.count))
        self.bytes = bytes
        self.starts = starts
        self.buckets = buckets
    }

    /// Words within `allowed` edits of `word`, other than it, at most ``maximumAlternatives``.
    func near(_ word: [UInt8], allowed: Int) -> [[UInt8]] {
        guard allowed > 0, word.count <= Self.maximumWordBytes else { return [] }
        let first = buckets[max(0, word.count - allowed)]
        let last = buckets[min(Self.maximumWordBytes + 1, word.count + allowed + 1)]
        var found: [[UInt8]] = []
        for index in first..<last {
            let term = Array(bytes[Int(starts[index])..<Int(starts[index + 1])])
            guard term != word, EditDistance.between(term, word, limit: allowed) <= allowed else { continue }
            found.append(term)
            if found.count == Self.maximumAlternatives { break }
        }
        return found
    }
}
