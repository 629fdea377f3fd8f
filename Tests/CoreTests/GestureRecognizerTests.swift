import ControlProtocol
import Core
import Testing

/// The recogniser on a manual clock: every time is given, so each boundary is met exactly.
@Suite("Recognising gestures on a manual clock", .timeLimit(.minutes(5)))
struct GestureRecognizerTests {
    /// Presses (down, up) at the times given, then ticks until nothing is waited for: every
    /// gesture recognised, with the time it was recognised at. A deadline that, when reached,
    /// is still ahead (the recogniser asking to be woken again and again) fails the test.
    static func run(_ edges: [(down: Bool, at: Double)], settings: GestureRecognizer.Settings = .init())
        -> [(gesture: ButtonGesture, at: Double)]
    {
        var recognizer = GestureRecognizer(settings: settings)
        var done: [(ButtonGesture, Double)] = []
        // Each edge leaves two deadlines at most: its bounce window and a gap.
        var wakesLeft = 3 * edges.count + 3
        func wake(until limit: Double) {
            while let deadline = recognizer.nextDeadline, deadline <= limit {
                guard wakesLeft > 0 else {
                    Issue.record("the recogniser asks again and again to be woken at \(deadline) s")
                    return
                }
                wakesLeft -= 1
                done += recognizer.tick(atSeconds: deadline).map { ($0, deadline) }
            }
        }
        for edge in edges {
            // A reader wakes at each deadline before the next edge arrives.
            wake(until: edge.at)
            done += recognizer.edge(isDown: edge.down, atSeconds: edge.at).map { ($0, edge.at) }
        }
        wake(until: .infinity)
        return done
    }

    static func press(at start: Double, holding seconds: Double) -> [(down: Bool, at: Double)] {
        [(true, start), (false, start + seconds)]
    }

    @Test func aShortPressIsASingleOnceTheGapHasPassed() {
        let done = Self.run(Self.press(at: 10, holding: 0.1))
        #expect(done.map(\.gesture) == [.single])
        #expect(abs(done[0].at - 10.5) < 1e-9, "recognised at the release plus the 0.4 s gap")
    }

    @Test(arguments: [(0.79, ButtonGesture.single), (0.81, .long), (2.99, .long), (3.01, .veryLong)])
    func theLengthOfAPressAtItsBoundaries(held: Double, expected: ButtonGesture) {
        let done = Self.run(Self.press(at: 1, holding: held))
        #expect(done.map(\.gesture) == [expected])
        if expected != .single {
            #expect(done[0].at == 1 + held, "a long press is recognised at its release")
        }
    }

    @Test(arguments: [(0.39, [ButtonGesture.double]), (0.41, [.single, .single])])
    func theGapBetweenTwoTapsAtItsBoundary(gap: Double, expected: [ButtonGesture]) {
        let first = Self.press(at: 0, holding: 0.1)
        let second = Self.press(at: 0.1 + gap, holding: 0.1)
        #expect(Self.run(first + second).map(\.gesture) == expected)
    }

    @Test func threeTapsAreATripleAtTheThirdRelease() {
        let taps = [0.0, 0.3, 0.6].flatMap { Self.press(at: $0, holding: 0.1) }
        let done = Self.run(taps)
        #expect(done.map(\.gesture) == [.triple])
        #expect(abs(done[0].at - 0.7) < 1e-9, "no wait for a fourth tap")
    }

    @Test func fourTapsAreATripleThenASingle() {
        let taps = [0.0, 0.3, 0.6, 0.9].flatMap { Self.press(at: $0, holding: 0.1) }
        #expect(Self.run(taps).map(\.gesture) == [.triple, .single])
    }

    @Test func threeEdgesWithinFiveMillisecondsAreOnePress() {
        // The contact bounces as it closes and as it opens.
        let edges: [(down: Bool, at: Double)] = [
            (true, 0), (false, 0.002), (true, 0.004),
            (false, 0.2), (true, 0.202), (false, 0.204),
        ]
        #expect(Self.run(edges).map(\.gesture) == [.single])
    }

    @Test func aBounceThatEndsOpenIsTakenAsTheReleaseItWas() {
        // Down, then the contact opens again within the window and stays open: a 30 ms tap.
        let edges: [(down: Bool, at: Double)] = [(true, 0), (false, 0.004)]
        let done = Self.run(edges)
        #expect(done.map(\.gesture) == [.single])
    }

    @Test func aPressHeldAcrossAStallIsJudgedByItsOwnTimes() {
        var recognizer = GestureRecognizer()
        #expect(recognizer.edge(isDown: true, atSeconds: 100).isEmpty)
        // The reader stalled for 5 s while the button was held: a tick then says nothing,
        // because the button is still down.
        #expect(recognizer.tick(atSeconds: 105).isEmpty)
        // The release read after the stall carries the kernel's time: held 1 s, a long press.
        #expect(recognizer.edge(isDown: false, atSeconds: 101) == [.long])
    }

    @Test func tapsWhoseGapPassedDuringAStallEndBeforeTheNextPress() {
        var recognizer = GestureRecognizer()
        _ = recognizer.edge(isDown: true, atSeconds: 0)
        _ = recognizer.edge(isDown: false, atSeconds: 0.1)
        // No tick for 2 s; the next press comes: the first tap was a single.
        #expect(recognizer.edge(isDown: true, atSeconds: 2) == [.single])
        #expect(recognizer.edge(isDown: false, atSeconds: 2.1).isEmpty)
        #expect(recognizer.tick(atSeconds: 2.6) == [.single])
    }

    @Test func aTapThenALongPressIsTheLongPress() {
        let edges = Self.press(at: 0, holding: 0.1) + Self.press(at: 0.3, holding: 1.0)
        #expect(Self.run(edges).map(\.gesture) == [.long])
    }

    @Test func aResetForgetsAPressUnderWay() {
        var recognizer = GestureRecognizer()
        _ = recognizer.edge(isDown: true, atSeconds: 0)
        recognizer.reset()
        #expect(recognizer.edge(isDown: false, atSeconds: 1).isEmpty)
        #expect(recognizer.nextDeadline == nil)
    }

    @Test func anEdgeStampedBeforeTheLastCountsAsAtTheLast() {
        // A very long press whose press is stamped before the last release (two clocks, or a
        // script's presses overlapping): held from that release, not a negative or a shorter time.
        var recognizer = GestureRecognizer()
        let first = recognizer.edge(isDown: true, atSeconds: 10) + recognizer.edge(isDown: false, atSeconds: 11)
        #expect(first == [.long])
        #expect(recognizer.edge(isDown: true, atSeconds: 10.5).isEmpty)
        #expect(recognizer.edge(isDown: false, atSeconds: 14.1) == [.veryLong], "held from 11 s to 14.1 s")
        var early = GestureRecognizer()
        _ = early.edge(isDown: true, atSeconds: 20)
        #expect(early.edge(isDown: false, atSeconds: 19).isEmpty, "a release stamped before its press is a tap (taken when the bounce window ends)")
        #expect(early.tick(atSeconds: 20.5) == [.single])
    }

    @Test func theTimingIsTheSettings() {
        var settings = GestureRecognizer.Settings()
        settings.longSeconds = 0.5
        settings.gapSeconds = 0.2
        #expect(Self.run(Self.press(at: 0, holding: 0.6), settings: settings).map(\.gesture) == [.long])
        let twoTaps = Self.press(at: 0, holding: 0.1) + Self.press(at: 0.35, holding: 0.1)
        #expect(Self.run(twoTaps, settings: settings).map(\.gesture) == [.single, .single])
    }
}
