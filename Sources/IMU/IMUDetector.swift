@preconcurrency import Glibc
import SystemSupport

/// `imu auto`: scans a bus for the supported chips, picks a magnetometer and an accelerometer,
/// and says why, address by address, for `waypointd check`.
///
/// Rules (`reference/sensors.md` §1.1), in the order the scan applies them:
/// - 0x6A, 0x6B: WHO_AM_I (0x0F) 0x68 LSM9DS1 accelerometer/gyroscope, 0x69 LSM6DS33,
///   0x6A LSM6DSL, 0x6C LSM6DSOX.
/// - 0x68, 0x69: ICM-20948 when bank 0's WHO_AM_I (0x00) is 0xEA. Its driver's `configure()`
///   then turns bypass on, and 0x0C is probed for the AK09916 (WIA1/WIA2 0x48 0x09).
/// - 0x1C, 0x1D, 0x1E: 0x0F = 0x3D is an LSM9DS1 magnetometer when an LSM9DS1
///   accelerometer/gyroscope answered at 0x6A/0x6B, else a LIS3MDL (which has no 0x1D). At 0x1E
///   the ST identities come first, 0x4F = 0x40 LSM303AGR, then 0x0F = 0x3D as above, 0x49
///   LSM303D, 0x3C LSM303DLHC, and only then the HMC5883L's "H43" at 0x0A–0x0C, which the
///   LSM303DLHC answers too. 0x1D also holds an LSM303D (0x49).
/// - 0x19: 0x0F = 0x33 is the LSM303AGR accelerometer when 0x1E answered 0x40 at 0x4F, else the
///   LSM303DLHC's (the two, and the LIS3DH, share the identity).
/// - 0x0D: QMC5883L when 0x0D reads 0xFF.
///
/// Pairing: a board preset whose chips were all found at its addresses (told apart from a preset
/// with the same chips by the other devices on the board; with two boards' chips on the bus, the
/// first in `BoardPreset.all`), else a package's own pair (LSM9DS1,
/// LSM303AGR, LSM303DLHC, LSM303D, ICM-20948 + AK09916), else the first magnetometer with the
/// first accelerometer: a magnetometer-only chip pairs with any supported accelerometer.
///
/// ENXIO and EREMOTEIO (no acknowledgement) mean "nothing there"; other errors are reported with
/// the address and the scan goes on. Only two things are written: an ICM-20948's bank select,
/// and its configuration to reach the AK09916.
public struct IMUDetector {
    /// What one address showed.
    public struct Probe: Sendable, Hashable, CustomStringConvertible {
        /// The outcome.
        public enum Verdict: Sendable, Hashable {
            /// Nothing acknowledged (ENXIO or EREMOTEIO).
            case absent
            /// A supported chip answered with its identity.
            case accepted(IMUChip)
            /// Something answered that is not a supported chip.
            case rejected
            /// Another device of a board, acknowledged; used only to tell presets apart.
            case companion
            /// A transfer failed for a reason other than no acknowledgement.
            case failed(I2CError)
        }

        /// The 7-bit address probed.
        public var address: UInt8
        /// The outcome.
        public var verdict: Verdict
        /// What was read and why that decided the verdict.
        public var reason: String

        /// A probe from its parts.
        public init(address: UInt8, verdict: Verdict, reason: String) {
            self.address = address
            self.verdict = verdict
            self.reason = reason
        }

        /// One line of the report, e.g. `0x1C: LIS3MDL accepted: WHO_AM_I (0x0F) = 0x3D, …`.
        public var description: String {
            let address = HexByte(self.address)
            switch verdict {
            case .absent: return "\(address): nothing there (\(reason))"
            case .accepted(let chip): return "\(address): \(chip.name) accepted: \(reason)"
            case .rejected: return "\(address): rejected: \(reason)"
            case .companion: return "\(address): answers: \(reason)"
            case .failed: return "\(address): error: \(reason)"
            }
        }
    }

    /// What the scan found and chose.
    public struct Result: Sendable {
        /// The bus number.
        public var bus: Int
        /// Every probe, in order.
        public var probes: [Probe]
        /// Magnetometers found, in probe order, with their default axis maps.
        public var magnetometers: [IMUChipPlacement]
        /// Accelerometers found, in probe order, with their default axis maps.
        public var accelerometers: [IMUChipPlacement]
        /// The presets the found chips match after telling same-chip boards apart: one, or
        /// several when nothing tells them apart (their maps then agree), or none.
        public var matchingPresets: [BoardPreset]
        /// The pair to read; nil when no usable pair answered (`problem` says why).
        public var selection: IMUSelection?
        /// Why there is no selection.
        public var problem: String?
        /// Found chips that were not chosen, and why.
        public var unused: [String]

