/// A known board: its magnetometer and accelerometer, their addresses, and the axis maps that take
/// each chip's raw axes into the body frame (x forward, y right, z down) for the board mounted as
/// its doc comment says.
///
/// No source in `reference/sensors.md` says where on each board the chips sit or which way they
/// face, so every preset states its mounting in the one term the sources do fix: the direction
/// of its accelerometer's +x axis. Find it once with `waypointd check` or a level: raise the edge
/// that should be forward and body x of the acceleration must go positive (specific force
/// x = sin pitch); lower the right edge and body y must go negative. Where the board is worn
/// otherwise, the config's `axis-remap` turns board axes into body axes
/// (`IMUSelection.remapped(by:)`).
///
/// Chip-to-chip axis relations and their sources are on `IMUChip.defaultAxisMap`; a preset only
/// differs from those defaults when its board places a separate magnetometer rotated against
/// its accelerometer, which none of these does as far as the sources say.
public struct BoardPreset: Sendable, Hashable, CustomStringConvertible {
    /// The board's name as the vendor writes it.
    public var name: String
    /// The config's name for it (`imu berrygps-imu-v4`).
    public var identifier: String
    /// The magnetometer, its address and axis map.
    public var magnetometer: IMUChipPlacement
    /// The accelerometer, its address and axis map.
    public var accelerometer: IMUChipPlacement
    /// Other devices on the board, used only to tell it from a preset with the same IMU chips
    /// at the same addresses (the Sense HAT and the BerryGPS-IMU v3 both carry an LSM9DS1 at
    /// 0x1C/0x6A).
    public var companionAddresses: [UInt8]
    /// How the board must lie for the axis maps to hold.
    public var mounting: String

    /// A preset from its parts.
    public init(
        name: String, identifier: String, magnetometer: IMUChipPlacement, accelerometer: IMUChipPlacement,
        companionAddresses: [UInt8] = [], mounting: String
    ) {
        self.name = name
        self.identifier = identifier
        self.magnetometer = magnetometer
        self.accelerometer = accelerometer
        self.companionAddresses = companionAddresses
        self.mounting = mounting
    }

    /// The pair to read, named after the board.
    public var selection: IMUSelection {
        IMUSelection(magnetometer: magnetometer, accelerometer: accelerometer, boardName: name)
    }

    /// `Raspberry Pi Sense HAT (sense-hat): LSM9DS1 magnetometer at 0x1C …`.
    public var description: String {
        "\(name) (\(identifier)): magnetometer \(magnetometer), accelerometer \(accelerometer)"
    }

    /// The mounting every preset assumes.
    static let flatAccelerometerXForward =
        "flat, components up, with the accelerometer's +x axis pointing forward (the way the wearer faces)"

    /// OzzMaker BerryGPS-IMU v3: LSM9DS1, magnetometer at 0x1C, accelerometer/gyroscope at 0x6A;
    /// a pressure sensor at 0x77 tells it from the Sense HAT.
    ///
    /// Mounting: flat, components up, LSM9DS1 accelerometer +x forward. Maps: accelerometer
    /// `x,-y,-z` (ST face-up frame); magnetometer `-x,-y,-z` because the LSM9DS1 magnetometer's
    /// x points opposite its accelerometer's (sensors.md §3.7: PX4-160, jremington).
    ///
    /// UNCONFIRMED chip set: sensors.md §1 has only i2cdetect addresses for this board (0x1C,
    /// 0x6A, 0x77) and thinks LIS3MDL + LSM6DSL more likely. Detection reads WHO_AM_I, so a v3
    /// carrying those is matched as the v4 preset, whose maps are the same.
    public static let berryGPSIMUv3 = BoardPreset(
        name: "BerryGPS-IMU v3", identifier: "berrygps-imu-v3",
        magnetometer: IMUChipPlacement(.lsm9ds1Magnetometer, at: 0x1C, axisMap: AxisMap(constant: "-x,-y,-z")),
        accelerometer: IMUChipPlacement(
            .lsm9ds1AccelerometerGyroscope, at: 0x6A, axisMap: AxisMap(constant: "x,-y,-z")),
        companionAddresses: [berryGPSPressureSensor], mounting: flatAccelerometerXForward)

