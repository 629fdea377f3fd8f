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
}
