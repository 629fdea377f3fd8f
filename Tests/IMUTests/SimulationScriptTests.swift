import Simulation
import Testing

@Suite("Simulation event scripts")
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
}
