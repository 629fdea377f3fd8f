import Testing

@testable import PlaceIndex

/// Typo candidates by length bucket (issue 39): the same words a scan of all would find, a
/// bounded number of them, and nothing of a length no allowed typo reaches.
@Suite("Typo vocabulary", .timeLimit(.minutes(5)))
struct TypoVocabularyTests {
    static func bytes(_ words: [String]) -> [[UInt8]] { words.map { Array($0.utf8) } }

    @Test("within the edits allowed, whatever the length bucket: a letter changed, dropped, added")
    func near() {
        let vocabulary = TypoVocabulary(Self.bytes(["bakery", "bakrey", "baker", "bakerys", "bakeries", "pharmacy", "b", "bakery"]))
        let found = Set(vocabulary.near(Array("bakery".utf8), allowed: 1).map { String(decoding: $0, as: UTF8.self) })
        #expect(found == ["baker", "bakerys"])
        let two = Set(vocabulary.near(Array("bakery".utf8), allowed: 2).map { String(decoding: $0, as: UTF8.self) })
        // bakrey is two letters swapped (two edits); bakeries three edits away.
        #expect(two == ["baker", "bakerys", "bakrey"])
        #expect(vocabulary.near(Array("bakery".utf8), allowed: 0).isEmpty)
    }

    @Test("the same answers as comparing with every word, on 20 000 words")
    func sameAsAScan() {
        var words: [[UInt8]] = []
        var state: UInt64 = 7
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            let length = 2 + Int(state >> 60)
            words.append((0..<length).map { index in UInt8(ascii: "a") + UInt8((state >> (UInt64(index) * 3 + 4)) & 7) })
        }
        let vocabulary = TypoVocabulary(words)
        for word in words.prefix(50) {
            let scanned = Set(words.filter { $0 != word && EditDistanceCheck.within($0, word, 1) })
            let found = vocabulary.near(word, allowed: 1)
            #expect(found.count <= TypoVocabulary.maximumAlternatives)
            if scanned.count < TypoVocabulary.maximumAlternatives { #expect(Set(found) == scanned) }
            #expect(found.allSatisfy(scanned.contains))
        }
    }

    @Test("a word past 40 bytes is neither matched nor kept; at most 20 alternatives")
    func bounds() {
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 41)
        let vocabulary = TypoVocabulary([long] + (0..<100).map { [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "c"), UInt8(truncatingIfNeeded: $0)] })
        #expect(vocabulary.near(long, allowed: 2).isEmpty)
        #expect(vocabulary.near(Array("abcd".utf8), allowed: 1).count == TypoVocabulary.maximumAlternatives)
    }
}

/// The oracle, written apart from the code under test: the textbook dynamic programme.
enum EditDistanceCheck {
    static func within(_ a: [UInt8], _ b: [UInt8], _ limit: Int) -> Bool {
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let saved = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = saved
            }
        }
        return (a.isEmpty ? b.count : row[b.count]) <= limit
    }
}
