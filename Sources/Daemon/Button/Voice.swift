@preconcurrency import Glibc
import Geodesy
import Synchronization
import SystemSupport

/// The daemon's voice: each sentence is given to the `speech` command (`/bin/sh -c`, the
/// sentence on its standard input), run as a child in a process group of its own on the
/// `speech` thread. A new sentence cuts the one being said (its whole pipeline is killed); a
/// sentence still speaking after its time limit (30 s) is cut too. A command that fails (no
/// program, no audio device) is named in `STATUS` and logged once, until it works again.
/// Every sentence is also kept in ``HandsFree`` (`said`), so the companion shows and says it
/// even without a voice.
public final class Voice: Sendable {
    /// The longest a sentence may speak by default, seconds.
    public static let defaultTimeLimitSeconds = 30.0
    /// The longest sentence, bytes: what the button's answers need, several times over.
    public static let maximumSentenceBytes = 600
    /// What a problem keeps of the command's standard error, bytes.
    static let maximumProblemBytes = 200

    private let command: String?
    /// The longest a sentence may speak, seconds.
    let timeLimitSeconds: Double
    private let handsFree: HandsFree
    private let errorPath: String
    private let logger: Logger
    private let alarm = ThreadAlarm(clock: ContinuousClock())
    private struct Mailbox {
        var waiting: String?
        var last: String?
        var sentences = 0
    }
    private let mailbox = Mutex(Mailbox())

    /// A voice speaking through `command` (nil: none; sentences are only kept for `STATUS`).
    /// - Parameter stateDirectory: Where the command's standard error is kept while it runs.
    /// - Parameter timeLimitSeconds: The longest a sentence may speak (tests shorten it).
    public init(
        command: String?, handsFree: HandsFree, stateDirectory: String, logger: Logger,
        timeLimitSeconds: Double = defaultTimeLimitSeconds
    ) {
        self.command = command
        self.timeLimitSeconds = timeLimitSeconds
        self.handsFree = handsFree
        errorPath = stateDirectory + "/.speech-errors"
        self.logger = logger
    }

    /// Whether sentences are spoken, not only shown.
    public var speaks: Bool { command != nil }

    /// Says `sentence` (cut to ``maximumSentenceBytes``), cutting the one being said.
    public func say(_ sentence: String) {
        var text = sentence
        // Cut whole characters off the end: a cut inside one would be spoken as a stray sound.
        while text.utf8.count > Self.maximumSentenceBytes { text.removeLast() }
        handsFree.said(text)
        mailbox.withLock {
            $0.last = text
            $0.waiting = command == nil ? nil : text
        }
        alarm.wake()
    }

    /// Says the last sentence again; false when nothing was said yet.
    public func repeatLast() -> Bool {
        guard let last = mailbox.withLock({ $0.last }) else { return false }
        say(last)
        return true
    }

    /// How many sentences the command was started for (the bench's and tests' count).
    public var startedSentences: Int { mailbox.withLock { $0.sentences } }

    /// Runs the `speech` thread until the task is cancelled; a sentence speaking then is cut.
    public func run() async throws {
        guard let command else { return }
        try await BlockingThread.run(name: "speech", onCancel: { self.alarm.stop() }) {
            while !self.alarm.isStopped {
                guard let sentence = self.mailbox.withLock({ box -> String? in
                    defer { box.waiting = nil }
                    return box.waiting
                }) else {
                    _ = self.alarm.wait(until: nil)
                    continue
                }
                self.speak(sentence, through: command)
            }
        }
    }

    /// One sentence through the command, until it ends, a newer sentence comes, the time limit
    /// passes or the daemon stops.
    private func speak(_ sentence: String, through command: String) {
        mailbox.withLock { $0.sentences += 1 }
        let child: SpawnedProcess
        do {
            child = try SpawnedProcess(
                "/bin/sh", ["-c", command], standardErrorPath: errorPath, standardInput: Array((sentence + "\n").utf8),
                ownProcessGroup: true)
        } catch {
            report("cannot start /bin/sh: \(error.errno)")
            return
        }
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64(timeLimitSeconds * 1000)))
        enum Cut { case newerSentence, timeLimit }
        var cut: Cut?
        // The command's output is read and dropped, so a chatty one never fills its pipe.
        _ = child.forEachLine(
            maximumLineBytes: 1024,
            stopWhen: {
                if self.alarm.isStopped || self.mailbox.withLock({ $0.waiting != nil }) {
                    cut = .newerSentence
                } else if ContinuousClock.now >= deadline {
                    cut = .timeLimit
                }
                return cut != nil
            }
        ) { _ in true }
        if cut != nil { child.kill() }
        let status = child.wait()
        defer { unlink(errorPath) }
        if cut == .timeLimit {
            report("a sentence spoke for over \(DecimalFormat.short(timeLimitSeconds, maximumFractionDigits: 1)) s and was cut")
        } else if cut == nil, status != 0 {
            report(problem(status: status))
        } else if cut == nil {
            report(nil)
        }
    }

    /// The failure's words: the last line of the command's standard error, else its status.
    private func problem(status: Int32) -> String {
        // A file past 64 KiB is not read: the status says enough then.
        let text = (try? LinuxFileReading().contents(ofRegularFile: errorPath, maximumBytes: 1 << 16, followingLinks: false))
            .map { String(decoding: $0, as: UTF8.self) }
        let last = text?.split(whereSeparator: \.isNewline).last.map { String(decoding: Array($0.utf8.prefix(Self.maximumProblemBytes)), as: UTF8.self) }
        let words = last ?? "exit status \(status)"
        return status == 127 ? "the speech command was not found: \(words)" : "the speech command failed: \(words)"
    }

    /// Names a problem (or its end) in `STATUS` and the log, once each.
    private func report(_ problem: String?) {
        guard handsFree.setSpeechProblem(problem.map { "speech: " + $0 }) else { return }
        if let problem {
            logger.error("the voice does not work; sentences are shown, not spoken", ["error": problem, "fix": "check the speech setting and the audio device"])
        } else {
            logger.notice("the voice works")
        }
    }
}
