@preconcurrency import Glibc
import Synchronization
import SystemSupport

/// A PWM channel through the kernel's sysfs interface (/sys/class/pwm), following its rules:
/// export only when needed (reusing a channel already exported), wait until udev lets us
/// write, set `period` before `duty_cycle` ≤ period before `enable`, write duty 0 before
/// disabling, and unexport only what we exported.
///
/// `duty_cycle`, written at every pulse edge, is opened once when the channel is set up and
/// kept open until it is shut down; every other attribute is opened, written and closed.
public final class SysfsPWMChannel: PWMChannel {
    /// Which PWM controller: chip numbers change between kernels (a Pi 5 header PWM was
    /// pwmchip2 on 6.6 and pwmchip0 on 6.12), device names do not.
    public enum Chip: Sendable, Hashable, CustomStringConvertible {
        /// The only chip, or the first by name when there are several.
        case auto
        /// `pwmchipN` as the kernel numbers it now.
        case numbered(String)
        /// The controller's device name, e.g. `1f00098000.pwm` (Pi 5) or `fe20c000.pwm` (Pi 4).
        case device(String)

        /// `auto`, `pwmchipN`, or a device name.
        public init(parsing text: String) {
            if text == "auto" {
                self = .auto
            } else if text.hasPrefix("pwmchip"), Int(text.dropFirst("pwmchip".count)) != nil {
                self = .numbered(text)
            } else {
                self = .device(text)
            }
        }

        public var description: String {
            switch self {
            case .auto: "auto"
            case .numbered(let name): name
            case .device(let name): name
            }
        }
    }

    static let classDirectory = "/sys/class/pwm"
    /// How often to look whether udev has granted access.
    static let permissionPollInterval = Duration.milliseconds(20)

    public let periodNanoseconds: UInt64
    /// `pwmchipN/pwmM`, relative to the sysfs root.
    public let channelDirectory: String
    /// `channelDirectory/duty_cycle`.
    private let dutyCyclePath: String
    private let fileSystem: any SysfsFileSystem
    private let chipDirectory: String
    /// The chip in use, as /sys/class/pwm names it (`pwmchip0`), whatever selector found it.
    public let chipName: String
    private let channel: Int
    private let exportedByUs: Bool
    private let state = Mutex(State())

    /// What writes at pulse edges and shutdown share.
    private struct State {
        /// `duty_cycle`, open from the end of setup until shutdown.
        var dutyCycle: (any SysfsAttributeWriter)?
        /// `enable`, open as long, for reading back.
        var enable: (any SysfsAttributeWriter)?
        var isShutDown = false
        /// The duty last written through `dutyCycle`, nanoseconds.
        var duty: UInt64 = 0
    }

