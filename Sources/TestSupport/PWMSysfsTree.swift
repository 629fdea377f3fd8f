import Foundation
import Haptics
import Synchronization

/// A temporary `/sys/class/pwm` that behaves like the kernel's (reference/deploy.md §1.2):
///
/// - writing `export` creates `pwmN/` (EBUSY if it exists or a driver claimed it, ENODEV past
///   `npwm`), whose files stay root-only for a while, as before udev's rule has run;
/// - with `period` 0 every other write to the channel fails with EINVAL;
/// - `duty_cycle` above `period`, or `period` below `duty_cycle`, is EINVAL; `enable` takes 0 or 1;
/// - `unexport` of a channel that is not exported is ENODEV;
/// - the whole tree can be read-only (EROFS), and one write can be made to fail;
/// - an attribute kept open (``openAttribute(_:)``) is written by the same rules, and once its
///   channel is unexported its writes fail with ENODEV.
///
/// The files are real, under `root`, so a test (or another process using `LinuxSysfs(root:)`)
/// can read them. Every write is logged with its outcome, by a path or through an attribute kept
/// open alike.
public final class PWMSysfsTree: SysfsFileSystem, Sendable {
    /// One attempted write.
    public struct Write: Sendable, Equatable, CustomStringConvertible {
        public let path: String
        public let value: String
        /// 0 when it succeeded.
        public let errno: Int32
        /// Whether it went through an attribute kept open rather than by its path.
        public let throughOpenAttribute: Bool
        public var description: String { "\(path) <- \(value)" + (errno == 0 ? "" : " (errno \(errno))") }
    }

    private struct State {
        var log: [Write] = []
        /// isWritable checks left before udev "grants" access, per channel directory.
        var pendingPermission: [String: Int] = [:]
        var claimed: Set<String> = []
        var readOnly = false
        var failures: [String: Int32] = [:]
        var openFailures: [String: Int32] = [:]
        /// Attributes kept open now, by a number given at open.
        var open: [Int: String] = [:]
        var nextOpenNumber = 0
        /// Open attributes whose channel has been unexported since: their writes fail.
        var orphaned: Set<Int> = []
        /// Attributes that were still open when their channel was unexported.
        var openAtUnexport: [String] = []
    }

    /// The directory standing for `/`.
    public let root: URL
    /// isWritable checks a freshly exported channel fails before it becomes writable.
    public let udevDelayChecks: Int
    private let state = Mutex(State())

