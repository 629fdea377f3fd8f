import Foundation
import Simulation
import Testing
import TestSupport

@testable import Heading

@Suite("Magnetometer calibration", .timeLimit(.minutes(5)))
struct CalibrationFitTests {
    /// A random symmetric soft-iron distortion with entries up to `size`.
    static func softIron(_ size: Double, _ generator: inout SeededGenerator) -> Matrix3 {
        func r() -> Double { Double.random(in: -size...size, using: &generator) }
        let (a, b, c) = (r(), r(), r())
        return Matrix3(Vector3(1 + r(), a, b), Vector3(a, 1 + r(), c), Vector3(b, c, 1 + r()))
    }

    /// A 30 s figure-eight at 20 Hz: the device turned through every orientation.
    static func figureEight(_ generator: inout SeededGenerator) -> [Attitude] {
        (0..<600).map { i in
            let t = Double(i) / 20
            return Attitude(
                yawDegrees: t * 47 + Double.random(in: -5...5, using: &generator),
                pitchDegrees: 80 * sin(t * 0.9),
                rollDegrees: 170 * sin(t * 0.37 + 1))
        }
    }

    @Test("a figure-eight recovers hard iron within 1 µT and soft iron within 2 %")
    func recovery() throws {
        var generator = SeededGenerator(seed: 42)
        var noise = SplitMix64(seed: 43)
        for trial in 0..<20 {
            let field = earthField(microtesla: Double.random(in: 25...65, using: &generator), inclinationDegrees: 60)
            let offset = Vector3(
                Double.random(in: -60...60, using: &generator), Double.random(in: -60...60, using: &generator),
                Double.random(in: -60...60, using: &generator))
            let distortion = Self.softIron(0.2 / 3, &generator)
            var fit = CalibrationFit()
            for attitude in Self.figureEight(&generator) {
                fit.add(distortion * attitude.toBody(field) + offset + Vector3(noise.gaussian(), noise.gaussian(), noise.gaussian()) * 0.3)
            }
            let (calibration, quality) = try fit.fit(referenceFieldMicrotesla: field.length)
            let expectedMatrix = try #require(distortion.inverse)
            #expect((calibration.offsetMicrotesla - offset).length <= 1, "trial \(trial): \(calibration.offsetMicrotesla) vs \(offset)")
            let relative = (calibration.matrix - expectedMatrix).frobeniusNorm / expectedMatrix.frobeniusNorm
            #expect(relative <= 0.02, "trial \(trial): soft iron off by \(relative * 100) %")
            #expect(quality.fitErrorPercent < 2)
            #expect(quality.coveragePercent > 90)
            #expect(quality.sampleCount == 600)
        }
    }

    @Test("too little coverage is refused, naming the missing directions")
    func coverage() {
        var fit = CalibrationFit()
        let field = earthField(microtesla: 50, inclinationDegrees: 60)
        // Only turned about the vertical, level: the field never points up through the device.
        for i in 0..<400 { fit.add(Attitude(yawDegrees: Double(i)).toBody(field)) }
        #expect(throws: CalibrationFit.Refusal.self) { try fit.fit(referenceFieldMicrotesla: 50) }
        do {
            _ = try fit.fit(referenceFieldMicrotesla: 50)
        } catch {
            guard case .missingDirections(let names) = error else {
                Issue.record("expected missing directions, got \(error)")
                return
            }
            #expect(names.allSatisfy { $0.hasSuffix("-up") }, "\(names)")
            #expect("\(error)".contains("turn the device through a figure-eight"))
        }
        // With the field's inclination known, the refusal says how to hold the device, in the
        // words of the running calibration's list, not body-frame octants (issue 38: a phone
        // showed "back-right-up" beside "turn it face-down, nose-up and to the right").
        do {
            _ = try fit.fit(referenceFieldMicrotesla: 50, inclinationDegrees: 60)
            Issue.record("a fit without coverage was accepted")
        } catch {
            let words = "\(error)"
            #expect(words.contains("face-down") && !words.contains("-up,") && !words.contains("back-"), "\(words)")
            #expect(words.contains("still to do: turn it face-down, nose-"), "\(words)")
        }
        var few = CalibrationFit()
        for i in 0..<20 { few.add(Vector3(Double(i), 0, 0)) }
        #expect(throws: CalibrationFit.Refusal.tooFewSamples(have: 20, need: 150)) { try few.fit(referenceFieldMicrotesla: 50) }
    }

    @Test("the directions still missing in words a person can follow, from the field's inclination (issue 30, item 14)")
    func missingInWords() {
        // Paris, inclination 64° down: the field points mostly down, so which way the field
        // lies in the device is which way the device is tilted.
        let forwardLeftDown = 1 | 4  // x+, y−, z+
        #expect(CalibrationFit.posture(ofOctant: forwardLeftDown, inclinationDegrees: 64) == "tilt it nose-down and to the left")
        let backRightUp = 2  // x−, y+, z−
        #expect(CalibrationFit.posture(ofOctant: backRightUp, inclinationDegrees: 64) == "turn it face-down, nose-up and to the right")
        // South of the magnetic equator the field points up: the same octant is the other tilt.
        #expect(CalibrationFit.posture(ofOctant: forwardLeftDown, inclinationDegrees: -60) == "turn it face-down, nose-up and to the right")
        // Near the magnetic equator it lies level, pointing north: which way the device faces.
        #expect(CalibrationFit.posture(ofOctant: forwardLeftDown, inclinationDegrees: 10) == "hold it nose to the north, left side to the north, face to the south")
        let all = (0..<8).map { CalibrationFit.posture(ofOctant: $0, inclinationDegrees: 64) }
        #expect(Set(all).count == 8, "\(all)")
    }

    @Test("past the samples kept, the count of samples added goes on (the daemon counts its progress checks by it)")
    func addedPastBound() {
        var fit = CalibrationFit()
        for i in 0..<(CalibrationFit.maximumSamples + 60) { fit.add(Vector3(Double(i % 7), 1, 2)) }
        #expect(fit.count == CalibrationFit.maximumSamples)
        #expect(fit.added == CalibrationFit.maximumSamples + 60)
        fit.add(Vector3(.nan, 0, 0))
        #expect(fit.added == CalibrationFit.maximumSamples + 60, "a sample not kept is not counted")
        fit.reset()
        #expect(fit.added == 0 && fit.count == 0)
    }

    @Test("a field that changes during the turn is refused as a poor fit")
    func poorFit() {
        var generator = SeededGenerator(seed: 5)
        var fit = CalibrationFit()
        for (index, attitude) in Self.figureEight(&generator).enumerated() {
            // A magnet comes and goes: the sphere's radius jumps between 40 and 60 µT.
            let strength = index % 40 < 20 ? 40.0 : 60.0
            fit.add(attitude.toBody(earthField(microtesla: strength, inclinationDegrees: 60)))
        }
        #expect {
            _ = try fit.fit(referenceFieldMicrotesla: 50)
        } throws: { error in
            if case .poorFit = error as? CalibrationFit.Refusal { return true }
            return false
        }
    }
}