    /// OzzMaker BerryGPS-IMU v4: LIS3MDL at 0x1C and LSM6DSL at 0x6A (the chips and addresses of
    /// the BerryIMU v3 too).
    ///
    /// Mounting: flat, components up, LSM6DSL +x forward. Maps: both `x,-y,-z`. The two are
    /// separate chips; OzzMaker's tilt compensation (berryIMU.py) combines their raw vectors in
    /// one frame, so the LIS3MDL is taken as aligned with the LSM6DSL (sensors.md §1: OZZ-ST,
    /// HALF, NAV for the chip set).
    public static let berryGPSIMUv4 = BoardPreset(
        name: "BerryGPS-IMU v4", identifier: "berrygps-imu-v4",
        magnetometer: IMUChipPlacement(.lis3mdl, at: 0x1C, axisMap: AxisMap(constant: "x,-y,-z")),
        accelerometer: IMUChipPlacement(.lsm6dsl, at: 0x6A, axisMap: AxisMap(constant: "x,-y,-z")),
        mounting: flatAccelerometerXForward)

    /// Raspberry Pi Sense HAT (v1 and v2): LSM9DS1, magnetometer at 0x1C, accelerometer/gyroscope
    /// at 0x6A; the LED-matrix microcontroller (0x46), LPS25H (0x5C) and HTS221 (0x5F) tell it
    /// from the BerryGPS-IMU v3 (sensors.md §1: GK, PINOUT, R2SH).
    ///
    /// Mounting: flat, components (LED matrix) up, LSM9DS1 accelerometer +x forward. Maps as the
    /// BerryGPS-IMU v3's: accelerometer `x,-y,-z`, magnetometer `-x,-y,-z` (sensors.md §3.7).
    /// Raspberry Pi OS's Sense HAT overlay binds kernel drivers to these addresses; detection then
    /// reports EBUSY.
    public static let senseHAT = BoardPreset(
        name: "Raspberry Pi Sense HAT", identifier: "sense-hat",
        magnetometer: IMUChipPlacement(.lsm9ds1Magnetometer, at: 0x1C, axisMap: AxisMap(constant: "-x,-y,-z")),
        accelerometer: IMUChipPlacement(
            .lsm9ds1AccelerometerGyroscope, at: 0x6A, axisMap: AxisMap(constant: "x,-y,-z")),
        companionAddresses: [senseHATMicrocontroller, senseHATPressureSensor, senseHATHumiditySensor],
        mounting: flatAccelerometerXForward)

    /// Waveshare Sense HAT (B): ICM-20948 at 0x68 with its AK09916 at 0x0C behind bypass
    /// (sensors.md §1: WS-1, WS-2).
    ///
    /// Mounting: flat, components up, ICM-20948 +x forward. Maps: ICM-20948 `x,-y,-z` (it reads
    /// +1 g on z face up); AK09916 `x,y,z`, because its y and z point opposite the
    /// accelerometer's (sensors.md §3.8: SF-59, MPF-10, DPE-3).
    public static let waveshareSenseHATB = BoardPreset(
        name: "Waveshare Sense HAT (B)", identifier: "waveshare-sense-hat-b",
        magnetometer: IMUChipPlacement(.ak09916, at: 0x0C, axisMap: AxisMap(constant: "x,y,z")),
        accelerometer: IMUChipPlacement(.icm20948, at: 0x68, axisMap: AxisMap(constant: "x,-y,-z")),
        mounting: flatAccelerometerXForward)