        /// The human-readable report: every address probed, the choice, and what was left out.
        public var report: String {
            var lines = ["I2C bus i2c-\(bus):"]
            lines += probes.map { "  \($0)" }
            if let selection {
                lines.append("Magnetometer: \(selection.magnetometer)")
                lines.append("Accelerometer: \(selection.accelerometer)")
                if matchingPresets.count == 1, let preset = matchingPresets.first {
                    lines.append("Board: \(preset.name) (imu \(preset.identifier))")
                } else if matchingPresets.count > 1 {
                    lines.append(
                        "Board: one of \(matchingPresets.map(\.name).joined(separator: ", ")) "
                            + "(same chips at the same addresses, same axis maps)")
                } else {
                    lines.append("Board: no preset matches; axis maps assume the accelerometer's +x forward")
                }
            } else {
                lines.append("No IMU: \(problem ?? "no usable pair")")
            }
            lines += unused.map { "Not used: \($0)" }
            return lines.joined(separator: "\n")
        }
    }

    /// Addresses of the LSM6DS family and the LSM9DS1 accelerometer/gyroscope (SA0 low, high).
    static let stInertialAddresses: [UInt8] = [0x6A, 0x6B]
    /// Addresses of the ICM-20948 (AD0 low, high).
    static let icm20948Addresses: [UInt8] = [ICM20948.defaultAddress, ICM20948.alternateAddress]
    /// Addresses where ST magnetometers answer.
    static let stMagnetometerAddresses: [UInt8] = [0x1C, 0x1D, 0x1E]
    /// The shared WHO_AM_I register of the ST parts here.
    static let stWhoAmI: UInt8 = 0x0F
    /// WHO_AM_I values at 0x6A/0x6B of parts without a driver (sensors.md §1.1), for the report.
    static let unsupportedInertialIdentities: [UInt8: String] = [
        0x6B: "ISM330DHCX", 0x73: "LSM6DSV320X", 0xD4: "LSM9DS0 gyroscope",
    ]
    /// The MPU-9250's WHO_AM_I register and value, named in the report when one sits at 0x68.
    static let mpu9250WhoAmI: (register: UInt8, value: UInt8) = (0x75, 0x71)
    /// The bits REG_BANK_SEL can hold (bank number in 5:4).
    static let bankSelectBits: UInt8 = 0x30
    /// A register read to see whether a board's other device acknowledges.
    static let companionProbeRegister: UInt8 = 0x00

    private let bus: any I2CBus
    private let pause: (Duration) -> Void

    /// A detector for `bus`.
    /// - Parameters:
    ///   - bus: the bus to scan.
    ///   - pause: blocks for a duration while the ICM-20948 resets (ThreadSleep by default; tests
    ///     pass one that returns at once).
    public init(bus: any I2CBus, pause: @escaping (Duration) -> Void = ThreadSleep.sleep(for:)) {
        self.bus = bus
        self.pause = pause
    }

    /// Scans the bus and picks a pair. Never throws: every failure is in the result's probes.
    public func detect() -> Result {
        var scan = Scan()
        scanning: do {
            for address in Self.stInertialAddresses {
                probe(address, into: &scan) { () throws(Interruption) in try stInertialVerdict(address) }
                if scan.busUnusable { break scanning }
            }
            for address in Self.icm20948Addresses {
                probe(address, into: &scan) { () throws(Interruption) in try icm20948Verdict(address) }
                if scan.busUnusable { break scanning }
                if scan.found(.icm20948, at: address),
                    !scan.probes.contains(where: { $0.address == AK09916.defaultAddress })
                {
                    probeAK09916(behind: address, into: &scan)
                }
            }
            let lsm9ds1AccelerometerGyroscope = scan.accelerometers.first { $0.chip == .lsm9ds1AccelerometerGyroscope }
            for address in Self.stMagnetometerAddresses {
                probe(address, into: &scan) { () throws(Interruption) in
                    try stMagnetometerVerdict(address, lsm9ds1AccelerometerGyroscope: lsm9ds1AccelerometerGyroscope)
                }
            }
            let agrMagnetometerFound = scan.found(.lsm303agrMagnetometer, at: LSM303AGRMagnetometer.defaultAddress)
            probe(LSM303AGRAccelerometer.defaultAddress, into: &scan) { () throws(Interruption) in
                try lsm303AccelerometerVerdict(agrMagnetometerFound: agrMagnetometerFound)
            }
            probe(QMC5883L.defaultAddress, into: &scan) { () throws(Interruption) in try qmc5883lVerdict() }
        }
        return choose(from: &scan)
    }

