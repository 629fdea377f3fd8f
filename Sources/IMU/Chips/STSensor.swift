@preconcurrency import Glibc
import Heading

/// Conventions the ST drivers in this folder share (LSM303AGR, LSM303DLHC, LSM303D, LIS3MDL,
/// LSM6DS33, LSM6DSL, LSM6DSOX, LSM9DS1): output blocks of three int16 axes, the multi-read
/// sub-address bit, and a block read that checks its length.
enum STSensor {
    /// The sub-address MSB that asks for auto-increment on the LSM303 accelerometers, LSM303D,
    /// LIS3MDL and the LSM9DS1 magnetometer (sensors.md §2; the kernel's
    /// `ST_SENSORS_I2C_MULTIREAD`). Without it those parts return the same register over and
    /// over. The LSM6DS family and LSM9DS1's accelerometer/gyroscope use IF_INC instead and have
    /// no registers above 0x7F, so the bit must not be set there.
    static let multiReadBit: UInt8 = 0x80

    /// Bytes in one output block: X, Y and Z, two bytes each.
    static let vectorByteCount = 6

    /// Reads `count` bytes from `register` on and checks that all of them arrived.
    /// - Throws: `I2CError`; EIO when the device returned fewer bytes than asked for.
    static func readBlock(_ device: any I2CDevice, from register: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        let bytes = try device.readRegisters(register, count: count)
        guard bytes.count == count else {
            throw I2CError(
                bus: device.bus, address: device.address, register: register,
                operation: "read \(count) bytes (got \(bytes.count))", errno: EIO)
        }
        return bytes
    }

    /// Three int16 in X, Y, Z order, low byte first: `X_L X_H Y_L Y_H Z_L Z_H`.
    static func littleEndianAxes(_ bytes: [UInt8]) -> (x: Int16, y: Int16, z: Int16) {
        precondition(bytes.count == vectorByteCount, "an ST output block is six bytes")
        func axis(_ index: Int) -> Int16 {
            Int16(bitPattern: UInt16(bytes[2 * index + 1]) << 8 | UInt16(bytes[2 * index]))
        }
        return (axis(0), axis(1), axis(2))
    }

    /// The vector of three counts, each multiplied by `scale`.
    static func vector(_ counts: (x: Int16, y: Int16, z: Int16), scale: Double) -> Vector3 {
        Vector3(Double(counts.x) * scale, Double(counts.y) * scale, Double(counts.z) * scale)
    }
}