    /// Adafruit LSM303AGR breakout (product 4413): magnetometer at 0x1E, accelerometer at 0x19.
    ///
    /// Mounting: flat, components up, the accelerometer's +x (the X arrow of the axis diagram
    /// Adafruit prints on its breakouts, UNCONFIRMED for this board) forward. Maps: accelerometer
    /// `x,-y,-z`; magnetometer `x,-y,z` because its z is taken as opposite the accelerometer's
    /// (PX4 PR 10068). UNCONFIRMED: CODAL remaps both dies alike (sensors.md §3.1, open item 7).
    public static let adafruitLSM303AGR = BoardPreset(
        name: "Adafruit LSM303AGR", identifier: "adafruit-lsm303agr",
        magnetometer: IMUChipPlacement(.lsm303agrMagnetometer, at: 0x1E, axisMap: AxisMap(constant: "x,-y,z")),
        accelerometer: IMUChipPlacement(.lsm303agrAccelerometer, at: 0x19, axisMap: AxisMap(constant: "x,-y,-z")),
        mounting: flatAccelerometerXForward)

    /// Adafruit LSM303DLHC breakout (product 1120; FLORA 1247): magnetometer at 0x1E,
    /// accelerometer at 0x19.
    ///
    /// Mounting: flat, components up, the accelerometer's +x (the printed X arrow, UNCONFIRMED)
    /// forward. Maps: both `x,-y,-z`; Pololu's heading code combines the raw vectors of the two
    /// dies in one frame (sensors.md §3.3, POL-303, 1 source).
    public static let adafruitLSM303DLHC = BoardPreset(
        name: "Adafruit LSM303DLHC", identifier: "adafruit-lsm303dlhc",
        magnetometer: IMUChipPlacement(.lsm303dlhcMagnetometer, at: 0x1E, axisMap: AxisMap(constant: "x,-y,-z")),
        accelerometer: IMUChipPlacement(.lsm303dlhcAccelerometer, at: 0x19, axisMap: AxisMap(constant: "x,-y,-z")),
        mounting: flatAccelerometerXForward)

    /// Pimoroni Enviro pHAT: LSM303D at 0x1D, both sensors in one die (sensors.md §1, PIM-ENV).
    ///
    /// Mounting: flat, components up, LSM303D +x forward. Maps: both `x,-y,-z` (one die, one
    /// frame; Pimoroni's heading code uses the raw vectors together).
    public static let enviroPHAT = BoardPreset(
        name: "Pimoroni Enviro pHAT", identifier: "enviro-phat",
        magnetometer: IMUChipPlacement(.lsm303d, at: 0x1D, axisMap: AxisMap(constant: "x,-y,-z")),
        accelerometer: IMUChipPlacement(.lsm303d, at: 0x1D, axisMap: AxisMap(constant: "x,-y,-z")),
        mounting: flatAccelerometerXForward)

    /// Every preset, in the order detection tries them.
    public static let all: [BoardPreset] = [
        senseHAT, berryGPSIMUv3, berryGPSIMUv4, waveshareSenseHATB, adafruitLSM303AGR, adafruitLSM303DLHC,
        enviroPHAT,
    ]

    /// The preset the config names, ignoring case; nil for an unknown name.
    /// - Parameter identifier: e.g. `sense-hat`.
    public static func named(_ identifier: String) -> BoardPreset? {
        all.first { $0.identifier == identifier.lowercased() }
    }

    /// The BerryGPS-IMU's pressure sensor (sensors.md §1: i2cdetect shows 0x77).
    static let berryGPSPressureSensor: UInt8 = 0x77
    /// The Sense HAT's LED-matrix and joystick microcontroller (ATTINY88).
    static let senseHATMicrocontroller: UInt8 = 0x46
    /// The Sense HAT's LPS25H pressure sensor.
    static let senseHATPressureSensor: UInt8 = 0x5C
    /// The Sense HAT's HTS221 humidity sensor.
    static let senseHATHumiditySensor: UInt8 = 0x5F
}
