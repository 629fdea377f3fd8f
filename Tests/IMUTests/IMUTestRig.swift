import Heading
import IMU
import Simulation
import Testing

/// A simulated bus carrying emulators for a magnetometer and an accelerometer, as a board or a
/// test scenario places them.
final class IMUTestRig {
    let bus = SimulatedI2CBus(number: 1)
    private(set) var magnetometer: (any MagnetometerEmulator)?
    private(set) var accelerometer: (any AccelerometerEmulator)?
    private var emulators: [UInt8: any RegisterEmulator] = [:]

    /// An empty bus.
    init() {}

    /// A bus with the chips of `preset` (and, when `withCompanions`, devices at its companion
    /// addresses).
    convenience init(_ preset: BoardPreset, withCompanions: Bool = true) {
        self.init(magnetometer: preset.magnetometer, accelerometer: preset.accelerometer)
        if withCompanions { preset.companionAddresses.forEach { add(PresentChip(address: $0)) } }
    }

    /// A bus with the two chips of a selection.
    convenience init(magnetometer: IMUChipPlacement, accelerometer: IMUChipPlacement) {
        self.init()
        // The accelerometer first: an ICM-20948 brings its AK09916 along.
        add(accelerometer.chip, at: accelerometer.address)
        add(magnetometer.chip, at: magnetometer.address)
    }

    /// Puts an emulator of `chip` at `address` (reusing one already there for the LSM303D, and
    /// the ICM-20948's own AK09916).
    @discardableResult
    func add(_ chip: IMUChip, at address: UInt8) -> any RegisterEmulator {
        if let existing = emulators[address] {
            if chip.isMagnetometer, let emulator = existing as? any MagnetometerEmulator { magnetometer = emulator }
            if chip.isAccelerometer, let emulator = existing as? any AccelerometerEmulator { accelerometer = emulator }
            return existing
        }
        if chip == .ak09916, let host = accelerometer as? ICM20948Emulator {
            magnetometer = host.magnetometer
            return host.magnetometer
        }
        let emulator = SimulatedBoard.attachEmulator(of: chip, at: address, to: bus)
        emulators[address] = emulator
        if chip.isMagnetometer { magnetometer = emulator as? any MagnetometerEmulator }
        if chip.isAccelerometer { accelerometer = emulator as? any AccelerometerEmulator }
        return emulator
    }

    /// Puts any emulator on the bus.
    func add(_ emulator: any RegisterEmulator) {
        emulators[emulator.address] = emulator
        bus.attach(emulator)
    }

    /// Gives the emulators a body-frame truth through the inverse of the selection's chip maps.
    func present(
        field: Vector3, acceleration: Vector3, angularRate: Vector3 = .zero, through selection: IMUSelection
    ) {
        magnetometer?.setField(selection.magnetometer.axisMap.inverse.apply(field))
        accelerometer?.setAcceleration(selection.accelerometer.axisMap.inverse.apply(acceleration))
        accelerometer?.setAngularRate(selection.accelerometer.axisMap.inverse.apply(angularRate))
    }
}

/// A device that acknowledges and reads zeros: a board's other chip (pressure sensor, LED
/// microcontroller).
final class PresentChip: RegisterEmulator {
    let address: UInt8
    init(address: UInt8) { self.address = address }
    func read(register: UInt8, count: Int) -> RegisterBlock { RegisterBlock(repeating: 0, count: count) }
    func write(register: UInt8, value: UInt8) {}
}

/// A device with fixed register contents (zeros elsewhere) that records writes: an MPU-9250, a
/// real-time clock, an unknown part.
final class FixedRegisterChip: RegisterEmulator {
    let address: UInt8
    private let values: [UInt8: UInt8]
    private(set) var writes: [(UInt8, UInt8)] = []

    init(address: UInt8, values: [UInt8: UInt8]) {
        self.address = address
        self.values = values
    }

    func read(register: UInt8, count: Int) -> RegisterBlock {
        RegisterBlock((0..<count).map { values[UInt8(truncatingIfNeeded: Int(register) + $0)] ?? 0 })
    }

    func write(register: UInt8, value: UInt8) { writes.append((register, value)) }
}

/// The resolution of each chip's output as configured by its driver: one count, in µT, g, °/s.
enum ChipResolution {
    static func magnetometer(_ chip: IMUChip) -> Double {
        switch chip {
        case .lsm9ds1Magnetometer: return LSM9DS1Magnetometer.microteslaPerLSB
        case .lis3mdl: return LIS3MDL.microteslaPerLSB
        case .lsm303agrMagnetometer: return LSM303AGRMagnetometer.microteslaPerLSB
        case .lsm303dlhcMagnetometer: return LSM303DLHCMagnetometer.microteslaPerLSBZ
        case .lsm303d: return LSM303D.microteslaPerLSB
        case .hmc5883l: return 100.0 / 1090.0
        case .qmc5883l: return 100.0 / 3000.0
        case .ak09916: return AK09916.microteslaPerLSB
        default: return .nan
        }
    }

    static func accelerometer(_ chip: IMUChip) -> Double {
        switch chip {
        case .lsm9ds1AccelerometerGyroscope: return LSM9DS1AccelerometerGyroscope.gPerLSB
        case .lsm303agrAccelerometer: return LSM303AGRAccelerometer.gPerLSB
        case .lsm303dlhcAccelerometer: return LSM303DLHCAccelerometer.gPerLSB
        case .lsm303d: return LSM303D.gPerLSB
        case .icm20948: return ICM20948.accelerometerRange.gPerLSB
        case .lsm6ds33: return LSM6DS33.gPerLSB
        case .lsm6dsl: return LSM6DSL.gPerLSB
        case .lsm6dsox: return LSM6DSOX.gPerLSB
        default: return .nan
        }
    }

    static func gyroscope(_ chip: IMUChip) -> Double {
        chip == .icm20948 ? ICM20948.gyroscopeRange.degreesPerSecondPerLSB : 17.50e-3
    }
}

/// Expects every component of `measured` within `tolerance` of `truth`.
func expectClose(
    _ measured: Vector3?, _ truth: Vector3, within tolerance: Double, _ comment: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let measured else {
        Issue.record("no value for \(truth) \(comment)", sourceLocation: sourceLocation)
        return
    }
    let error = measured - truth
    #expect(
        abs(error.x) <= tolerance && abs(error.y) <= tolerance && abs(error.z) <= tolerance,
        "measured \(measured), truth \(truth), tolerance \(tolerance) \(comment)", sourceLocation: sourceLocation)
}