    /// Opens channel `channel` of `chip`, exporting it if needed, and sets its period with the
    /// motor off (duty 0, enabled).
    /// - Parameters:
    ///   - fileSystem: sysfs (`LinuxSysfs()` on the device).
    ///   - permissionTimeout: how long to wait for udev to grant write access after export.
    ///   - sleep: how to wait between permission checks (injected for tests).
    /// - Throws: `PWMError`; the motor is left off when a write fails midway.
    public init(
        fileSystem: any SysfsFileSystem, chip: Chip, channel: Int, periodNanoseconds: UInt64,
        permissionTimeout: Duration = .seconds(3), sleep: (Duration) -> Void = ThreadSleep.sleep(for:)
    ) throws(PWMError) {
        self.fileSystem = fileSystem
        self.channel = channel
        self.periodNanoseconds = max(periodNanoseconds, 1)
        let chipName = try Self.resolve(chip, in: fileSystem)
        self.chipName = chipName
        let chipDirectory = Self.classDirectory + "/" + chipName
        let channelDirectory = chipDirectory + "/pwm\(channel)"
        self.chipDirectory = chipDirectory
        self.channelDirectory = channelDirectory
        dutyCyclePath = channelDirectory + "/duty_cycle"

        let countText = try Self.attempt("read the channel count") { () throws(SysfsError) in
            try fileSystem.read(chipDirectory + "/npwm")
        }
        let count = Int(countText) ?? 0
        guard channel >= 0 && channel < count else {
            throw .channelOutOfRange(chip: chipName, channel: channel, count: count)
        }

        var exported = false
        if !fileSystem.exists(channelDirectory) {
            do throws(SysfsError) {
                try fileSystem.write(String(channel), to: chipDirectory + "/export")
                exported = true
            } catch {
                // EBUSY with the directory present: someone exported it meanwhile; reuse it.
                guard error.errno.rawValue == EBUSY else { throw .failed(action: "export channel \(channel)", error) }
                guard fileSystem.exists(channelDirectory) else { throw .channelClaimed(chip: chipName, channel: channel) }
            }
        }
        exportedByUs = exported
        try Self.waitUntilWritable(channelDirectory, fileSystem: fileSystem, timeout: permissionTimeout, sleep: sleep)
        do throws(PWMError) {
            try configure()
            // Once the period is set and the motor is off: from here on, duty values come often.
            let (dutyCycle, enable) = try openAttributes()
            state.withLock {
                $0.dutyCycle = dutyCycle
                $0.enable = enable
            }
        } catch {
            try? shutDownQuietly()
            throw error
        }
    }

    /// Period first (after lowering the duty if the new period is shorter), then duty 0, then
    /// enable: each write is checked by the kernel against the state before it.
    private func configure() throws(PWMError) {
        let period = UInt64(try Self.attempt("read the period") { () throws(SysfsError) in
            try fileSystem.read(channelDirectory + "/period")
        }) ?? 0
        if period != periodNanoseconds {
            if period > 0 {
                try write("0", "duty_cycle", action: "set the duty cycle to 0")
            }
            try write(String(periodNanoseconds), "period", action: "set the period to \(periodNanoseconds) ns")
        }
        try write("0", "duty_cycle", action: "set the duty cycle to 0")
        try write("1", "enable", action: "enable the output")
    }

    /// Writes through `duty_cycle` kept open: this runs at every edge of every pulse, so it
    /// neither opens a path nor allocates.
    /// - Throws: `PWMError`; after a failed write the motor has been switched off as far as
    ///   possible. After ``shutDown()``, `ENODEV` (what the kernel says for a channel unexported
    ///   under an open attribute), with nothing written.
    public func setDutyCycle(nanoseconds: UInt64) throws(PWMError) {
        let duty = min(nanoseconds, periodNanoseconds)
        // Under the lock, so that a shutdown on another thread (the stop deadline) cannot close
        // the attribute during the write, nor a write turn the motor on after the shutdown.
        let outcome: Result<Void, SysfsError>? = state.withLock { state in
            guard let dutyCycle = state.dutyCycle else { return nil }
            return Result { () throws(SysfsError) in
                try dutyCycle.write(duty)
                state.duty = duty
            }
        }
        switch outcome {
        case .success:
            return
        case .none:
            throw .failed(
                action: "set the duty cycle of a channel already shut down",
                SysfsError(path: dutyCyclePath, errno: ENODEV))
        case .failure(let error):
            // Whatever the motor is doing now was not asked for: stop it. The write that failed
            // is the error to report; a second failure while stopping adds nothing to it.
            _ = switchOff()
            throw .failed(action: "set the duty cycle", error)
        }
    }

    /// `duty_cycle` and `enable`, opened to be kept open.
    private func openAttributes() throws(PWMError) -> (any SysfsAttributeWriter, any SysfsAttributeWriter) {
        let dutyCycle = try Self.attempt("open the duty cycle") { () throws(SysfsError) in
            try fileSystem.openAttribute(dutyCyclePath)
        }
        let enable = try Self.attempt("open the output's enable") { () throws(SysfsError) in
            try fileSystem.openAttribute(channelDirectory + "/enable")
        }
        return (dutyCycle, enable)
    }

