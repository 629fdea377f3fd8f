import Foundation
@preconcurrency import Glibc
import Testing
import TestSupport

@testable import SystemSupport

@Suite("systemd's notify, watchdog and socket-activation protocols", .timeLimit(.minutes(5)))
struct SystemdNotifierTests {
    @Test("each message is one datagram to NOTIFY_SOCKET, a path or an abstract name", arguments: [false, true])
    func notify(abstract: Bool) throws {
        let listener = try NotifyListener(abstract: abstract)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address])
        notifier.ready(status: "guiding to Café")
        #expect(listener.receive() == "READY=1\nSTATUS=guiding to Café")
        notifier.watchdog()
        #expect(listener.receive() == "WATCHDOG=1")
        notifier.status("idle")
        #expect(listener.receive() == "STATUS=idle")
        notifier.stopping()
        #expect(listener.receive() == "STOPPING=1")
    }

    /// A Linux datagram queue holds net.unix.max_dgram_qlen (512 by default) messages; a
    /// blocking send past that would wait for a reader forever.
    @Test("a receiver that never reads does not block the sender: notifications past its full queue are dropped")
    func fullQueue() throws {
        let listener = try NotifyListener(abstract: false)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address])
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for _ in 0..<2000 { notifier.watchdog() }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "the sender blocked on a full queue")
        #expect(listener.receive() == "WATCHDOG=1", "the queued ones arrive")
    }

    @Test("the watchdog interval is WATCHDOG_USEC when WATCHDOG_PID is unset or ours")
    func watchdogInterval() {
        let pid = String(getpid())
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "5000000"]).watchdogInterval == .seconds(5))
        #expect(
            SystemdNotifier(environment: ["WATCHDOG_USEC": "2500000", "WATCHDOG_PID": pid]).watchdogInterval
                == .milliseconds(2500))
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "1"]).watchdogInterval == nil)
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "0"]).watchdogInterval == nil)
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "five"]).watchdogInterval == nil)
        #expect(SystemdNotifier(environment: [:]).watchdogInterval == nil)
    }

    @Test("socket activation passes LISTEN_FDS descriptors from 3 when LISTEN_PID is ours")
    func listenDescriptors() throws {
        let pid = String(getpid())
        // Two descriptors of our own at 3 and 4 would be what systemd passes; the test process
        // has something open there already, which is all the call needs.
        let original = fcntl(3, F_GETFD)
        try #require(original >= 0, "descriptor 3 is open in the test process")
        // Descriptor 3 is likely close-on-exec already; cleared first, the flag can only be
        // there afterwards if the call under test set it. Restored whatever happens.
        try #require(fcntl(3, F_SETFD, original & ~FD_CLOEXEC) == 0)
        defer { _ = fcntl(3, F_SETFD, original) }
        #expect(SystemdNotifier(environment: ["LISTEN_PID": pid, "LISTEN_FDS": "2"]).listenFileDescriptors() == [3, 4])
        #expect(fcntl(3, F_GETFD) & FD_CLOEXEC != 0, "passed descriptors are marked close-on-exec")
        #expect(SystemdNotifier(environment: ["LISTEN_PID": "1", "LISTEN_FDS": "1"]).listenFileDescriptors().isEmpty)
        #expect(SystemdNotifier(environment: ["LISTEN_FDS": "1"]).listenFileDescriptors().isEmpty)
        #expect(SystemdNotifier(environment: ["LISTEN_PID": pid, "LISTEN_FDS": "0"]).listenFileDescriptors().isEmpty)
        #expect(SystemdNotifier(environment: ["LISTEN_PID": pid, "LISTEN_FDS": "-1"]).listenFileDescriptors().isEmpty)
        #expect(SystemdNotifier(environment: ["LISTEN_PID": pid, "LISTEN_FDS": "x"]).listenFileDescriptors().isEmpty)
    }
}
