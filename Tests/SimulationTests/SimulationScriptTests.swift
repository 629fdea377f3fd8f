import Geodesy
import Simulation
import Testing

@Suite("Simulation event scripts", .timeLimit(.minutes(5)))
struct SimulationScriptTests {
    @Test("a script with CRLF line endings reads as its lines, and errors name the right line")
    func crlf() throws {
        let script = try SimulationScript(parsing: "6 imu-off\r\n11 imu-on\r\n24 magnet 15\r\n")
        #expect(script.entries.map(\.event) == [.imu(on: false), .imu(on: true), .magnet(microtesla: 15)])
        #expect(script.entries.map(\.seconds) == [6, 11, 24])
        #expect(throws: SimulationScriptError.self) { try SimulationScript(parsing: "6 imu-off\r\nsoon gps-off\r\n") }
        do {
            _ = try SimulationScript(parsing: "6 imu-off\r\nsoon gps-off\r\n")
        } catch {
            #expect(error.line == 2)
        }
    }

    @Test("stall takes seconds in (0, 600]; events at time 0 are the ones due through 0")
    func stallAndStart() throws {
        let script = try SimulationScript(parsing: "0 imu-off\n4 stall 2.5\n15 imu-on\n")
        #expect(script.entries.map(\.event) == [.imu(on: false), .stall(seconds: 2.5), .imu(on: true)])
        #expect(script.events(after: -1, through: 0) == [.imu(on: false)])
        #expect(script.events(after: 0, through: 4) == [.stall(seconds: 2.5)])
        for bad in ["4 stall", "4 stall 0", "4 stall -1", "4 stall 601", "4 stall nan", "4 stall 1 2"] {
            #expect(throws: SimulationScriptError.self, "\(bad)") { try SimulationScript(parsing: bad) }
        }
    }

    @Test("turn takes a signed angle and a rate; the walker then turns by exactly that at that rate, and only as told")
    func turn() throws {
        let script = try SimulationScript(parsing: "0 turn 0 1\n2 turn -90 45\n")
        #expect(script.entries.map(\.event) == [.turn(degrees: 0, degreesPerSecond: 1), .turn(degrees: -90, degreesPerSecond: 45)])
        for bad in ["2 turn", "2 turn 90", "2 turn 90 0", "2 turn 90 -5", "2 turn 3601 10", "2 turn 90 1001", "2 turn nan 10"] {
            #expect(throws: SimulationScriptError.self, "\(bad)") { try SimulationScript(parsing: bad) }
        }

        var walker = SimulatedWalker(position: Coordinate(uncheckedLatitudeDegrees: 48.85, longitudeDegrees: 2.29), yawDegrees: 10, seed: 1)
        // A destination far off to the east: told to turn, the walker neither scans nor walks.
        walker.destination = Coordinate(uncheckedLatitudeDegrees: 48.85, longitudeDegrees: 3)
        walker.turn(byDegrees: -90, degreesPerSecond: 45)
        var yaws: [Double] = []
        for _ in 0..<150 {
            walker.step(seconds: 0.02)
            yaws.append(walker.yawDegrees)
        }
        #expect(abs(Angle.signedDifference(from: yaws[49], to: 10 - 45)) < 1e-9, "after 1 s: \(yaws[49])")
        #expect(abs(walker.yawRateDegreesPerSecond) < 1e-9)
        #expect(abs(Angle.signedDifference(from: walker.yawDegrees, to: 280)) < 1e-9)
        #expect(walker.position == Coordinate(uncheckedLatitudeDegrees: 48.85, longitudeDegrees: 2.29))
        #expect(walker.activity == .turningAsTold)
    }
}
