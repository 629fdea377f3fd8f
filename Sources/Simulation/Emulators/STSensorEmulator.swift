import IMU

/// What every ST emulator in this folder shares: the address it answers at and a register file
/// (`STRegisterMap`) that answers reads and writes as the part does. The families derive their
/// own base from it (`LSM6DSFamilyEmulator`, `LSM303AccelerometerFamilyEmulator`,
/// `LIS3MDLFamilyEmulator`), the other dies derive from it directly, and each adds the
/// conversion of a true field, force or rate into output counts. Not used on its own.
public class STSensorEmulator {
    /// The 7-bit address it answers at.
    public let address: UInt8
    /// The die's registers.
    let registers: STRegisterMap

    /// An emulator at `address` with `registers` at their power-on state.
    init(address: UInt8, registers: STRegisterMap) {
        self.address = address
        self.registers = registers
    }

    /// Bytes read from `register` on, as the part returns them in one transfer.
    /// - Parameters:
    ///   - register: the sub-address as sent, with the 0x80 multi-read bit where the master set it.
    ///   - count: how many bytes.
    public func read(register: UInt8, count: Int) -> RegisterBlock { registers.read(register: register, count: count) }

    /// A register write; the part ignores writes to read-only and reserved registers.
    /// - Parameters:
    ///   - register: the sub-address as sent.
    ///   - value: the byte written.
    public func write(register: UInt8, value: UInt8) { registers.write(register: register, value: value) }
}
