import IMU

/// The simulated board's bus as the daemon reads it: every transfer first moves the world on to
/// now (``SimulatedWorld``), under the world's lock, so the walker, the chips and the GPS
/// receiver stay one consistent world whichever thread looks at it.
final class SimulatedWorldBus: I2CBus {
    let number: Int
    private let world: SimulatedWorld

    init(world: SimulatedWorld) {
        self.world = world
        number = world.busNumber
    }

    func device(at address: UInt8) throws(I2CError) -> any I2CDevice {
        WorldDevice(world: world, device: try world.boardDevice(at: address))
    }
}

/// A device on the simulated board, reached through the world's lock.
private final class WorldDevice: I2CDevice {
    private let world: SimulatedWorld
    private let device: any I2CDevice

    init(world: SimulatedWorld, device: any I2CDevice) {
        self.world = world
        self.device = device
    }

    var bus: Int { device.bus }
    var address: UInt8 { device.address }

    func readRegisters(_ register: UInt8, count: Int) throws(I2CError) -> RegisterBlock {
        try world.transfer { () throws(I2CError) in try device.readRegisters(register, count: count) }
    }

    func writeRegister(_ register: UInt8, _ value: UInt8) throws(I2CError) {
        try world.transfer { () throws(I2CError) in try device.writeRegister(register, value) }
    }
}
