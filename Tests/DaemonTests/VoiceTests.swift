import Daemon
@preconcurrency import Glibc
import Synchronization
import SystemSupport
import Testing

/// The voice through real `/bin/sh` commands: one that records what it is given stands for
/// espeak-ng, one that sleeps for a sentence that speaks long, a missing program for a
/// machine without espeak-ng.
/// In `make test`'s end-to-end phase (Makefile `END_TO_END`), one test at a time: each waits on a
/// thread of its own, which a pool busy with the unit phase's blocking tests starts too late.
@Suite("The voice: a bounded child per sentence", .timeLimit(.minutes(5)))
struct VoiceTests {
    /// A voice running on its thread, in a fresh directory that it may write.
    final class Harness: Sendable {
        let voice: Voice
        let handsFree = HandsFree(devices: [])
        let directory: String
        private let task = Mutex<Task<Void, Never>?>(nil)

        init(command: (String) -> String, timeLimitSeconds: Double = Voice.defaultTimeLimitSeconds) {
            var template = Array("/tmp/waypointd-voice-XXXXXX".utf8CString)
            directory = mkdtemp(&template).map { String(cString: $0) } ?? "/tmp"
            voice = Voice(
                command: command(directory), handsFree: handsFree, stateDirectory: directory,
                logger: Logger(label: "test", level: .critical, handler: StandardErrorLogHandler()), timeLimitSeconds: timeLimitSeconds)
            let voice = self.voice
            task.withLock { $0 = Task { try? await voice.run() } }
        }

        deinit {
            task.withLock { $0?.cancel() }
            // What the commands may have left: the recording and the flag of one test.
            for name in ["said", "ready"] { unlink(directory + "/" + name) }
            rmdir(directory)
        }

        /// The file the recording command appends to.
        var spoken: String {
            guard let file = fopen(directory + "/said", "r") else { return "" }
            defer { fclose(file) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = fread(&buffer, 1, buffer.count, file)
                if count <= 0 { break }
                bytes += buffer.prefix(count)
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Waits until `condition` holds (at most `seconds`).
        func wait(seconds: Double = 30, until condition: () -> Bool) async throws -> Bool {
            let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
            while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            return condition()
        }
    }

    @Test func eachSentenceReachesTheCommandOnItsStandardInputAndStatus() async throws {
        let harness = Harness { "cat >> \($0)/said" }
        harness.voice.say("The destination is 300 metres away, at 12 o'clock.")
        #expect(try await harness.wait { harness.spoken == "The destination is 300 metres away, at 12 o'clock.\n" })
        #expect(harness.handsFree.said?.text == "The destination is 300 metres away, at 12 o'clock.")
        #expect(harness.handsFree.said?.serial == 1)
        #expect(harness.voice.repeatLast())
        #expect(try await harness.wait { harness.spoken.split(separator: "\n").count == 2 })
        #expect(harness.handsFree.said?.serial == 2, "said again is a new sentence for the page to announce")
        #expect(harness.handsFree.speechProblem == nil)
    }

    @Test func aNewSentenceCutsTheOneSpeakingWithItsWholePipeline() async throws {
        // The first stage holds the sentence for 10 s, as a slow synthesiser would; cutting
        // only the shell would leave it running and write the old sentence later.
        let harness = Harness { "read line; case \"$line\" in First*) sleep 10;; esac; echo \"$line\" >> \($0)/said" }
        harness.voice.say("First, a long sentence.")
        #expect(try await harness.wait { harness.voice.startedSentences == 1 })
        try await Task.sleep(for: .milliseconds(200))
        harness.voice.say("Second.")
        #expect(try await harness.wait { harness.spoken == "Second.\n" })
        try await Task.sleep(for: .milliseconds(500))
        #expect(harness.spoken == "Second.\n", "the first sentence's pipeline was killed, not left to finish")
        #expect(harness.handsFree.speechProblem == nil, "a cut sentence is no failure")
    }

    @Test func aMissingProgramIsNamedOnceAndClearedWhenSpeechWorks() async throws {
        let harness = Harness { "test -e \($0)/ready || exec waypoint-no-such-speaker; cat >> \($0)/said" }
        harness.voice.say("One.")
        #expect(try await harness.wait { harness.handsFree.speechProblem != nil })
        let problem = try #require(harness.handsFree.speechProblem)
        #expect(problem.hasPrefix("speech: the speech command was not found: "), "\(problem)")
        #expect(problem.contains("waypoint-no-such-speaker"), "the shell's own words name the program: \(problem)")
        harness.voice.say("Two.")
        #expect(try await harness.wait { harness.voice.startedSentences == 2 })
        try await Task.sleep(for: .milliseconds(300))
        #expect(harness.handsFree.speechProblem == problem)
        #expect(harness.handsFree.said?.text == "Two.", "shown all the same")
        // The program appears: the next sentence speaks, and the problem is gone.
        #expect(close(open(harness.directory + "/ready", O_CREAT | O_WRONLY, 0o600)) == 0)
        harness.voice.say("Three.")
        #expect(try await harness.wait { harness.spoken == "Three.\n" })
        #expect(try await harness.wait { harness.handsFree.speechProblem == nil })
    }

    @Test func aSoundCardThatCannotOpenIsNamedFromTheCommandsOwnWords() async throws {
        // What aplay says on a machine without that device: the last line of its standard error.
        let harness = Harness { _ in "cat > /dev/null; echo 'ALSA lib pcm.c: Unknown PCM nosuch' >&2; echo 'aplay: main:831: audio open error: No such file or directory' >&2; exit 1" }
        harness.voice.say("Hello.")
        #expect(try await harness.wait { harness.handsFree.speechProblem != nil })
        #expect(harness.handsFree.speechProblem == "speech: the speech command failed: aplay: main:831: audio open error: No such file or directory")
    }

    @Test func aSentenceSpeakingPastTheTimeLimitIsCut() async throws {
        let harness = Harness(command: { _ in "sleep 20" }, timeLimitSeconds: 0.5)
        harness.voice.say("Stuck.")
        // From the command's start: the thread itself may start late on a busy machine.
        #expect(try await harness.wait { harness.voice.startedSentences == 1 })
        let started = ContinuousClock.now
        #expect(try await harness.wait(seconds: 19) { harness.handsFree.speechProblem != nil })
        #expect(ContinuousClock.now - started < .seconds(19), "cut, not waited for")
        #expect(harness.handsFree.speechProblem == "speech: a sentence spoke for over 0.5 s and was cut")
    }

    @Test func aSentencePastItsLimitIsShortened() async throws {
        let harness = Harness { "cat >> \($0)/said" }
        // An odd first byte: byte 600 falls inside an "é".
        harness.voice.say("a" + String(repeating: "é", count: 1000))
        #expect(try await harness.wait { !harness.spoken.isEmpty })
        let said = try #require(harness.handsFree.said?.text)
        #expect(said.utf8.count <= Voice.maximumSentenceBytes)
        #expect(said.utf8.count >= Voice.maximumSentenceBytes - 1, "cut at a character's boundary, no more")
        #expect(!said.contains("\u{FFFD}"))
    }

    @Test func withoutACommandSentencesAreOnlyShown() async throws {
        let harness = Harness(command: { _ in "" })
        let silent = Voice(
            command: nil, handsFree: harness.handsFree, stateDirectory: harness.directory,
            logger: Logger(label: "test", level: .critical, handler: StandardErrorLogHandler()))
        #expect(!silent.speaks)
        silent.say("Shown.")
        #expect(harness.handsFree.said?.text == "Shown.")
        #expect(silent.startedSentences == 0)
    }
}
