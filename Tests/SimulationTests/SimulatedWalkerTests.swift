import Geodesy
import Simulation
import Testing

@Suite("The simulated walker", .timeLimit(.minutes(5)))
struct SimulatedWalkerTests {
    @Test("scans until facing the destination, walks there, and stops")
    func walksToDestination() {
        let start = Coordinate(uncheckedLatitudeDegrees: 48.8584, longitudeDegrees: 2.2945)
        var walker = SimulatedWalker(position: start, yawDegrees: 200, seed: 1)
        // 200 m to the north-east.
        walker.destination = Coordinate(uncheckedLatitudeDegrees: 48.8597, longitudeDegrees: 2.2964)
        let initial = walker.course!.distanceMeters
        #expect(initial > 150 && initial < 250)
        var sawScanning = false
        var maxYawRate = 0.0
        for _ in 0..<(60 * 5 * 50) {
            walker.step(seconds: 0.02)
            if walker.activity == .scanning { sawScanning = true }
            maxYawRate = max(maxYawRate, abs(walker.yawRateDegreesPerSecond))
            if walker.activity == .arrived { break }
        }
        #expect(sawScanning)
        #expect(walker.activity == .arrived)
        #expect(walker.course!.distanceMeters <= 5)
        // At 1.4 m/s, 200 m takes about 2.5 minutes plus the scan.
        #expect(walker.elapsedSeconds > initial / 1.4 && walker.elapsedSeconds < initial / 1.4 + 60)
        #expect(maxYawRate <= 31)
    }

    @Test("after arriving, a new destination sets the walker turning and walking again (issue 37: it stood still for good)")
    func walksOnAfterArriving() {
        let start = Coordinate(uncheckedLatitudeDegrees: 48.8584, longitudeDegrees: 2.2945)
        var walker = SimulatedWalker(position: start, yawDegrees: 0, seed: 2)
        // 30 m north, then 30 m back south, behind the walker once it arrives facing north.
        walker.destination = Coordinate(uncheckedLatitudeDegrees: 48.85867, longitudeDegrees: 2.2945)
        for _ in 0..<(60 * 50) where walker.activity != .arrived { walker.step(seconds: 0.02) }
        #expect(walker.activity == .arrived)
        let arrivedYaw = walker.yawDegrees
        walker.destination = start
        var turned = 0.0
        for _ in 0..<(120 * 50) where walker.activity != .arrived || turned == 0 {
            walker.step(seconds: 0.02)
            turned += abs(walker.yawRateDegreesPerSecond) * 0.02
        }
        #expect(turned > 90, "it turned \(turned)° from \(arrivedYaw)° to head back")
        #expect(walker.activity == .arrived)
        #expect(walker.course!.distanceMeters <= 5)
    }
}
