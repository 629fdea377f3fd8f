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
        #expect(error.errno.rawValue == errno, sourceLocation: sourceLocation)
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
func isOneByteRepeated(_ bytes: RegisterBlock) -> Bool { bytes.allSatisfy { $0 == bytes[0] } }

/// How an ST output block answers a burst read.
enum BurstBehaviour: Sendable {
    /// Auto-increment only with the 0x80 sub-address bit: without it a burst repeats the first
    /// output register.
    case multiReadBit
    /// Auto-increment by itself, with the sub-address used as sent (LSM303DLHC magnetometer).
    case native
    /// Auto-increment by itself, the 0x80 bit ignored (LSM303AGR magnetometer).
    case nativeIgnoringMultiReadBit
    /// Auto-increment while IF_INC (bit 2) is set in `control`, which the driver writes as 0x44
    /// (BDU, IF_INC); there is no 0x80 bit (LSM6DS family, LSM9DS1 accelerometer/gyroscope).
    case addressIncrement(control: UInt8)
}

/// Checks how bursts at `output` read on `emulator`, whose output block holds a sample with
/// six distinct bytes. The reads clear the data-ready bits, so set a new sample afterwards.
/// - Parameter output: the first output register, without the 0x80 bit.
func expectBurst(
    _ behaviour: BurstBehaviour, on emulator: any RegisterEmulator, at output: UInt8,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let multiRead = output | 0x80
    switch behaviour {
    case .multiReadBit:
        #expect(isOneByteRepeated(emulator.read(register: output, count: 6)), sourceLocation: sourceLocation)
        #expect(!isOneByteRepeated(emulator.read(register: multiRead, count: 6)), sourceLocation: sourceLocation)
    case .native:
        #expect(!isOneByteRepeated(emulator.read(register: output, count: 6)), sourceLocation: sourceLocation)
    case .nativeIgnoringMultiReadBit:
        let plain = emulator.read(register: output, count: 6)
        #expect(!isOneByteRepeated(plain), sourceLocation: sourceLocation)
        #expect(emulator.read(register: multiRead, count: 6) == plain, sourceLocation: sourceLocation)
    case .addressIncrement(let control):
        emulator.write(register: control, value: 0x40)  // BDU only, IF_INC cleared
        #expect(isOneByteRepeated(emulator.read(register: output, count: 6)), sourceLocation: sourceLocation)
        emulator.write(register: control, value: 0x44)
        #expect(!isOneByteRepeated(emulator.read(register: output, count: 6)), sourceLocation: sourceLocation)
        #expect(
            emulator.read(register: multiRead, count: 6).allSatisfy { $0 == 0 }, "there is no 0x80 multi-read bit",
            sourceLocation: sourceLocation)
    }
}