    // MARK: Probing

    /// Why a probe stopped early.
    private enum Interruption: Error {
        /// No acknowledgement: nothing there.
        case absent(I2CError)
        /// Any other failure.
        case failed(I2CError)
    }

    /// The state of one scan.
    private struct Scan {
        var probes: [Probe] = []
        var magnetometers: [IMUChipPlacement] = []
        var accelerometers: [IMUChipPlacement] = []
        /// Why the bus itself cannot be opened, so every address would fail alike; nil while
        /// it can.
        var busUnusableCause: String?
        var busUnusable: Bool { busUnusableCause != nil }

        func found(_ chip: IMUChip, at address: UInt8) -> Bool {
            (magnetometers + accelerometers).contains { $0.chip == chip && $0.address == address }
        }

        mutating func record(_ probe: Probe) {
            probes.append(probe)
            guard case .accepted(let chip) = probe.verdict else { return }
            let placement = IMUChipPlacement(chip, at: probe.address)
            if chip.isMagnetometer { magnetometers.append(placement) }
            if chip.isAccelerometer { accelerometers.append(placement) }
        }
    }

    /// Runs `body` for `address` and records its verdict, or the interruption as absent/failed.
    private func probe(
        _ address: UInt8, into scan: inout Scan, _ body: () throws(Interruption) -> (Probe.Verdict, String)
    ) {
        do throws(Interruption) {
            let (verdict, reason) = try body()
            scan.record(Probe(address: address, verdict: verdict, reason: reason))
        } catch {
            switch error {
            case .absent(let cause):
                scan.record(Probe(address: address, verdict: .absent, reason: cause.errno.description))
            case .failed(let cause):
                scan.record(Probe(address: address, verdict: .failed(cause), reason: Self.explain(cause)))
                // Opening the bus failed (no register involved) for a reason no other address
                // can escape: stop rather than repeat it for every address.
                if cause.register == nil, Self.busWideErrnos.contains(cause.errno.rawValue) {
                    scan.busUnusableCause = Self.explain(cause)
                }
            }
        }
    }

    /// Errors of `open` and `I2C_SLAVE` that hold for the whole bus.
    private static let busWideErrnos: Set<Int32> = [ENOENT, EACCES, EPERM, ENOTTY, ENODEV]

    private func readBytes(_ address: UInt8, _ register: UInt8, count: Int) throws(Interruption) -> RegisterBlock {
        do throws(I2CError) {
            return try bus.device(at: address).readExactly(register, count: count)
        } catch {
            throw Self.classify(error)
        }
    }

    private func readByte(_ address: UInt8, _ register: UInt8) throws(Interruption) -> UInt8 {
        try readBytes(address, register, count: 1)[0]
    }

    private static func classify(_ error: I2CError) -> Interruption {
        // The kernel's i2c drivers report a missing acknowledgement as ENXIO (address phase) or
        // EREMOTEIO (i2c-bcm2835 and others).
        error.errno.rawValue == ENXIO || error.errno.rawValue == EREMOTEIO ? .absent(error) : .failed(error)
    }

    /// An error and, for the errnos a Pi user meets, what to do about it.
    static func explain(_ error: I2CError) -> String {
        let hint: String?
        switch error.errno.rawValue {
        case ENOENT: hint = "no such bus; enable I2C (dtparam=i2c_arm=on) or pick another bus"
        case EACCES, EPERM: hint = "permission denied; run as a member of the i2c group"
        case EBUSY: hint = "a kernel driver has claimed this address (e.g. a Sense HAT overlay); unbind it"
        case ETIMEDOUT: hint = "the bus timed out; check wiring, power and pull-ups"
        case EIO: hint = "transfer error; check wiring and power"
        default: hint = nil
        }
        return "\(error)" + (hint.map { "; \($0)" } ?? "")
    }

