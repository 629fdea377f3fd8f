import Core
import Daemon
import Foundation
import Geodesy
import Geomagnetism
import Heading
import Testing

/// The pipeline near a magnetic pole: WMM2025's blackout zone makes any heading unreliable,
/// however steady the sensors.
@Suite("The navigation pipeline near the poles", .timeLimit(.minutes(5)))
struct NavigationPipelineTests {
    /// A level, still device facing magnetic north in a field of `inclination`, microtesla.
    static func sample(fieldMicrotesla: Double, inclinationDegrees: Double) -> IMUSample {
        let dip = inclinationDegrees * .pi / 180
        return IMUSample(
            magneticMicrotesla: Vector3(fieldMicrotesla * cos(dip), 0, fieldMicrotesla * sin(dip)),
            accelerationG: Vector3(0, 0, -1))
    }

    static func run(at coordinate: Coordinate) -> (HeadingEstimate?, CompassZone?, String) {
        var pipeline = NavigationPipeline(calibration: .identity)
        var fix = Fix(mode: .threeDimensional, time: UTCTime(seconds: 1_782_950_400), coordinate: coordinate)
        fix.horizontalErrorMeters = 5
        _ = pipeline.handle(RecordingEvent(seconds: 0, kind: .fix(fix)))
        let field = MagneticModel.wmm2025.field(
            latitudeDegrees: coordinate.latitudeDegrees, longitudeDegrees: coordinate.longitudeDegrees,
            heightAboveEllipsoidKilometers: 0, decimalYear: UTCTime(seconds: 1_782_950_400).decimalYear)
        let sample = Self.sample(fieldMicrotesla: field.totalIntensityNanotesla / 1000, inclinationDegrees: field.inclinationDegrees)
        _ = pipeline.handle(RecordingEvent(seconds: 0, kind: .destination(Coordinate(uncheckedLatitudeDegrees: 0, longitudeDegrees: 0), name: nil)))
        var output: NavigationPipeline.Output?
        for step in 1...500 {
            // A fix a second, as gpsd sends them.
            if step % 50 == 0 { _ = pipeline.handle(RecordingEvent(seconds: Double(step) / 50, kind: .fix(fix))) }
            output = pipeline.handle(RecordingEvent(seconds: Double(step) / 50, kind: .imu(sample))).output
        }
        return (pipeline.lastHeading, pipeline.compassZone, output?.state ?? "?")
    }

    @Test("89°N 121°W (H ≈ 1500 nT): blackout, the heading unreliable, no guidance")
    func blackout() {
        let (heading, zone, state) = Self.run(at: Coordinate(uncheckedLatitudeDegrees: 89, longitudeDegrees: -121))
        #expect(zone == .blackout)
        #expect(heading?.problem == .magneticBlackout)
        #expect(heading?.isReliable == false)
        #expect(state == "no-heading")
    }

    @Test("Paris: the normal zone, and the same still device guides")
    func normal() {
        let (heading, zone, state) = Self.run(at: Coordinate(uncheckedLatitudeDegrees: 48.8584, longitudeDegrees: 2.2945))
        #expect(zone == .normal)
        #expect(heading?.isReliable == true, "\(String(describing: heading?.problem))")
        #expect(state == "guiding")
    }
}
