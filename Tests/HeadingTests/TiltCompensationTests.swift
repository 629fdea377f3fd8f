import Simulation
import Testing
import TestSupport

@testable import Heading

@Suite("Tilt compensation", .timeLimit(.minutes(5)))
struct TiltCompensationTests {
    @Test("exact heading at any attitude within ±80° of level, at inclinations 0° to 85°")
    func exact() {
        var generator = SeededGenerator(seed: 1)
        for inclination in stride(from: 0.0, through: 85, by: 5) {
            let field = earthField(microtesla: 50, inclinationDegrees: inclination)
            for _ in 0..<300 {
                let attitude = Attitude(
                    yawDegrees: Double.random(in: 0..<360, using: &generator),
                    pitchDegrees: Double.random(in: -80...80, using: &generator),
                    rollDegrees: Double.random(in: -80...80, using: &generator))
                let heading = TiltCompensation.magneticHeadingDegrees(
                    field: attitude.toBody(field), down: -attitude.specificForce())
                #expect(heading != nil)
                #expect(abs(headingError(heading ?? .nan, attitude.yawDegrees)) < 1e-9, "\(attitude) at \(inclination)°")
                let dip = TiltCompensation.inclinationDegrees(field: attitude.toBody(field), down: -attitude.specificForce())
                #expect(abs((dip ?? .nan) - inclination) < 1e-9)
            }
        }
    }

    @Test("undefined, not wrong, when pointing straight up or with the field along gravity")
    func degenerate() {
        let field = earthField(microtesla: 50, inclinationDegrees: 60)
        let upright = Attitude(yawDegrees: 30, pitchDegrees: 90)
        #expect(TiltCompensation.magneticHeadingDegrees(field: upright.toBody(field), down: -upright.specificForce()) == nil)
        #expect(TiltCompensation.magneticHeadingDegrees(field: Vector3(0, 0, 50), down: Vector3(0, 0, 1)) == nil)
        #expect(TiltCompensation.magneticHeadingDegrees(field: Vector3(.nan, 0, 0), down: Vector3(0, 0, 1)) == nil)
    }
}