    /// 0x6A/0x6B: the LSM6DS family or the LSM9DS1 accelerometer/gyroscope, by WHO_AM_I.
    private func stInertialVerdict(_ address: UInt8) throws(Interruption) -> (Probe.Verdict, String) {
        let identity = try readByte(address, Self.stWhoAmI)
        let reason = "WHO_AM_I (\(HexByte(Self.stWhoAmI))) = \(HexByte(identity))"
        let candidates: [(IMUChip, UInt8)] = [
            (.lsm9ds1AccelerometerGyroscope, LSM9DS1AccelerometerGyroscope.expectedIdentity),
            (.lsm6ds33, LSM6DS33.expectedIdentity), (.lsm6dsl, LSM6DSL.expectedIdentity),
            (.lsm6dsox, LSM6DSOX.expectedIdentity),
        ]
        if let (chip, _) = candidates.first(where: { $0.1 == identity }) { return (.accepted(chip), reason) }
        if let name = Self.unsupportedInertialIdentities[identity] {
            return (.rejected, "\(reason): \(name), which has no driver")
        }
        return (.rejected, "\(reason): not a supported chip")
    }

    /// 0x68/0x69: an ICM-20948. Only a chip whose REG_BANK_SEL reads like one is asked to switch
    /// banks, so a real-time clock or other part at 0x68 is never written to.
    private func icm20948Verdict(_ address: UInt8) throws(Interruption) -> (Probe.Verdict, String) {
        let bankSelect = try readByte(address, ICM20948.Register.regBankSel.address)
        if bankSelect & ~Self.bankSelectBits == 0 {
            let isICM20948: Bool
            do throws(I2CError) {
                isICM20948 = try ICM20948(device: bus.device(at: address), pause: pause).hasExpectedIdentity()
            } catch {
                throw Self.classify(error)
            }
            if isICM20948 {
                return (
                    .accepted(.icm20948),
                    "WHO_AM_I (bank 0, 0x00) = \(HexByte(ICM20948.expectedIdentity))"
                        + (bankSelect == 0 ? "" : " after selecting bank 0 (it was in bank \(bankSelect >> 4))")
                )
            }
        }
        let mpuIdentity = try readByte(address, Self.mpu9250WhoAmI.register)
        if mpuIdentity == Self.mpu9250WhoAmI.value {
            return (.rejected, "MPU-9250 (WHO_AM_I 0x75 = 0x71), which has no driver")
        }
        return (
            .rejected,
            "not an ICM-20948 (REG_BANK_SEL 0x7F = \(HexByte(bankSelect))) nor an MPU-9250 "
                + "(0x75 = \(HexByte(mpuIdentity))); perhaps a real-time clock"
        )
    }

    /// Configures the ICM-20948 at `host` (which turns bypass on) and looks for the AK09916 at
    /// 0x0C.
    private func probeAK09916(behind host: UInt8, into scan: inout Scan) {
        let address = AK09916.defaultAddress
        do throws(I2CError) {
            try ICM20948(device: bus.device(at: host), pause: pause).configure()
        } catch {
            scan.record(
                Probe(
                    address: address, verdict: .failed(error),
                    reason: "could not enable bypass on the ICM-20948 at \(HexByte(host)): \(Self.explain(error))"))
            return
        }
        probe(address, into: &scan) { () throws(Interruption) in
            let identity = try readBytes(address, AK09916.Register.wia1.rawValue, count: AK09916.expectedIdentity.count)
            let reason = "WIA1/WIA2 = \(HexByte.list(identity)), behind the ICM-20948 at \(HexByte(host)) in bypass"
            return identity == AK09916.expectedIdentity ? (.accepted(.ak09916), reason) : (.rejected, reason)
        }
    }

