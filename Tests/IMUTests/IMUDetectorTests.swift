@preconcurrency import Glibc
import Heading
import IMU
import Simulation
import Testing

private func detect(_ rig: IMUTestRig) -> IMUDetector.Result {
    IMUDetector(bus: rig.bus, pause: { _ in }).detect()
}

private func probe(_ result: IMUDetector.Result, at address: UInt8) -> IMUDetector.Probe? {
    result.probes.first { $0.address == address }
}

/// The chips that can sit at 0x1E, one at a time (sensors.md §1.1). The LSM9DS0's XM die has the
/// LSM303D's identity and register map and no emulator of its own; the LSM9DS1 magnetometer
/// appears twice, with and without its accelerometer/gyroscope beside it.
enum ChipAt0x1E: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case hmc5883l, lsm303dlhc, lsm303agr, lis3mdl, lsm9ds1WithItsAccelerometer, lsm9ds1Alone, lsm303d

    var testDescription: String { rawValue }

    /// The chip detection must report at 0x1E.
    var expected: IMUChip {
        switch self {
        case .hmc5883l: return .hmc5883l
        case .lsm303dlhc: return .lsm303dlhcMagnetometer
        case .lsm303agr: return .lsm303agrMagnetometer
        case .lis3mdl: return .lis3mdl
        case .lsm9ds1WithItsAccelerometer: return .lsm9ds1Magnetometer
        // Without its other die, nothing tells it from a LIS3MDL; the register maps agree.
        case .lsm9ds1Alone: return .lis3mdl
        case .lsm303d: return .lsm303d
        }
    }

    /// A bus with the chip at 0x1E (and the LSM9DS1's other die at 0x6B where it belongs).
    func rig() -> IMUTestRig {
        let rig = IMUTestRig()
        switch self {
        case .hmc5883l: rig.add(.hmc5883l, at: 0x1E)
        case .lsm303dlhc: rig.add(.lsm303dlhcMagnetometer, at: 0x1E)
        case .lsm303agr: rig.add(.lsm303agrMagnetometer, at: 0x1E)
        case .lis3mdl: rig.add(.lis3mdl, at: 0x1E)
        case .lsm9ds1WithItsAccelerometer:
            rig.add(.lsm9ds1AccelerometerGyroscope, at: 0x6B)
            rig.add(.lsm9ds1Magnetometer, at: 0x1E)
        case .lsm9ds1Alone: rig.add(.lsm9ds1Magnetometer, at: 0x1E)
        case .lsm303d: rig.add(.lsm303d, at: 0x1E)
        }
        return rig
    }
}

@Suite("IMUDetector: imu auto, with a reason for every address", .timeLimit(.minutes(5)))
struct IMUDetectorTests {
    @Test("each preset's chips are found, paired and named after the board", arguments: BoardPreset.all)
    func presets(preset: BoardPreset) {
        let result = detect(IMUTestRig(preset))
        #expect(result.selection == preset.selection)
        #expect(result.matchingPresets == [preset])
        #expect(result.problem == nil)
        #expect(result.unused.isEmpty)
        #expect(result.report.contains("Board: \(preset.name) (imu \(preset.identifier))"), "\(result.report)")
    }

