import CommandLineSupport
import Testing

/// "Did you mean …" for commands, config keys and config values (issue 30, item 10).
@Suite("Suggestions", .timeLimit(.minutes(5)))
struct EditDistanceTests {
    @Test("the candidates the word cuts short, else the nearest within max(2, a third of its length); none when nothing is close")
    func suggestions() {
        let boards = ["sense-hat", "berrygps-imu-v3", "berrygps-imu-v4", "enviro-phat"]
        #expect(EditDistance.suggestions(for: "berrygps", among: boards) == ["berrygps-imu-v3", "berrygps-imu-v4"])
        #expect(EditDistance.suggestions(for: "Sense-Hat", among: boards) == ["sense-hat"])
        #expect(EditDistance.suggestions(for: "envirophat", among: boards) == ["enviro-phat"])
        #expect(EditDistance.suggestions(for: "toaster", among: boards) == [])
        #expect(EditDistance.suggestions(for: "chek", among: ["check", "gps", "replay"]) == ["check"])
        #expect(EditDistance.suggestions(for: "stauts", among: ["status", "watch", "go"]) == ["status"])
        #expect(EditDistance.suggestions(for: "towards", among: ["toward", "away"]) == ["toward"])
        #expect(EditDistance.suggestions(for: "xyz", among: ["go"]) == [], "a short candidate is not every short word's match")
        #expect(EditDistance.suggestions(for: "anything", among: []) == [])
        #expect(EditDistance.didYouMean(["a"]) == "did you mean 'a'?")
        #expect(EditDistance.didYouMean(["a", "b"]) == "did you mean 'a' or 'b'?")
        #expect(EditDistance.didYouMean([]) == nil)
    }

    @Test("Levenshtein distances, and the limit stops counting")
    func distances() {
        #expect(EditDistance.between("kitten", "sitting") == 3)
        #expect(EditDistance.between("", "abc") == 3)
        #expect(EditDistance.between("abcdef", "uvwxyz", limit: 2) == 3)
    }
}
