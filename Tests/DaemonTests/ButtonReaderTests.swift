import ButtonInput
import ControlProtocol
import Daemon
@preconcurrency import Glibc
import Synchronization
import SystemSupport
import Testing

/// The `button` thread on real descriptors: a pipe or a FIFO of `struct input_event` records
/// stands in for a device (no `/dev/input` on a build machine), written as the kernel writes
/// them, stamped on CLOCK_MONOTONIC.
/// In `make test`'s end-to-end phase (Makefile `END_TO_END`), one test at a time: each waits on a
/// thread of its own, which a pool busy with the unit phase's blocking tests starts too late.
@Suite("Reading a button's device", .timeLimit(.minutes(5)))
struct ButtonReaderTests {
    static let enter: UInt16 = 28

    /// A reader running on its thread, and the gestures it recognised.
    final class Harness: Sendable {
        let reader: ButtonReader
        let handsFree: HandsFree
        final class Recognised: Sendable {
            let list = Mutex<[ButtonGesture]>([])
        }
        let recognised = Recognised()
        private let task = Mutex<Task<Void, Never>?>(nil)

        /// The gestures so far.
        var gestures: [ButtonGesture] { recognised.list.withLock { $0 } }

        init(devices: [String] = [], simulated: FileDescriptor? = nil) {
            var settings = ButtonReader.Settings()
            settings.devices = devices
            settings.keys = [ButtonReaderTests.enter]
            handsFree = HandsFree(devices: devices + (simulated == nil ? [] : [ButtonReader.simulatedLabel]))
            let recognised = self.recognised
            reader = ButtonReader(
                settings: settings, simulated: simulated, handsFree: handsFree,
                logger: Logger(label: "test", level: .critical, handler: StandardErrorLogHandler()),
                onGesture: { gesture in recognised.list.withLock { $0.append(gesture) } })
            let reader = self.reader
            task.withLock { $0 = Task { try? await reader.run() } }
        }

        deinit { task.withLock { $0?.cancel() } }

        /// Waits until the thread reads its simulated device: the thread starts from a task,
        /// which a pool busy with other suites may run late.
        func started() async throws {
            #expect(try await waitForDevices(seconds: 60) { $0.contains { $0.device == ButtonReader.simulatedLabel && $0.ready } })
        }

        /// Waits until `count` gestures are in (at most `seconds`), then gives them all.
        func waitFor(_ count: Int, seconds: Double = 30) async throws -> [ButtonGesture] {
            let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
            while gestures.count < count, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            return gestures
        }

        /// Waits until `condition` holds of the button's devices in `STATUS` (at most `seconds`).
        func waitForDevices(seconds: Double = 30, _ condition: ([StatusReport.Button.Device]) -> Bool) async throws -> Bool {
            let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
            while ContinuousClock.now < deadline {
                if condition(handsFree.button?.devices ?? []) { return true }
                try await Task.sleep(for: .milliseconds(20))
            }
            return false
        }
    }