    @Test("the full report for a BerryGPS-IMU v4")
    func fullReport() {
        let result = detect(IMUTestRig(.berryGPSIMUv4))
        #expect(
            result.report == """
                I2C bus i2c-1:
                  0x6A: LSM6DSL accepted: WHO_AM_I (0x0F) = 0x6A
                  0x6B: nothing there (No such device or address (errno 6))
                  0x68: nothing there (No such device or address (errno 6))
                  0x69: nothing there (No such device or address (errno 6))
                  0x1C: LIS3MDL accepted: WHO_AM_I (0x0F) = 0x3D, shared with the LSM9DS1 magnetometer; no LSM9DS1 \
                accelerometer/gyroscope (0x68) answers at 0x6A/0x6B
                  0x1D: nothing there (No such device or address (errno 6))
                  0x1E: nothing there (No such device or address (errno 6))
                  0x19: nothing there (No such device or address (errno 6))
                  0x0D: nothing there (No such device or address (errno 6))
                Magnetometer: LIS3MDL at 0x1C (axes x,-y,-z)
                Accelerometer: LSM6DSL at 0x6A (axes x,-y,-z)
                Board: BerryGPS-IMU v4 (imu berrygps-imu-v4)
                """)
    }

    @Test("an LSM9DS1 without the other devices of its board matches both LSM9DS1 presets; their maps agree")
    func lsm9ds1WithoutCompanions() {
        let result = detect(IMUTestRig(.senseHAT, withCompanions: false))
        #expect(result.matchingPresets == [.senseHAT, .berryGPSIMUv3])
        #expect(result.selection?.magnetometer == BoardPreset.senseHAT.magnetometer)
        #expect(result.selection?.accelerometer == BoardPreset.berryGPSIMUv3.accelerometer)
        #expect(result.selection?.boardName == "Raspberry Pi Sense HAT or BerryGPS-IMU v3")
        #expect(
            result.report.contains(
                "Board: one of Raspberry Pi Sense HAT, BerryGPS-IMU v3 "
                    + "(same chips at the same addresses, same axis maps)"))
        // Every companion address was asked, and nothing answered.
        for address: UInt8 in [0x46, 0x5C, 0x5F, 0x77] {
            #expect(probe(result, at: address)?.verdict == .absent)
        }
    }

    @Test("with a second board's chips on the bus, the first preset wins and the rest is not used")
    func stackedBoards() {
        let rig = IMUTestRig(.senseHAT, withCompanions: false)
        rig.add(.lsm303d, at: 0x1D)
        let result = detect(rig)
        #expect(result.matchingPresets == [.senseHAT, .berryGPSIMUv3])
        #expect(result.selection?.magnetometer == BoardPreset.senseHAT.magnetometer)
        #expect(
            result.unused == [
                "LSM303D at 0x1D: LSM9DS1 magnetometer at 0x1C and LSM9DS1 accelerometer/gyroscope at 0x6A were chosen"
            ])
    }

    @Test("the Sense HAT's LED microcontroller at 0x46 tells it from the BerryGPS-IMU v3")
    func senseHATByCompanion() {
        let rig = IMUTestRig(.senseHAT, withCompanions: false)
        rig.add(PresentChip(address: 0x46))
        let result = detect(rig)
        #expect(result.matchingPresets == [.senseHAT])
        #expect(probe(result, at: 0x46)?.description == "0x46: answers: acknowledged a read of 0x00; not an IMU chip")
    }

    @Test("0x3D at 0x1C: LIS3MDL beside an LSM6DS33, LSM9DS1 beside its accelerometer/gyroscope")
    func lis3mdlVersusLSM9DS1() {
        let lis3mdl = IMUTestRig()
        lis3mdl.add(.lsm6ds33, at: 0x6A)
        lis3mdl.add(.lis3mdl, at: 0x1C)
        let alone = detect(lis3mdl)
        #expect(alone.selection?.magnetometer.chip == .lis3mdl)
        #expect(alone.selection?.accelerometer.chip == .lsm6ds33)
        #expect(alone.matchingPresets.isEmpty)
        #expect(alone.report.contains("Board: no preset matches; axis maps assume the accelerometer's +x forward"))

        let lsm9ds1 = IMUTestRig()
        lsm9ds1.add(.lsm9ds1AccelerometerGyroscope, at: 0x6B)
        lsm9ds1.add(.lsm9ds1Magnetometer, at: 0x1C)
        let paired = detect(lsm9ds1)
        #expect(paired.selection?.magnetometer == IMUChipPlacement(.lsm9ds1Magnetometer, at: 0x1C))
        #expect(paired.selection?.accelerometer == IMUChipPlacement(.lsm9ds1AccelerometerGyroscope, at: 0x6B))
        #expect(
            probe(paired, at: 0x1C)?.description
                == "0x1C: LSM9DS1 magnetometer accepted: WHO_AM_I (0x0F) = 0x3D, shared with LIS3MDL; the LSM9DS1 "
                + "accelerometer/gyroscope answers at 0x6B")
    }

    @Test("0x19 with 0x33 is the LSM303AGR's accelerometer only when 0x1E answers 0x40 at 0x4F")
    func dlhcVersusAGR() {
        let dlhc = detect(IMUTestRig(.adafruitLSM303DLHC))
        #expect(dlhc.selection?.accelerometer.chip == .lsm303dlhcAccelerometer)
        #expect(
            probe(dlhc, at: 0x19)?.reason
                == "WHO_AM_I_A (0x0F) = 0x33, shared with the LSM303AGR; 0x1E did not answer 0x40 at 0x4F, "
                + "so LSM303DLHC")
        #expect(
            probe(dlhc, at: 0x1E)?.reason == "WHO_AM_I (0x0F) = 0x3C (undocumented, checked before the HMC5883L's ID)")

        let agr = detect(IMUTestRig(.adafruitLSM303AGR))
        #expect(agr.selection?.accelerometer.chip == .lsm303agrAccelerometer)
        #expect(agr.selection?.magnetometer.chip == .lsm303agrMagnetometer)
        #expect(
            probe(agr, at: 0x19)?.reason
                == "WHO_AM_I_A (0x0F) = 0x33, shared with the LSM303DLHC; 0x1E answered 0x40 at 0x4F (LSM303AGR)")
    }

    @Test("at 0x1E the HMC5883L is accepted on \"H43\" only after the ST identities, which the DLHC also answers")
    func hmcVersusDLHC() {
        let hmcRig = IMUTestRig()
        hmcRig.add(.lsm6dsl, at: 0x6A)
        hmcRig.add(.hmc5883l, at: 0x1E)
        let hmc = detect(hmcRig)
        #expect(hmc.selection?.magnetometer == IMUChipPlacement(.hmc5883l, at: 0x1E))
        #expect(
            probe(hmc, at: 0x1E)?.description
                == "0x1E: HMC5883L accepted: no ST identity (WHO_AM_I_M (0x4F) = 0x00, WHO_AM_I (0x0F) = 0x00); "
                + "identification A–C (0x0A…) = 0x48 0x34 0x33 (\"H43\")")

        // The DLHC's magnetometer reads "H43" at 0x0A–0x0C as well.
        let dlhcRig = IMUTestRig()
        let dlhcMagnetometer = dlhcRig.add(.lsm303dlhcMagnetometer, at: 0x1E)
        #expect(dlhcMagnetometer.read(register: 0x0A, count: 3) == HMC5883L.expectedIdentity)
        let dlhc = detect(dlhcRig)
        #expect(dlhc.magnetometers == [IMUChipPlacement(.lsm303dlhcMagnetometer, at: 0x1E)])
    }

    @Test("every chip that can sit at 0x1E is told apart there", arguments: ChipAt0x1E.allCases)
    func chipsAt0x1E(chip: ChipAt0x1E) {
        let result = detect(chip.rig())
        #expect(result.magnetometers.map(\.chip) == [chip.expected])
        #expect(probe(result, at: 0x1E)?.verdict == .accepted(chip.expected))
        if chip.expected.isAccelerometer || chip == .lsm9ds1WithItsAccelerometer {
            #expect(result.selection != nil)
        } else {
            #expect(result.selection == nil)
            #expect(result.problem == "no supported accelerometer answered to pair with the magnetometer")
            #expect(
                result.report.hasSuffix("Not used: \(chip.expected.name) at 0x1E: no accelerometer to pair it with"))
        }
    }

    @Test("the ICM-20948's AK09916 appears at 0x0C only once detection has turned bypass on")
    func ak09916BehindBypass() throws {
        let rig = IMUTestRig(.waveshareSenseHATB)
        #expect(throws: I2CError.self) { try rig.bus.device(at: 0x0C).readRegister(0x00) }
        let result = detect(rig)
        #expect(result.selection == BoardPreset.waveshareSenseHATB.selection)
        let order = result.probes.map(\.address)
        #expect(order.firstIndex(of: 0x0C)! == order.firstIndex(of: 0x68)! + 1)
        #expect(
            probe(result, at: 0x0C)?.description
                == "0x0C: AK09916 accepted: WIA1/WIA2 = 0x48 0x09, behind the ICM-20948 at 0x68 in bypass")
        #expect(probe(result, at: 0x68)?.description == "0x68: ICM-20948 accepted: WHO_AM_I (bank 0, 0x00) = 0xEA")
    }

    @Test("an ICM-20948 at 0x69 pairs with its own AK09916 with the chips' default maps, and no preset")
    func icm20948AtAlternateAddress() throws {
        let rig = IMUTestRig()
        let icm = rig.add(.icm20948, at: 0x69)
        // Left in bank 2 by an earlier program.
        icm.write(register: 0x7F, value: 0x20)
        let result = detect(rig)
        #expect(
            result.selection
                == IMUSelection(
                    magnetometer: IMUChipPlacement(.ak09916, at: 0x0C),
                    accelerometer: IMUChipPlacement(.icm20948, at: 0x69)))
        #expect(result.matchingPresets.isEmpty)
        #expect(
            probe(result, at: 0x69)?.reason
                == "WHO_AM_I (bank 0, 0x00) = 0xEA after selecting bank 0 (it was in bank 2)")
    }

    @Test("a clock at 0x68 is not written to, and an MPU-9250 is named")
    func othersAt0x68() {
        let rig = IMUTestRig()
        let clock = FixedRegisterChip(address: 0x68, values: [0x7F: 0x59, 0x75: 0x12])
        rig.add(clock)
        let mpu = FixedRegisterChip(address: 0x69, values: [0x75: 0x71])
        rig.add(mpu)
        let result = detect(rig)
        #expect(clock.writes.isEmpty)
        #expect(
            probe(result, at: 0x68)?.description
                == "0x68: rejected: not an ICM-20948 (REG_BANK_SEL 0x7F = 0x59) nor an MPU-9250 (0x75 = 0x12); "
                + "perhaps a real-time clock")
        #expect(
            probe(result, at: 0x69)?.description
                == "0x69: rejected: MPU-9250 (WHO_AM_I 0x75 = 0x71), which has no driver")
        #expect(probe(result, at: 0x0C) == nil)
    }

    @Test("a magnetometer-only chip pairs with any supported accelerometer")
    func magnetometerOnly() {
        let rig = IMUTestRig()
        rig.add(.lsm6dsox, at: 0x6B)
        rig.add(.qmc5883l, at: 0x0D)
        let result = detect(rig)
        #expect(
            result.selection
                == IMUSelection(
                    magnetometer: IMUChipPlacement(.qmc5883l, at: 0x0D),
                    accelerometer: IMUChipPlacement(.lsm6dsox, at: 0x6B)))
        #expect(probe(result, at: 0x0D)?.reason == "chip ID (0x0D) = 0xFF")
    }

    @Test("a package's own pair wins over another accelerometer, which is reported as not used")
    func packagePairAndUnused() {
        let rig = IMUTestRig()
        rig.add(.lsm6dsl, at: 0x6A)
        rig.add(.lsm303agrAccelerometer, at: 0x19)
        rig.add(.lsm303agrMagnetometer, at: 0x1E)
        rig.add(.qmc5883l, at: 0x0D)
        let result = detect(rig)
        #expect(result.selection == BoardPreset.adafruitLSM303AGR.selection)
        #expect(
            result.unused == [
                "QMC5883L at 0x0D: LSM303AGR magnetometer at 0x1E and LSM303AGR accelerometer at 0x19 were chosen",
                "LSM6DSL at 0x6A: LSM303AGR magnetometer at 0x1E and LSM303AGR accelerometer at 0x19 were chosen",
            ])
    }

    @Test("WHO_AM_I values of parts without a driver are named")
    func unsupportedInertial() {
        let rig = IMUTestRig()
        rig.add(FixedRegisterChip(address: 0x6A, values: [0x0F: 0xD4]))
        rig.add(FixedRegisterChip(address: 0x6B, values: [0x0F: 0x42]))
        let result = detect(rig)
        #expect(
            probe(result, at: 0x6A)?.description
                == "0x6A: rejected: WHO_AM_I (0x0F) = 0xD4: LSM9DS0 gyroscope, which has no driver")
        #expect(probe(result, at: 0x6B)?.description == "0x6B: rejected: WHO_AM_I (0x0F) = 0x42: not a supported chip")
    }

    @Test("ENXIO and EREMOTEIO are nothing there; EIO is an error with a hint, and the scan goes on")
    func errors() {
        let rig = IMUTestRig(.berryGPSIMUv4)
        rig.bus.injectFaults(at: 0x6A, [EIO])
        rig.bus.injectFaults(at: 0x1C, [EREMOTEIO])
        let result = detect(rig)
        #expect(
            probe(result, at: 0x6A)?.description
                == "0x6A: error: i2c-1 device 0x6A register 0xF: read 1 byte failed: Input/output error (errno 5); "
                + "transfer error; check wiring and power")
        #expect(probe(result, at: 0x1C)?.description == "0x1C: nothing there (Remote I/O error (errno 121))")
        #expect(result.selection == nil)
        #expect(result.problem == "no supported magnetometer answered")
        #expect(result.probes.count == 9)
    }

    @Test("a bus that cannot be opened stops the scan after one clear error")
    func unusableBus() {
        final class MissingBus: I2CBus {
            let number = 3
            func device(at address: UInt8) throws(I2CError) -> any I2CDevice {
                throw I2CError(bus: 3, address: address, register: nil, operation: "open /dev/i2c-3", errno: ENOENT)
            }
        }
        let result = IMUDetector(bus: MissingBus(), pause: { _ in }).detect()
        #expect(result.selection == nil)
        #expect(
            result.report == """
                I2C bus i2c-3:
                  0x6A: error: i2c-3 device 0x6A: open /dev/i2c-3 failed: No such file or directory (errno 2); \
                no such bus; enable I2C (dtparam=i2c_arm=on) or pick another bus
                No IMU: i2c-3 cannot be used: i2c-3 device 0x6A: open /dev/i2c-3 failed: No such file or directory \
                (errno 2); no such bus; enable I2C (dtparam=i2c_arm=on) or pick another bus
                """)
    }

    @Test("an empty bus reports every address it tried")
    func emptyBus() {
        let result = detect(IMUTestRig())
        #expect(result.probes.map(\.address) == [0x6A, 0x6B, 0x68, 0x69, 0x1C, 0x1D, 0x1E, 0x19, 0x0D])
        #expect(result.probes.allSatisfy { $0.verdict == .absent })
        #expect(result.report.hasSuffix("No IMU: no supported magnetometer answered"))
    }
}
