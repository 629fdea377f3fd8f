import Foundation
import Geodesy
import Heading
import Testing

/// The course assist on synthetic walks: a compass that reads `offset` degrees off the true
/// walking direction, with a gait's yaw sway, and 1 Hz fixes whose track is the true direction.
@Suite("Course assist", .timeLimit(.minutes(5)))
struct CourseAssistTests {
    /// Feeds `seconds` of walking: 50 Hz headings, a fix each second.
    static func walk(
        _ assist: inout CourseAssist, from start: Double = 0, seconds: Double, directionDegrees: Double = 30,
        compassOffsetDegrees: Double, speed: Double = 1.4, trackError: Double? = 5, turnRateDegreesPerSecond: Double = 0
    ) {
        for step in 0..<Int(seconds * 50) {
            let t = start + Double(step) / 50
            let direction = directionDegrees + turnRateDegreesPerSecond * (t - start)
            // The trunk sways ±3° at the step rate, which is not locked to the receiver's second.
            let sway = 3 * sin(2 * .pi * 1.87 * t)
            assist.observeHeading(Angle.normalized(direction + compassOffsetDegrees + sway), at: t)
            if step % 50 == 49 {
                let compass = Angle.normalized(direction + compassOffsetDegrees + sway)
                assist.observeFix(
                    speedMetersPerSecond: speed, trackDegrees: Angle.normalized(direction), trackErrorDegrees: trackError,
                    headingDegrees: compass, at: t)
            }
        }
    }

    @Test("a steady walk learns the compass's offset: 63 % in one time constant, within 0.5° after five")
    func learnsOffset() {
        var assist = CourseAssist()
        Self.walk(&assist, seconds: 63, compassOffsetDegrees: 8)
        // 60 s of training after the 3 s needed to count as steady.
        #expect(abs(assist.biasDegrees - -8 * (1 - exp(-1))) < 0.5, "\(assist.biasDegrees)")
        Self.walk(&assist, from: 63, seconds: 240, compassOffsetDegrees: 8)
        #expect(abs(assist.biasDegrees - -8) < 0.5, "\(assist.biasDegrees)")
    }

    @Test("no learning while standing, turning, with a poor or missing track error, or when disabled")
    func unfairComparisons() {
        for (speed, trackError, turn) in [(0.5, 5.0, 0.0), (1.4, 30.0, 0.0), (1.4, 5.0, 20.0)] as [(Double, Double?, Double)] {
            var assist = CourseAssist()
            Self.walk(&assist, seconds: 60, compassOffsetDegrees: 8, speed: speed, trackError: trackError, turnRateDegreesPerSecond: turn)
            #expect(assist.biasDegrees == 0, "speed \(speed), epd \(String(describing: trackError)), turn \(turn)")
        }
        var noError = CourseAssist()
        Self.walk(&noError, seconds: 60, compassOffsetDegrees: 8, trackError: nil)
        #expect(noError.biasDegrees == 0)
        var disabled = CourseAssist(isEnabled: false)
        Self.walk(&disabled, seconds: 60, compassOffsetDegrees: 8)
        #expect(disabled.biasDegrees == 0)
    }

    @Test("after a turn, a walk trains again only once it has been straight for 3 s")
    func steadyAfterTurn() {
        var assist = CourseAssist()
        Self.walk(&assist, seconds: 10, compassOffsetDegrees: 8, turnRateDegreesPerSecond: 20)
        #expect(assist.biasDegrees == 0)
        // Fixes at 10.98 s, 11.98 s, 12.98 s fall within 3 s of the end of the turn.
        Self.walk(&assist, from: 10, seconds: 3, directionDegrees: 230, compassOffsetDegrees: 8)
        #expect(assist.biasDegrees == 0)
        Self.walk(&assist, from: 13, seconds: 2, directionDegrees: 230, compassOffsetDegrees: 8)
        #expect(assist.biasDegrees < 0)
    }

    @Test("the bias never passes its bound, and a reset forgets it")
    func bounded() {
        var assist = CourseAssist()
        Self.walk(&assist, seconds: 600, compassOffsetDegrees: -45)
        #expect(assist.biasDegrees == assist.settings.maximumBiasDegrees)
        assist.reset()
        #expect(assist.biasDegrees == 0)
    }

    @Test("a missing heading ends the steady stretch")
    func missingHeading() {
        var assist = CourseAssist()
        Self.walk(&assist, seconds: 10, compassOffsetDegrees: 8)
        let learnt = assist.biasDegrees
        #expect(learnt < 0)
        assist.observeHeading(nil, at: 10.01)
        Self.walk(&assist, from: 10.02, seconds: 2, compassOffsetDegrees: 8)
        #expect(assist.biasDegrees == learnt)
    }
}
