import Testing

@testable import Guidance

@Suite("The haptic rule", .timeLimit(.minutes(5)))
struct HapticRuleTests {
    static let errors = stride(from: -25.0, through: 25.0, by: 0.5).map { $0 }

    @Test("the default rule is DESIGN.md's formula inside ±20° and silent outside")
    func defaultRule() {
        let rule = HapticRule()
        for e in Self.errors {
            let cue = rule.cue(alignmentErrorDegrees: e)
            if abs(e) <= 20 {
                let c = try! #require(cue, "\(e)")
                #expect(abs(c.intensity - (0.1 + 0.9 * (1 - abs(e) / 20))) <= 1e-9, "\(e)")
                #expect(abs(c.sharpness - 0.8 * abs(e) / 20) <= 1e-9, "\(e)")
                #expect(c.isOnTarget == (abs(e) <= 2))
            } else {
                #expect(cue == nil, "\(e)")
            }
        }
    }

    @Test("changed end points, zone and exponent are honoured")
    func customRule() {
        var rule = HapticRule()
        rule.zoneDegrees = 15
        rule.intensityAtCenter = 0.8
        rule.intensityAtEdge = 0.3
        rule.sharpnessAtCenter = 0.2
        rule.sharpnessAtEdge = 1
        rule.curveExponent = 2
        for e in Self.errors {
            let cue = rule.cue(alignmentErrorDegrees: e)
            guard abs(e) <= 15 else {
                #expect(cue == nil, "\(e)")
                continue
            }
            let x = (abs(e) / 15) * (abs(e) / 15)
            let c = try! #require(cue)
            #expect(abs(c.intensity - (0.8 + (0.3 - 0.8) * x)) <= 1e-9, "\(e)")
            #expect(abs(c.sharpness - (0.2 + (1 - 0.2) * x)) <= 1e-9, "\(e)")
        }
        // A zone widened by GPS uncertainty replaces the configured one.
        #expect(rule.cue(alignmentErrorDegrees: 30, zoneDegrees: 40) != nil)
        #expect(rule.cue(alignmentErrorDegrees: 30) == nil)
    }

    @Test("angles wrap, and NaN is silence")
    func wrapping() {
        let rule = HapticRule()
        #expect(rule.cue(alignmentErrorDegrees: 365) == rule.cue(alignmentErrorDegrees: 5))
        #expect(rule.cue(alignmentErrorDegrees: -350) == rule.cue(alignmentErrorDegrees: 10))
        #expect(rule.cue(alignmentErrorDegrees: .nan) == nil)
        #expect(rule.cue(alignmentErrorDegrees: .infinity) == nil)
    }

    @Test("away mode is silent on course and strongest facing away")
    func away() {
        var rule = HapticRule()
        rule.mode = .away
        for e in Self.errors where abs(e) <= 20 {
            #expect(rule.cue(alignmentErrorDegrees: e) == nil, "\(e)")
        }
        let edge = try! #require(rule.cue(alignmentErrorDegrees: 20.5))
        let behind = try! #require(rule.cue(alignmentErrorDegrees: 180))
        #expect(abs(behind.intensity - 1) <= 1e-9 && abs(behind.sharpness) <= 1e-9)
        #expect(edge.intensity < 0.11 && edge.sharpness > 0.79)
        var previous = 0.0
        for e in stride(from: 21.0, through: 180, by: 1) {
            let intensity = rule.cue(alignmentErrorDegrees: e)!.intensity
            #expect(intensity > previous, "\(e)")
            previous = intensity
        }
    }
}