    /// A tree with chips `pwmchip0`, `pwmchip1`, … named after `devices` (e.g.
    /// `["1f00098000.pwm"]`), each with `channels` channels, none exported.
    public init(devices: [String] = ["1f00098000.pwm"], channels: Int = 4, udevDelayChecks: Int = 3) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("pwm-tree-\(UUID().uuidString)")
        self.udevDelayChecks = udevDelayChecks
        for (index, device) in devices.enumerated() {
            let chip = root.appendingPathComponent("sys/class/pwm/pwmchip\(index)")
            try FileManager.default.createDirectory(at: chip, withIntermediateDirectories: true)
            try "\(channels)\n".write(to: chip.appendingPathComponent("npwm"), atomically: false, encoding: .utf8)
            try "".write(to: chip.appendingPathComponent("export"), atomically: false, encoding: .utf8)
            try "".write(to: chip.appendingPathComponent("unexport"), atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(
                atPath: chip.appendingPathComponent("device").path,
                withDestinationPath: "../../../devices/platform/axi/1000120000.pcie/\(device)")
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Everything written so far.
    public var writes: [Write] { state.withLock { $0.log } }
    /// The attributes kept open now (``openAttribute(_:)``), sorted.
    public var openAttributes: [String] { state.withLock { $0.open.values.sorted() } }
    /// The attributes that were still open when their channel was unexported: a kept-open
    /// `duty_cycle` must be closed first.
    public var attributesOpenAtUnexport: [String] { state.withLock { $0.openAtUnexport } }
    /// Makes every write fail with EROFS, as under systemd's ProtectKernelTunables=.
    public func makeReadOnly() { state.withLock { $0.readOnly = true } }
    /// Makes the next write to `path` (relative to the root) fail with `errno`.
    public func failNextWrite(to path: String, errno: Int32) { state.withLock { $0.failures[path] = errno } }
    /// Makes the next ``openAttribute(_:)`` of `path` fail with `errno`.
    public func failNextOpen(of path: String, errno: Int32) { state.withLock { $0.openFailures[path] = errno } }
    /// Marks a channel as held by a kernel driver (export gives EBUSY and no directory).
    public func claim(chip: String, channel: Int) { state.withLock { _ = $0.claimed.insert("\(chip)/\(channel)") } }

    /// Exports a channel and configures it as another program would have, with the motor
    /// running: for tests of reuse and of `motor-off`.
    public func exportRunning(chip: String, channel: Int, periodNanoseconds: UInt64, dutyNanoseconds: UInt64) throws {
        let directory = root.appendingPathComponent("sys/class/pwm/\(chip)/pwm\(channel)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, value) in [("period", "\(periodNanoseconds)"), ("duty_cycle", "\(dutyNanoseconds)"), ("enable", "1"), ("polarity", "normal")] {
            try "\(value)\n".write(to: directory.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
    }

    /// The value of an attribute as the kernel would show it, e.g. `value("pwmchip0/pwm0/enable")`.
    public func value(_ pathBelowClass: String) -> String? {
        try? read("/sys/class/pwm/" + pathBelowClass)
    }

    // MARK: - SysfsFileSystem

    private func url(_ path: String) -> URL { root.appendingPathComponent(String(path.drop { $0 == "/" })) }

    public func read(_ path: String) throws(SysfsError) -> String {
        guard let text = try? String(contentsOf: url(path), encoding: .utf8) else {
            throw SysfsError(path: path, errno: ENOENT)
        }
        return text.trimmingCharacters(in: .newlines)
    }

    public func write(_ value: String, to path: String) throws(SysfsError) {
        try record(value, to: path, result: apply(value, to: path), throughOpenAttribute: false)
    }

    /// Opens an attribute as the kernel would let us: it must exist (ENOENT), the tree must be
    /// writable (EROFS), and udev must have granted access (EACCES); or as ``failNextOpen(of:errno:)``
    /// said.
    public func openAttribute(_ path: String) throws(SysfsError) -> any SysfsAttributeWriter {
        guard exists(path) else { throw SysfsError(path: path, errno: ENOENT) }
        let directory = (path as NSString).deletingLastPathComponent
        let opened: Result<Int, SysfsError> = state.withLock { state in
            var refusal = state.openFailures.removeValue(forKey: path)
            if refusal == nil && state.readOnly { refusal = EROFS }
            if refusal == nil && (state.pendingPermission[directory] ?? 0) > 0 { refusal = EACCES }
            if let refusal { return .failure(SysfsError(path: path, errno: refusal)) }
            state.nextOpenNumber += 1
            state.open[state.nextOpenNumber] = path
            return .success(state.nextOpenNumber)
        }
        return OpenAttribute(tree: self, path: path, number: try opened.get())
    }

    /// An attribute of the tree kept open: each write is checked and logged as a write by path
    /// is, except that once its channel has been unexported it fails with ENODEV, as the
    /// kernel's does (even if the channel has been exported again since).
    private final class OpenAttribute: SysfsAttributeWriter {
        let tree: PWMSysfsTree
        let path: String
        let number: Int
        private let isClosed = Atomic(false)

        init(tree: PWMSysfsTree, path: String, number: Int) {
            self.tree = tree
            self.path = path
            self.number = number
        }

        deinit { close() }

        func write(_ value: UInt64) throws(SysfsError) {
            precondition(!isClosed.load(ordering: .acquiring), "\(path) written after it was closed")
            let text = String(value)
            let orphaned = tree.state.withLock { $0.orphaned.contains(number) }
            let result = orphaned ? ENODEV : tree.apply(text, to: path)
            try tree.record(text, to: path, result: result, throughOpenAttribute: true)
        }

        /// What a kernel's kept-open attribute reads: ENODEV once orphaned, and here ENOENT once
        /// the file was removed (the real code finds that by the link count).
        func readValue() throws(SysfsError) -> UInt64? {
            precondition(!isClosed.load(ordering: .acquiring), "\(path) read after it was closed")
            if tree.state.withLock({ $0.orphaned.contains(number) }) { throw SysfsError(path: path, errno: ENODEV) }
            return UInt64(try tree.read(path))
        }

        func close() {
            guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
            tree.state.withLock { state in
                state.open[number] = nil
                state.orphaned.remove(number)
            }
        }
    }

    /// Logs a write and throws its errno, if any.
    private func record(
        _ value: String, to path: String, result: Int32, throughOpenAttribute: Bool
    ) throws(SysfsError) {
        state.withLock {
            $0.log.append(Write(path: path, value: value, errno: result, throughOpenAttribute: throughOpenAttribute))
        }
        if result != 0 { throw SysfsError(path: path, errno: result) }
    }

    public func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url(path).path) }

    public func isWritable(_ path: String) -> Bool {
        guard exists(path) else { return false }
        let directory = (path as NSString).deletingLastPathComponent
        return state.withLock { state in
            guard let left = state.pendingPermission[directory], left > 0 else { return true }
            state.pendingPermission[directory] = left - 1
            return false
        }
    }

    public func linkTarget(_ path: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: url(path).path)
    }

    public func contents(of directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url(directory).path)) ?? []).sorted()
    }

    // MARK: - The kernel's rules

    /// Performs a write by the rules; returns 0 or the errno.
    private func apply(_ value: String, to path: String) -> Int32 {
        let injected: Int32? = state.withLock { state in
            if state.readOnly { return EROFS }
            return state.failures.removeValue(forKey: path)
        }
        if let injected { return injected }
        let components = path.split(separator: "/").map(String.init)
        // /sys/class/pwm/pwmchipN/<attribute> or /sys/class/pwm/pwmchipN/pwmM/<attribute>
        guard components.count >= 5, components[0...2] == ["sys", "class", "pwm"] else { return ENOENT }
        let chip = components[3]
        let chipPath = "/sys/class/pwm/\(chip)"
        if components.count == 5 {
            let number = Int(value.trimmingCharacters(in: .whitespacesAndNewlines))
            let count = Int((try? read(chipPath + "/npwm")) ?? "") ?? 0
            switch components[4] {
            case "export":
                guard let number, number >= 0, number < count else { return ENODEV }
                let channelPath = chipPath + "/pwm\(number)"
                if exists(channelPath) || state.withLock({ $0.claimed.contains("\(chip)/\(number)") }) { return EBUSY }
                let directory = url(channelPath)
                try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for (name, initial) in [("period", "0"), ("duty_cycle", "0"), ("enable", "0"), ("polarity", "normal")] {
                    try? "\(initial)\n".write(to: directory.appendingPathComponent(name), atomically: false, encoding: .utf8)
                }
                state.withLock { $0.pendingPermission[channelPath] = udevDelayChecks }
                return 0
            case "unexport":
                guard let number, exists(chipPath + "/pwm\(number)") else { return ENODEV }
                state.withLock { state in
                    let channelPrefix = chipPath + "/pwm\(number)/"
                    let stillOpen = state.open.filter { $0.value.hasPrefix(channelPrefix) }
                    state.orphaned.formUnion(stillOpen.keys)
                    state.openAtUnexport += stillOpen.values.sorted()
                }
                try? FileManager.default.removeItem(at: url(chipPath + "/pwm\(number)"))
                return 0
            default:
                return EACCES
            }
        }
        let channelPath = components[0..<5].joined(separator: "/")
        guard exists("/" + channelPath), components.count == 6 else { return ENOENT }
        if state.withLock({ ($0.pendingPermission["/" + channelPath] ?? 0) > 0 }) { return EACCES }
        let attribute = components[5]
        let period = UInt64((try? read("/" + channelPath + "/period")) ?? "0") ?? 0
        let duty = UInt64((try? read("/" + channelPath + "/duty_cycle")) ?? "0") ?? 0
        let text = value.trimmingCharacters(in: .whitespacesAndNewlines)
        switch attribute {
        case "period":
            guard let newPeriod = UInt64(text), newPeriod >= duty else { return EINVAL }
        case "duty_cycle":
            guard period > 0, let newDuty = UInt64(text), newDuty <= period else { return EINVAL }
        case "enable":
            guard period > 0, text == "0" || text == "1" else { return EINVAL }
        case "polarity":
            guard period > 0, text == "normal" || text == "inversed" else { return EINVAL }
        default:
            return EACCES
        }
        do {
            try "\(text)\n".write(to: url(path), atomically: false, encoding: .utf8)
        } catch {
            return EIO
        }
        return 0
    }
}
