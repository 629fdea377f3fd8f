import ButtonInput
import ControlProtocol
import Core
import Synchronization
import SystemSupport

/// The `button` thread: reads the configured input devices (and, simulated, a pipe), takes the
/// configured keys' presses and releases through a ``GestureRecognizer`` (one for all of them:
/// the wearer has one button, whichever device it is on) and hands each gesture on. A device
/// that is missing or goes away is looked for again every ``retrySeconds``, and `STATUS` says
/// which are read.
public final class ButtonReader: Sendable {
    /// Settings, from the config file.
    public struct Settings: Sendable, Hashable {
        /// Paths, or `name:NAME` for the device the kernel calls NAME.
        public var devices: [String] = []
        /// The key codes taken as the button; every other key is left alone.
        public var keys: Set<UInt16> = []
        /// Whether the devices are grabbed (EVIOCGRAB) while read.
        public var grab = true
        public var gestures = GestureRecognizer.Settings()

        public init() {}
    }

    /// How often a missing device is looked for, seconds.
    public static let retrySeconds = 2.0
    /// Records read from one device in one read: 64 (1.5 KiB).
    public static let recordsPerRead = 64
    /// Reads from one device before the others and the clock are looked at again: a device
    /// flooding events cannot hold the thread.
    public static let readsPerWake = 16
    /// A record stamped further than this from now is dated now: a device that kept the wall
    /// clock's stamps (no EVIOCSCLOCKID) would otherwise never end a tap's gap.
    static let maximumStampSkewSeconds = 60.0

    private let settings: Settings
    private let simulated: FileDescriptor?
    private let handsFree: HandsFree
    private let logger: Logger
    private let onGesture: @Sendable (ButtonGesture) -> Void
    private let wake: (read: Int32, write: Int32)?

    /// The label `STATUS` gives the simulated button.
    public static let simulatedLabel = "simulated"

    /// A reader of `settings.devices`, and of `simulated` (a pipe's read end) when given.
    public init(
        settings: Settings, simulated: FileDescriptor?, handsFree: HandsFree, logger: Logger,
        onGesture: @escaping @Sendable (ButtonGesture) -> Void
    ) {
        self.settings = settings
        self.simulated = simulated
        self.handsFree = handsFree
        self.logger = logger
        self.onGesture = onGesture
        wake = try? SocketCall.makeWakePipe().get()
    }

    deinit {
        if let wake { for end in [wake.read, wake.write] { try? FileDescriptor(rawValue: end).close() } }
    }

    /// One device as the thread holds it.
    private final class Slot {
        let label: String
        var device: InputDevice?
        var decoder = InputEventDecoder()
        var retryAt = 0.0
        var problem: String?
        init(label: String, device: InputDevice? = nil) {
            self.label = label
            self.device = device
        }
    }

    /// Runs the thread until the task is cancelled.
    public func run() async throws {
        guard let wake, !settings.devices.isEmpty || simulated != nil else { return }
        let stopped = Atomic(false)
        try await BlockingThread.run(
            name: "button",
            onCancel: {
                stopped.store(true, ordering: .sequentiallyConsistent)
                var byte: UInt8 = 1
                _ = withUnsafeBytes(of: &byte) { try? FileDescriptor(rawValue: wake.write).write($0) }
            }
        ) {
            var slots = self.settings.devices.map { Slot(label: $0) }
            if let simulated = self.simulated {
                slots.append(Slot(label: Self.simulatedLabel, device: InputDevice(descriptor: simulated)))
                self.handsFree.setDevice(Self.simulatedLabel, name: "simulated button", problem: nil)
            }
            var recognizer = GestureRecognizer(settings: self.settings.gestures)
            var buffer = [UInt8](repeating: 0, count: Self.recordsPerRead * InputEvent.size)
            while !stopped.load(ordering: .sequentiallyConsistent) {
                let now = InputDevice.monotonicSeconds()
                for slot in slots where slot.device == nil && slot.retryAt <= now { self.open(slot, at: now) }
                let open = slots.filter { $0.device != nil }
                let deadlines = [recognizer.nextDeadline] + slots.map { $0.device == nil ? $0.retryAt : nil }
                let next = deadlines.compactMap { $0 }.min() ?? now + 1
                let milliseconds = Int32(min(1000, max(0, (next - now) * 1000).rounded(.up)))
                let ready = (try? SocketCall.waitForInput([wake.read] + open.map { $0.device!.descriptor.rawValue }, milliseconds: milliseconds).get()) ?? []
                for (slot, isReady) in zip(open, ready.dropFirst()) where isReady {
                    self.read(slot, into: &buffer, recognizer: &recognizer)
                }
                for gesture in recognizer.tick(atSeconds: InputDevice.monotonicSeconds()) { self.onGesture(gesture) }
            }
        }
    }

