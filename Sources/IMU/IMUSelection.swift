/// The magnetometer and accelerometer the IMU reads, with their axis maps: what detection picks,
/// what a board preset names, what the config can spell out chip by chip.
public struct IMUSelection: Sendable, Hashable, CustomStringConvertible {
    /// The magnetometer.
    public var magnetometer: IMUChipPlacement
    /// The accelerometer (with its gyroscope, when the chip has one).
    public var accelerometer: IMUChipPlacement
    /// The board preset the pair came from or matched, if any.
    public var boardName: String?

    /// A selection from its parts.
    /// - Parameters:
    ///   - magnetometer: a chip whose `isMagnetometer` is true.
    ///   - accelerometer: a chip whose `isAccelerometer` is true.
    ///   - boardName: the preset's name, when the pair is a known board.
    public init(magnetometer: IMUChipPlacement, accelerometer: IMUChipPlacement, boardName: String? = nil) {
        precondition(magnetometer.chip.isMagnetometer, "\(magnetometer.chip.name) has no magnetometer")
        precondition(accelerometer.chip.isAccelerometer, "\(accelerometer.chip.name) has no accelerometer")
        self.magnetometer = magnetometer
        self.accelerometer = accelerometer
        self.boardName = boardName
    }

    /// The same selection with `remap` applied after both chips' maps: a board-to-body remap
    /// for a board mounted other than its preset assumes (the config's `axis-remap`).
    public func remapped(by remap: AxisMap) -> IMUSelection {
        var copy = self
        copy.magnetometer.axisMap = magnetometer.axisMap.followed(by: remap)
        copy.accelerometer.axisMap = accelerometer.axisMap.followed(by: remap)
        return copy
    }

    /// `magnetometer LIS3MDL at 0x1C (axes x,-y,-z), accelerometer LSM6DSL at 0x6A (axes x,-y,-z)`,
    /// with the board's name when known.
    public var description: String {
        let pair = "magnetometer \(magnetometer), accelerometer \(accelerometer)"
        return boardName.map { "\($0): \(pair)" } ?? pair
    }
}
