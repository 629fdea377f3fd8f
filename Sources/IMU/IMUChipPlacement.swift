/// One chip as the IMU uses it: which chip, where on the bus, and how its axes turn into body axes.
public struct IMUChipPlacement: Sendable, Hashable, CustomStringConvertible {
    /// The chip.
    public var chip: IMUChip
    /// Its 7-bit I2C address.
    public var address: UInt8
    /// Chip axes to body axes (x forward, y right, z down).
    public var axisMap: AxisMap

    /// A placement from its parts.
    /// - Parameters:
    ///   - chip: the chip.
    ///   - address: its 7-bit address.
    ///   - axisMap: chip axes to body axes; the chip's own default when omitted.
    public init(_ chip: IMUChip, at address: UInt8, axisMap: AxisMap? = nil) {
        self.chip = chip
        self.address = address
        self.axisMap = axisMap ?? chip.defaultAxisMap
    }

    /// `LIS3MDL at 0x1C (axes x,-y,-z)`.
    public var description: String { "\(chip.name) at \(HexByte(address)) (axes \(axisMap))" }
}