    /// A pipe whose read end stands for a device; neither end blocks.
    static func pipe() throws -> (read: FileDescriptor, write: Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(Glibc.pipe(&ends) == 0)
        for end in ends { try #require(fcntl(end, F_SETFL, O_NONBLOCK) == 0) }
        return (FileDescriptor(rawValue: ends[0]), ends[1])
    }

    /// Writes every byte, sleeping (not blocking the test's thread) while the pipe is full.
    @discardableResult
    static func write(_ bytes: [UInt8], to descriptor: Int32) async throws -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if errno == EAGAIN || errno == EINTR {
                try await Task.sleep(for: .milliseconds(1))
            } else {
                return false
            }
        }
        return true
    }

    /// A tap of `code` ending now (pressed 100 ms ago).
    static func tap(_ code: UInt16 = enter) -> [UInt8] {
        let now = InputDevice.monotonicSeconds()
        return InputEvent.keyRecords(code: code, down: true, atSeconds: now - 0.1)
            + InputEvent.keyRecords(code: code, down: false, atSeconds: now)
    }

    @Test func recordsSplitAcrossReadsAtEveryByteAreOneTap() async throws {
        let pipe = try Self.pipe()
        defer { close(pipe.write) }
        let harness = Harness(simulated: pipe.read)
        try await harness.started()
        // One byte a write, each read by itself: the decoder holds the partial records.
        for byte in Self.tap() {
            try await Self.write([byte], to: pipe.write)
            usleep(300)
        }
        #expect(try await harness.waitFor(1) == [.single])
        try await Task.sleep(for: .milliseconds(600))
        #expect(harness.gestures == [.single], "one tap, recognised once")
    }

    @Test func otherTypesOtherKeysAndRepeatsAreSkipped() async throws {
        let pipe = try Self.pipe()
        defer { close(pipe.write) }
        let harness = Harness(simulated: pipe.read)
        try await harness.started()
        let now = InputDevice.monotonicSeconds()
        var bytes: [UInt8] = []
        // EV_REL, EV_ABS, EV_MSC (a keypad's scan code), EV_LED and a type no kernel has.
        for type: UInt16 in [2, 3, 4, 0x11, 0x1f] {
            bytes += InputEvent(seconds: now - 2, type: type, code: Self.enter, value: 1).bytes
        }
        // KEY_A pressed and released, held long: not a button key.
        bytes += InputEvent.keyRecords(code: 30, down: true, atSeconds: now - 2) + InputEvent.keyRecords(code: 30, down: false, atSeconds: now - 0.5)
        // The button's key: pressed, auto-repeating (value 2) while held 1.2 s, released.
        bytes += InputEvent.keyRecords(code: Self.enter, down: true, atSeconds: now - 1.2)
        for step in 1...10 { bytes += InputEvent(seconds: now - 1.2 + Double(step) * 0.1, type: InputEvent.key, code: Self.enter, value: 2).bytes }
        bytes += InputEvent.keyRecords(code: Self.enter, down: false, atSeconds: now)
        try await Self.write(bytes, to: pipe.write)
        #expect(try await harness.waitFor(1) == [.long])
        try await Task.sleep(for: .milliseconds(600))
        #expect(harness.gestures == [.long])
    }

    @Test func theKernelDroppingEventsForgetsAPressUnderWay() async throws {
        let pipe = try Self.pipe()
        defer { close(pipe.write) }
        let harness = Harness(simulated: pipe.read)
        try await harness.started()
        let now = InputDevice.monotonicSeconds()
        // Pressed, then SYN_DROPPED: the release may have been lost, so no gesture is made of
        // what is left; the next tap counts.
        try await Self.write(
            InputEvent.keyRecords(code: Self.enter, down: true, atSeconds: now - 2)
                + InputEvent(seconds: now - 1, type: InputEvent.synchronization, code: InputEvent.dropped, value: 0).bytes
                + InputEvent.keyRecords(code: Self.enter, down: false, atSeconds: now - 0.9),
            to: pipe.write)
        try await Task.sleep(for: .milliseconds(700))
        #expect(harness.gestures.isEmpty)
        try await Self.write(Self.tap(), to: pipe.write)
        #expect(try await harness.waitFor(1) == [.single])
    }

    @Test func aFloodOfTenThousandEventsASecondLeavesThePressesExact() async throws {
        let pipe = try Self.pipe()
        defer { close(pipe.write) }
        let harness = Harness(simulated: pipe.read)
        try await harness.started()
        // 2 s at 10 000 records a second (a chattering keypad, a broken remote): other keys'
        // presses and releases, and the button's own repeats, with three real taps among them.
        let started = ContinuousClock.now
        // Stamped on the schedule, not when written: a test held up on a busy machine must not
        // bring its taps closer than the 0.6 s between them.
        let origin = InputDevice.monotonicSeconds()
        var written = 0
        for millisecond in 0..<2000 {
            let now = origin + Double(millisecond) / 1000
            var bytes: [UInt8] = []
            for index in 0..<10 {
                bytes += InputEvent(seconds: now, type: InputEvent.key, code: UInt16(30 + index), value: Int32(millisecond % 2)).bytes
            }
            if [400, 1000, 1600].contains(millisecond) {
                bytes += InputEvent.keyRecords(code: Self.enter, down: true, atSeconds: now - 0.1)
                    + InputEvent.keyRecords(code: Self.enter, down: false, atSeconds: now)
            }
            #expect(try await Self.write(bytes, to: pipe.write))
            written += 10
            // Paced to a thousand writes a second, as a device would deliver them.
            let due = started + .milliseconds(millisecond + 1)
            if ContinuousClock.now < due { try await Task.sleep(until: due) }
        }
        #expect(written == 20_000)
        #expect(try await harness.waitFor(3) == [.single, .single, .single])
        try await Task.sleep(for: .milliseconds(600))
        #expect(harness.gestures.count == 3, "nothing of the flood became a gesture")
        // The pipe was read to its end: what is left is nothing.
        var byte: UInt8 = 0
        #expect(Glibc.read(pipe.read.rawValue, &byte, 1) == -1 && errno == EAGAIN)
    }

    @Test func aDeviceThatGoesAwayIsReadAgainWhenItIsBack() async throws {
        var template = Array("/tmp/waypointd-button-XXXXXX".utf8CString)
        let directory = try #require(mkdtemp(&template).map { String(cString: $0) })
        let path = directory + "/event7"
        defer {
            unlink(path)
            rmdir(directory)
        }
        try #require(mkfifo(path, 0o600) == 0)
        let harness = Harness(devices: [path])
        // A FIFO's writer is the device's driver: opened once the reader is there.
        func connect() async throws -> Int32 {
            for _ in 0..<500 {
                let descriptor = open(path, O_WRONLY | O_NONBLOCK)
                if descriptor >= 0 { return descriptor }
                try await Task.sleep(for: .milliseconds(10))
            }
            Issue.record("the reader never opened \(path)")
            return -1
        }
        let first = try await connect()
        #expect(try await harness.waitForDevices { $0 == [StatusReport.Button.Device(device: path, name: nil, ready: true, problem: nil)] })
        try await Self.write(Self.tap(), to: first)
        #expect(try await harness.waitFor(1) == [.single])

        // Gone: the writer closes (the device's end) and the node is removed, as udev does.
        close(first)
        unlink(path)
        // Said at once ("closed by its writer"; a device says "unplugged or out of range"), and
        // 2 s later, looked for again, "not found": a busy machine may show only the second.
        #expect(try await harness.waitForDevices { $0.first?.problem == "not found" }, "looked for again, and said missing")
        #expect(harness.handsFree.button?.devices.first?.ready == false)

        // Back: the node again, a press read without a restart.
        try #require(mkfifo(path, 0o600) == 0)
        let second = try await connect()
        defer { close(second) }
        #expect(try await harness.waitForDevices { $0.first?.ready == true })
        try await Self.write(Self.tap(), to: second)
        #expect(try await harness.waitFor(2) == [.single, .single])
    }

    @Test func aReadErrorOfNoDeviceIsSaidAsUnpluggedOrOutOfRange() {
        #expect(InputDevice.problem(errno: ENODEV) == "unplugged or out of range")
        #expect(InputDevice.problem(errno: EIO) == Errno(rawValue: EIO).message)
    }
}