    /// Opens a slot's device (found by name first, for `name:`), grabs it, says so.
    private func open(_ slot: Slot, at now: Double) {
        let path: String?
        if slot.label.hasPrefix("name:") {
            path = InputDeviceList.path(named: String(slot.label.dropFirst(5)))
        } else {
            path = slot.label
        }
        do throws(Errno) {
            guard let path else { throw Errno.noSuchFileOrDirectory }
            let device = try InputDevice(path: path)
            if settings.grab, !device.grab() {
                logger.warning("cannot grab the button's device; other programs see its keys too", ["device": slot.label])
            }
            slot.device = device
            slot.decoder.reset()
            slot.problem = nil
            handsFree.setDevice(slot.label, name: device.name, problem: nil)
            logger.notice("reading the button", ["device": slot.label, "name": device.name ?? "-"])
        } catch {
            let problem = error == .noSuchFileOrDirectory ? "not found" : error.message
            slot.retryAt = now + Self.retrySeconds
            if slot.problem != problem {
                slot.problem = problem
                handsFree.setDevice(slot.label, name: nil, problem: problem)
                logger.warning("cannot read the button; looking again every \(Int(Self.retrySeconds)) s", ["device": slot.label, "error": problem])
            }
        }
    }

    /// What is waiting on a slot's device, at most ``readsPerWake`` reads; its gestures handed on.
    private func read(_ slot: Slot, into buffer: inout [UInt8], recognizer: inout GestureRecognizer) {
        guard let device = slot.device else { return }
        for _ in 0..<Self.readsPerWake {
            let result = buffer.withUnsafeMutableBytes { device.read(into: $0) }
            switch result {
            case .empty: return
            case .gone(let why):
                slot.device = nil
                slot.retryAt = InputDevice.monotonicSeconds() + Self.retrySeconds
                slot.problem = why
                // A press under way on a device that went away is no gesture.
                recognizer.reset()
                handsFree.setDevice(slot.label, name: nil, problem: why)
                logger.warning("the button's device went away; looking for it again", ["device": slot.label, "error": why])
                return
            case .bytes(let count):
                var gestures: [ButtonGesture] = []
                let now = InputDevice.monotonicSeconds()
                buffer.withUnsafeBytes { bytes in
                    slot.decoder.decode(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { event in
                        gestures += take(event, now: now, recognizer: &recognizer)
                    }
                }
                gestures.forEach(onGesture)
            }
        }
    }

    /// One record: a configured key's press or release goes to the recogniser; the kernel's
    /// "events dropped" forgets a press under way; anything else is ignored.
    private func take(_ event: InputEvent, now: Double, recognizer: inout GestureRecognizer) -> [ButtonGesture] {
        switch event.type {
        case InputEvent.key where settings.keys.contains(event.code) && (event.value == 0 || event.value == 1):
            let seconds = abs(event.seconds - now) > Self.maximumStampSkewSeconds ? now : event.seconds
            return recognizer.edge(isDown: event.value == 1, atSeconds: seconds)
        case InputEvent.synchronization where event.code == InputEvent.dropped:
            recognizer.reset()
            return []
        default:
            return []
        }
    }
}