    /// Reads `duty_cycle` and `enable` back through the descriptors kept open: a write cannot
    /// tell that another program wrote the attribute, that the channel was unexported (the
    /// descriptors are then orphaned), or (on a test tree) that the file was removed. Two small
    /// reads without allocating; the player calls this about once a second while the motor is
    /// in use, never at an edge.
    public func verify() throws(PWMError) {
        let checked: Result<Void, PWMError> = state.withLock { state in
            guard !state.isShutDown, let dutyCycle = state.dutyCycle, let enable = state.enable else {
                return .failure(.failed(action: "verify a channel shut down", SysfsError(path: dutyCyclePath, errno: ENODEV)))
            }
            let written = state.duty
            let found: UInt64?
            let enabled: UInt64?
            do throws(SysfsError) {
                found = try dutyCycle.readValue()
                enabled = try enable.readValue()
            } catch {
                return .failure(.failed(action: "read back the channel", error))
            }
            // A driver may round the duty to its clock; 1 % of the period is more than any does.
            guard let found, (found > written ? found - written : written - found) <= periodNanoseconds / 100 else {
                return .failure(
                    .changedUnderneath(path: dutyCyclePath, written: String(written), found: found.map(String.init) ?? "?"))
            }
            guard enabled == 1 else {
                return .failure(
                    .changedUnderneath(
                        path: channelDirectory + "/enable", written: "1", found: enabled.map(String.init) ?? "?"))
            }
            return .success(())
        }
        try checked.get()
    }

    /// Closes `duty_cycle`, writes period, duty 0 and enable again, and opens `duty_cycle`
    /// anew: what recovers a channel unexported and exported again, or an attribute replaced.
    public func reopen() throws(PWMError) {
        let old: [any SysfsAttributeWriter] = state.withLock { state in
            defer {
                state.dutyCycle = nil
                state.enable = nil
            }
            return state.isShutDown ? [] : [state.dutyCycle, state.enable].compactMap { $0 }
        }
        // Whatever the old descriptors' close says, they are let go of; the writes below tell.
        for attribute in old { try? attribute.close() }
        if !fileSystem.exists(channelDirectory) {
            // Unexported under us (by hand, or a driver reload): export it again.
            try Self.attempt("export channel \(channel) again") { () throws(SysfsError) in
                try fileSystem.write(String(channel), to: chipDirectory + "/export")
            }
        }
        try configure()
        let (dutyCycle, enable) = try openAttributes()
        let isShutDown = state.withLock { state in
            if !state.isShutDown {
                state.dutyCycle = dutyCycle
                state.enable = enable
                state.duty = 0
            }
            return state.isShutDown
        }
        // A shutdown meanwhile wins: the new attributes are not kept.
        if isShutDown {
            try? dutyCycle.close()
            try? enable.close()
        }
    }

    public func shutDown() throws(PWMError) {
        let already = state.withLock { state in
            defer { state.isShutDown = true }
            return state.isShutDown
        }
        guard !already else { return }
        try shutDownQuietly()
    }

    /// Duty 0, then disabled (the kernel's order): both are tried.
    /// - Returns: the first failure, if any.
    private func switchOff() -> PWMError? {
        var firstError: PWMError?
        for (attribute, action) in [("duty_cycle", "set the duty cycle to 0"), ("enable", "disable the output")] {
            do throws(PWMError) { try write("0", attribute, action: action) } catch { firstError = firstError ?? error }
        }
        return firstError
    }

