// IMU: the I2CDevice protocol, its Linux implementation and one driver per chip (issue 4).
// Until then this file only proves that libi2c links.
internal import CI2C

/// Facts about the Linux I2C interface this build was compiled against.
public enum I2CLibrary {
    /// The largest SMBus block transfer the kernel allows, in bytes (`I2C_SMBUS_BLOCK_MAX`).
    public static var maximumBlockLength: Int { Int(I2C_SMBUS_BLOCK_MAX) }
}