    /// 0x1C/0x1D/0x1E: the ST magnetometers and, at 0x1E, the HMC5883L.
    private func stMagnetometerVerdict(
        _ address: UInt8, lsm9ds1AccelerometerGyroscope: IMUChipPlacement?
    ) throws(Interruption) -> (Probe.Verdict, String) {
        var seen: [String] = []
        if address == LSM303AGRMagnetometer.defaultAddress {
            let register = LSM303AGRMagnetometer.Register.whoAmIM.rawValue
            let identity = try readByte(address, register)
            let reading = "WHO_AM_I_M (\(HexByte(register))) = \(HexByte(identity))"
            if identity == LSM303AGRMagnetometer.expectedIdentity {
                return (.accepted(.lsm303agrMagnetometer), reading)
            }
            seen.append(reading)
        }
        let identity = try readByte(address, Self.stWhoAmI)
        let reading = "WHO_AM_I (\(HexByte(Self.stWhoAmI))) = \(HexByte(identity))"
        switch identity {
        case LIS3MDL.expectedIdentity:
            // LIS3MDL and the LSM9DS1 magnetometer share 0x3D; the LSM9DS1's other die decides.
            if let partner = lsm9ds1AccelerometerGyroscope {
                return (
                    .accepted(.lsm9ds1Magnetometer),
                    "\(reading), shared with LIS3MDL; the LSM9DS1 accelerometer/gyroscope answers at "
                        + "\(HexByte(partner.address))"
                )
            }
            if address == IMUChip.lsm9ds1MagnetometerSA1 {
                return (.accepted(.lsm9ds1Magnetometer), "\(reading) at an address only the LSM9DS1 uses")
            }
            return (
                .accepted(.lis3mdl),
                "\(reading), shared with the LSM9DS1 magnetometer; no LSM9DS1 accelerometer/gyroscope "
                    + "(\(HexByte(LSM9DS1AccelerometerGyroscope.expectedIdentity))) answers at 0x6A/0x6B"
            )
        case LSM303D.expectedIdentity where address != LIS3MDL.defaultAddress:
            return (.accepted(.lsm303d), "\(reading), shared with the LSM9DS0's XM die")
        case LSM303DLHCMagnetometer.expectedIdentity where address == LSM303DLHCMagnetometer.defaultAddress:
            return (.accepted(.lsm303dlhcMagnetometer), "\(reading) (undocumented, checked before the HMC5883L's ID)")
        default:
            seen.append(reading)
        }
        if address == HMC5883L.defaultAddress {
            let register = HMC5883L.Register.identificationA.rawValue
            let identification = try readBytes(address, register, count: HMC5883L.expectedIdentity.count)
            let reading = "identification A–C (\(HexByte(register))…) = \(HexByte.list(identification))"
            if identification == HMC5883L.expectedIdentity {
                return (.accepted(.hmc5883l), "no ST identity (\(seen.joined(separator: ", "))); \(reading) (\"H43\")")
            }
            seen.append(reading)
        }
        return (.rejected, "\(seen.joined(separator: ", ")): no supported identity")
    }

    /// 0x19: the LSM303AGR or LSM303DLHC accelerometer, told apart by the magnetometer at 0x1E.
    private func lsm303AccelerometerVerdict(agrMagnetometerFound: Bool) throws(Interruption) -> (Probe.Verdict, String)
    {
        let address = LSM303AGRAccelerometer.defaultAddress
        let identity = try readByte(address, Self.stWhoAmI)
        let reading = "WHO_AM_I_A (\(HexByte(Self.stWhoAmI))) = \(HexByte(identity))"
        guard identity == LSM303AGRAccelerometer.expectedIdentity else {
            return (.rejected, "\(reading): not a supported chip")
        }
        if agrMagnetometerFound {
            return (
                .accepted(.lsm303agrAccelerometer),
                "\(reading), shared with the LSM303DLHC; 0x1E answered "
                    + "\(HexByte(LSM303AGRMagnetometer.expectedIdentity)) at 0x4F (LSM303AGR)"
            )
        }
        return (
            .accepted(.lsm303dlhcAccelerometer),
            "\(reading), shared with the LSM303AGR; 0x1E did not answer "
                + "\(HexByte(LSM303AGRMagnetometer.expectedIdentity)) at 0x4F, so LSM303DLHC"
        )
    }

    /// 0x0D: the QMC5883L.
    private func qmc5883lVerdict() throws(Interruption) -> (Probe.Verdict, String) {
        let register = QMC5883L.Register.chipID.rawValue
        let identity = try readByte(QMC5883L.defaultAddress, register)
        let reading = "chip ID (\(HexByte(register))) = \(HexByte(identity))"
        return identity == QMC5883L.expectedIdentity ? (.accepted(.qmc5883l), reading) : (.rejected, reading)
    }