    /// `duty_cycle` closed, switched off, then unexported if ours: every step is tried, the first
    /// failure is thrown.
    private func shutDownQuietly() throws(PWMError) {
        // Closed first: no pulse edge can write after the switch-off below, and an attribute
        // kept open must not outlive the channel's export (its writes would fail with ENODEV).
        let closeError: SysfsError? = state.withLock { state in
            defer {
                state.dutyCycle = nil
                state.enable = nil
            }
            // `enable` is only read; its close can lose nothing.
            try? state.enable?.close()
            do throws(SysfsError) {
                try state.dutyCycle?.close()
                return nil
            } catch {
                return error
            }
        }
        var firstError = closeError.map { PWMError.failed(action: "close the duty cycle", $0) }
        if let error = switchOff() { firstError = firstError ?? error }
        if exportedByUs {
            do throws(SysfsError) {
                try fileSystem.write(String(channel), to: chipDirectory + "/unexport")
            } catch {
                firstError = firstError ?? .failed(action: "unexport channel \(channel)", error)
            }
        }
        if let firstError { throw firstError }
    }

    /// Forces a channel off without taking it over: duty 0 and disabled, if it is exported at
    /// all. For `waypointd motor-off` after a crash.
    /// - Throws: `PWMError`.
    public static func forceOff(fileSystem: any SysfsFileSystem, chip: Chip, channel: Int) throws(PWMError) {
        let directory = classDirectory + "/" + (try resolve(chip, in: fileSystem)) + "/pwm\(channel)"
        // Not exported: on the Pi's drivers the output stopped when it was unexported.
        guard fileSystem.exists(directory) else { return }
        let period = try attempt("read the period") { () throws(SysfsError) in try fileSystem.read(directory + "/period") }
        // With period 0 the channel was never configured, so it is off, and the kernel would
        // refuse both writes.
        guard period != "0" else { return }
        try attempt("set the duty cycle to 0") { () throws(SysfsError) in try fileSystem.write("0", to: directory + "/duty_cycle") }
        try attempt("disable the output") { () throws(SysfsError) in try fileSystem.write("0", to: directory + "/enable") }
    }

    // MARK: - Helpers

    private func write(_ value: String, _ attribute: String, action: String) throws(PWMError) {
        try Self.attempt(action) { () throws(SysfsError) in
            try fileSystem.write(value, to: channelDirectory + "/" + attribute)
        }
    }

    @discardableResult
    private static func attempt<T>(_ action: String, _ body: () throws(SysfsError) -> T) throws(PWMError) -> T {
        do throws(SysfsError) {
            return try body()
        } catch {
            throw .failed(action: action, error)
        }
    }

    /// The chip's directory name for a selector.
    static func resolve(_ chip: Chip, in fileSystem: any SysfsFileSystem) throws(PWMError) -> String {
        let chips = fileSystem.contents(of: classDirectory).filter { $0.hasPrefix("pwmchip") }
            .sorted { Int($0.dropFirst(7)) ?? 0 < Int($1.dropFirst(7)) ?? 0 }
        func deviceName(_ chipName: String) -> String? {
            fileSystem.linkTarget(classDirectory + "/" + chipName + "/device")?.split(separator: "/").last.map(String.init)
        }
        let found: String? = switch chip {
        case .auto: chips.first
        case .numbered(let name): chips.contains(name) ? name : nil
        case .device(let name): chips.first { deviceName($0) == name }
        }
        guard let found else {
            throw .chipNotFound(
                wanted: chip.description,
                present: chips.map { name in deviceName(name).map { "\(name) (\($0))" } ?? name },
                directory: fileSystem.onDisk(classDirectory))
        }
        return found
    }

    /// Waits, bounded, until udev has made the channel's attributes writable.
    private static func waitUntilWritable(
        _ directory: String, fileSystem: any SysfsFileSystem, timeout: Duration, sleep: (Duration) -> Void
    ) throws(PWMError) {
        var waited = Duration.zero
        let attributes = ["period", "duty_cycle", "enable"].map { directory + "/" + $0 }
        while true {
            if let blocked = attributes.first(where: { !fileSystem.isWritable($0) }) {
                guard waited < timeout else { throw .permissionTimeout(path: blocked) }
                sleep(permissionPollInterval)
                waited += permissionPollInterval
            } else {
                return
            }
        }
    }
}
