import Heading
import IMU
import Simulation
import Testing

/// Earth's field in NED, µT: roughly central Europe (F ≈ 48 µT, inclination ≈ 64°).
private let earthField = Vector3(20.5, 0.9, 43.6)

/// Attitudes from level to steep, on every heading quadrant.
private let attitudes = [
    Attitude(yawDegrees: 0), Attitude(yawDegrees: 90), Attitude(yawDegrees: 37, pitchDegrees: 12, rollDegrees: -8),
    Attitude(yawDegrees: 200, pitchDegrees: -30, rollDegrees: 45),
    Attitude(yawDegrees: 300, pitchDegrees: 60, rollDegrees: 170),
]

@Suite("Board presets: chips, addresses and axis maps", .timeLimit(.minutes(5)))
struct BoardPresetTests {
    @Test("every preset names a magnetometer and an accelerometer at one of their addresses")
    func chipsInTheirRoles() {
        #expect(BoardPreset.all.count == 7)
        #expect(Set(BoardPreset.all.map(\.identifier)).count == BoardPreset.all.count)
        for preset in BoardPreset.all {
            #expect(preset.magnetometer.chip.isMagnetometer, "\(preset.name)")
            #expect(preset.accelerometer.chip.isAccelerometer, "\(preset.name)")
            #expect(preset.magnetometer.chip.addresses.contains(preset.magnetometer.address), "\(preset.name)")
            #expect(preset.accelerometer.chip.addresses.contains(preset.accelerometer.address), "\(preset.name)")
            #expect(BoardPreset.named(preset.identifier.uppercased()) == preset)
        }
        #expect(BoardPreset.named("berrygps") == nil)
    }

    @Test("accelerometer maps are rotations that take a face-up +1 g on chip z to body (0, 0, −1)")
    func accelerometerMaps() {
        for preset in BoardPreset.all {
            let map = preset.accelerometer.axisMap
            #expect(map.isRotation, "\(preset.name): \(map)")
            #expect(map.apply(Vector3(0, 0, 1)) == Vector3(0, 0, -1), "\(preset.name)")
            #expect(map.apply(Vector3(1, 0, 0)) == Vector3(1, 0, 0), "\(preset.name): chip x is forward")
        }
    }

    @Test("the presets use the chip-pair relations documented on IMUChip.defaultAxisMap")
    func mapsFollowTheChipRelations() {
        for preset in BoardPreset.all {
            #expect(preset.magnetometer.axisMap == preset.magnetometer.chip.defaultAxisMap, "\(preset.name)")
            #expect(preset.accelerometer.axisMap == preset.accelerometer.chip.defaultAxisMap, "\(preset.name)")
        }
        #expect(BoardPreset.senseHAT.magnetometer.axisMap.description == "-x,-y,-z")
        #expect(BoardPreset.waveshareSenseHATB.magnetometer.axisMap == .identity)
        #expect(BoardPreset.adafruitLSM303AGR.magnetometer.axisMap.description == "x,-y,z")
        #expect(BoardPreset.berryGPSIMUv4.magnetometer.axisMap.description == "x,-y,-z")
    }

    @Test(
        "a body-frame truth pushed through the inverse chip maps comes back through driver and map",
        arguments: BoardPreset.all)
    func roundTrip(preset: BoardPreset) throws {
        let rig = IMUTestRig(preset)
        let reader = try IMUReader(selection: preset.selection, bus: rig.bus, pause: { _ in })
        try reader.start()
        let magnetometerLSB = ChipResolution.magnetometer(preset.magnetometer.chip)
        let accelerometerLSB = ChipResolution.accelerometer(preset.accelerometer.chip)
        let gyroscopeLSB = ChipResolution.gyroscope(preset.accelerometer.chip)
        for (index, attitude) in attitudes.enumerated() {
            let field = attitude.toBody(earthField)
            let force = attitude.specificForce()
            let rate = Vector3(12.5, -40, 90) * Double(index + 1) / 5
            rig.present(field: field, acceleration: force, angularRate: rate, through: preset.selection)
            guard case .sample(let sample) = reader.read() else {
                Issue.record("\(preset.name): no sample at \(attitude)")
                continue
            }
            expectClose(sample.magneticMicrotesla, field, within: magnetometerLSB, "\(preset.name) field \(attitude)")
            expectClose(sample.accelerationG, force, within: accelerometerLSB, "\(preset.name) force \(attitude)")
            if preset.accelerometer.chip.hasGyroscope {
                expectClose(sample.angularRateDegreesPerSecond, rate, within: gyroscopeLSB, "\(preset.name) rate")
            } else {
                #expect(sample.angularRateDegreesPerSecond == nil)
            }
        }
        #expect(reader.statistics.samples == attitudes.count)
        #expect(reader.statistics.transferErrors == 0)
    }

    @Test("level and still, every preset reads (0, 0, −1) g and the field's own down component")
    func levelAndStill() throws {
        for preset in BoardPreset.all {
            let rig = IMUTestRig(preset)
            let reader = try IMUReader(selection: preset.selection, bus: rig.bus, pause: { _ in })
            try reader.start()
            rig.present(field: earthField, acceleration: Vector3(0, 0, -1), through: preset.selection)
            guard case .sample(let sample) = reader.read() else {
                Issue.record("\(preset.name): no sample")
                continue
            }
            #expect(abs(sample.accelerationG.z + 1) < 0.01, "\(preset.name)")
            #expect(sample.magneticMicrotesla.z > 40, "\(preset.name): the field points down in the north")
        }
    }

    @Test("a remap after the preset turns a board worn rotated 90° (x to the right) back into body axes")
    func remapAfterPreset() throws {
        // Worn with the accelerometer's x pointing right: board x = body y, board y = −body x.
        let remap = try AxisMap(parsing: "-y,x,z")
        let selection = BoardPreset.berryGPSIMUv4.selection.remapped(by: remap)
        #expect(selection.accelerometer.axisMap.description == "y,x,-z")
        #expect(selection.accelerometer.axisMap.isRotation)
        #expect(selection.boardName == "BerryGPS-IMU v4")
        #expect(
            selection.description
                == "BerryGPS-IMU v4: magnetometer LIS3MDL at 0x1C (axes y,x,-z), "
                + "accelerometer LSM6DSL at 0x6A (axes y,x,-z)")
    }
}
