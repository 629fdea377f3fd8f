import Testing

@testable import Heading

/// The sampling thread dates a burst's samples back from the read, and an event never goes back
/// before the latest one: samples older than a fix that came between bursts take the fix's time,
/// so several can arrive with no time between them. They must not restart the filters.
@Suite("Samples with no time between them", .timeLimit(.minutes(5)))
struct ZeroTimeStepTests {
    @Test("gravity holds its estimate instead of taking the raw, walking-tilted accelerometer")
    func gravityHolds() {
        var gravity = GravityEstimator()
        for _ in 0..<100 {
            gravity.update(accelerationG: Vector3(0, 0, -1), seconds: 0.02)
        }
        let settled = try! #require(gravity.down)
        // A heel strike: 0.3 g forward on top of gravity.
        gravity.update(accelerationG: Vector3(0.3, 0, -1), seconds: 0)
        #expect(gravity.down == settled)
    }

    @Test("the heading holds instead of starting again from the unfiltered measurement")
    func headingHolds() {
        var estimator = HeadingEstimator(calibration: .identity)
        let north = IMUSample(
            magneticMicrotesla: Vector3(20, 0, 43), accelerationG: Vector3(0, 0, -1),
            angularRateDegreesPerSecond: .zero)
        var settled = 0.0
        for index in 0..<100 {
            settled = estimator.update(north, seconds: index == 0 ? 0 : 0.02, model: nil).magneticDegrees ?? .nan
        }
        // A field 30° off, with no time for it to matter.
        let turned = IMUSample(
            magneticMicrotesla: Vector3(17.3, -10, 43), accelerationG: Vector3(0.3, 0, -1),
            angularRateDegreesPerSecond: .zero)
        let held = estimator.update(turned, seconds: 0, model: nil).magneticDegrees
        #expect(held == settled, "heading \(String(describing: held)) after \(settled)")
    }
}