    /// Whether anything acknowledges `address`, recorded as a companion probe.
    private func companionAnswers(_ address: UInt8, into scan: inout Scan) -> Bool {
        if let earlier = scan.probes.first(where: { $0.address == address }) {
            if case .absent = earlier.verdict { return false }
            return true
        }
        var answered = false
        probe(address, into: &scan) { () throws(Interruption) in
            _ = try readByte(address, Self.companionProbeRegister)
            answered = true
            return (.companion, "acknowledged a read of \(HexByte(Self.companionProbeRegister)); not an IMU chip")
        }
        return answered
    }

    // MARK: Choosing

    private func choose(from scan: inout Scan) -> Result {
        var result = Result(
            bus: bus.number, probes: [], magnetometers: scan.magnetometers, accelerometers: scan.accelerometers,
            matchingPresets: [], selection: nil, problem: nil, unused: [])
        if let cause = scan.busUnusableCause {
            // The problem stands alone (status shows it without the probes): the cause in it.
            result.problem = "i2c-\(bus.number) cannot be used: \(cause)"
            return finish(result, scan: scan)
        }
        guard let firstMagnetometer = scan.magnetometers.first else {
            result.problem = "no supported magnetometer answered"
            result.unused = scan.accelerometers.map {
                "\($0.chip.name) at \(HexByte($0.address)): no magnetometer to pair it with"
            }
            return finish(result, scan: scan)
        }
        guard let firstAccelerometer = scan.accelerometers.first else {
            result.problem = "no supported accelerometer answered to pair with the magnetometer"
            result.unused = scan.magnetometers.map {
                "\($0.chip.name) at \(HexByte($0.address)): no accelerometer to pair it with"
            }
            return finish(result, scan: scan)
        }

        var presets = BoardPreset.all.filter {
            scan.found($0.magnetometer.chip, at: $0.magnetometer.address)
                && scan.found($0.accelerometer.chip, at: $0.accelerometer.address)
        }
        if presets.count > 1 {
            // Boards with the same chips at the same addresses (or stacked boards): the other
            // devices on a board decide.
            let confirmed = presets.filter { preset in
                preset.companionAddresses.contains { companionAnswers($0, into: &scan) }
            }
            if !confirmed.isEmpty { presets = confirmed }
        }
        // The first preset wins; the others stay candidates only if nothing tells them from it.
        if let first = presets.first {
            presets = presets.filter {
                $0.magnetometer.isSameChip(as: first.magnetometer)
                    && $0.accelerometer.isSameChip(as: first.accelerometer)
            }
        }
        result.matchingPresets = presets

        if let preset = presets.first {
            var selection = preset.selection
            selection.boardName = presets.count == 1 ? preset.name : presets.map(\.name).joined(separator: " or ")
            result.selection = selection
        } else if let pair = packagePair(in: scan) {
            result.selection = pair
        } else {
            result.selection = IMUSelection(magnetometer: firstMagnetometer, accelerometer: firstAccelerometer)
        }
        return finish(result, scan: scan)
    }

    /// A magnetometer found together with the other die of its package.
    private func packagePair(in scan: Scan) -> IMUSelection? {
        for magnetometer in scan.magnetometers {
            guard let partner = magnetometer.chip.packagePartner else { continue }
            // The LSM303D is its own partner and must be the same chip; the other pairs sit at
            // addresses of their own.
            let accelerometer = scan.accelerometers.first {
                $0.chip == partner && (partner != magnetometer.chip || $0.address == magnetometer.address)
            }
            if let accelerometer { return IMUSelection(magnetometer: magnetometer, accelerometer: accelerometer) }
        }
        return nil
    }

    /// Lists the found chips the selection leaves out.
    private func finish(_ result: Result, scan: Scan) -> Result {
        var result = result
        result.probes = scan.probes
        guard let selection = result.selection else { return result }
        let chosen = [selection.magnetometer, selection.accelerometer]
        let chosenText = chosen.map { "\($0.chip.name) at \(HexByte($0.address))" }.joined(separator: " and ")
        var listed: [IMUChipPlacement] = []
        // An LSM303D is in both lists; it is named once.
        for found in scan.magnetometers + scan.accelerometers
        where !(chosen + listed).contains(where: { $0.isSameChip(as: found) }) {
            listed.append(found)
            result.unused.append("\(found.chip.name) at \(HexByte(found.address)): \(chosenText) were chosen")
        }
        return result
    }
}

extension IMUChipPlacement {
    /// Whether both name the same chip at the same address, whatever their axis maps.
    fileprivate func isSameChip(as other: IMUChipPlacement) -> Bool { chip == other.chip && address == other.address }
}
