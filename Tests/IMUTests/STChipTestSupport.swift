@preconcurrency import Glibc
import Heading
import Simulation
import Testing

@testable import IMU

/// One register write as the bus transcript shows it.
struct RegisterWrite: Equatable, CustomStringConvertible {
    let register: UInt8
    let value: UInt8

    init(_ register: UInt8, _ value: UInt8) {
        self.register = register
        self.value = value
    }

    var description: String {
        "0x\(String(register, radix: 16, uppercase: true)) <- 0x\(String(value, radix: 16, uppercase: true))"
    }
}

extension SimulatedI2CBus {
    /// The writes to `address`, in order.
    func writes(to address: UInt8) -> [RegisterWrite] {
        transcript.filter { $0.kind == .write && $0.address == address }.map { RegisterWrite($0.register, $0.bytes[0]) }
    }

    /// The register of every read from `address`, in order (with the 0x80 bit as sent).
    func registersRead(from address: UInt8) -> [UInt8] {
        transcript.filter { $0.kind == .read && $0.address == address }.map(\.register)
    }
}

/// Expects each component of `measured` within `lsb` of `truth` (one count of quantisation).
func expectWithinOneLSB(
    _ measured: Vector3?, _ truth: Vector3, lsb: Vector3, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let measured else {
        Issue.record("no sample for \(truth)", sourceLocation: sourceLocation)
        return
    }
    let error = measured - truth
    #expect(
        abs(error.x) <= lsb.x && abs(error.y) <= lsb.y && abs(error.z) <= lsb.z,
        "measured \(measured), truth \(truth), one LSB \(lsb)", sourceLocation: sourceLocation)
}

/// Expects `body` to fail with an I2CError naming bus 1, `address`, `register` and `errno`.
func expectI2CError<T>(
    address: UInt8, register: UInt8, errno: Int32, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws(I2CError) -> T
) {
    do throws(I2CError) {
        let value = try body()
        Issue.record("expected an I2CError, got \(value)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.bus == 1, sourceLocation: sourceLocation)
        #expect(error.address == address, sourceLocation: sourceLocation)
        #expect(error.register == register, sourceLocation: sourceLocation)
        #expect(error.errno == errno, sourceLocation: sourceLocation)
    }
}

/// Fields, forces and rates as fractions of a full scale: zero, small, mixed signs, and both
/// ends near full scale.
func truths(fullScale: Double) -> [Vector3] {
    [
        Vector3(0, 0, 0),
        Vector3(0.05, -0.1, 0.3) * fullScale,
        Vector3(-0.31, 0.47, -0.62) * fullScale,
        Vector3(0.99, -0.99, 0.98) * fullScale,
        Vector3(-0.99, 0.99, -0.98) * fullScale,
        Vector3(0.123_456, 0.654_321, -0.000_7) * fullScale,
    ]
}

/// The same Int16 in six bytes is six copies of one byte only by accident; a block with
/// distinct bytes tells a repeated register apart from an incrementing read.
func isOneByteRepeated(_ bytes: [UInt8]) -> Bool { bytes.allSatisfy { $0 == bytes[0] } }
