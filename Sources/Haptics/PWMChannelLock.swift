import SystemSupport

/// The one-owner rule for a motor: whoever drives a PWM chip's channels (the daemon, or
/// `waypointd motor-test`) holds an exclusive `flock` on the chip's `npwm` attribute, which
/// every user may open for reading. A second driver is refused and told who holds it; the
/// kernel drops the lock when its holder's process ends, however it ends, so a crash never
/// leaves the motor locked. `waypointd motor-off`, run by systemd after the daemon has gone,
/// finds it free.
///
/// The lock is per chip, not per channel: a channel's own attributes come and go with its
/// export, and a Pi's motor has its chip to itself (the Pi 5's fan is on another chip).
public final class PWMChannelLock: Sendable {
    private let descriptor: FileDescriptor
    /// The file locked, as given.
    public let path: String

    private init(descriptor: FileDescriptor, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { try? descriptor.close() }

    /// Takes the lock, or says who holds it.
    ///
    /// - Parameter path: The chip's `npwm` attribute, as a full path (the sysfs root included).
    /// - Returns: The lock, held until this object goes.
    /// - Throws: ``PWMError/heldElsewhere(holder:)`` when another process holds it, naming it
    ///   where `/proc/locks` does; ``PWMError/failed(action:_:)`` when the file cannot be opened
    ///   or locked.
    public static func take(_ path: String) throws(PWMError) -> PWMChannelLock {
        let descriptor: FileDescriptor
        let locked: Bool
        do throws(Errno) {
            descriptor = try FileDescriptor.open(path, .readOnly, options: [.nonBlocking])
        } catch {
            throw .failed(action: "open the PWM chip to lock it", SysfsError(path: path, errno: error.rawValue))
        }
        do throws(Errno) {
            locked = try descriptor.lockExclusivelyWithoutWaiting()
        } catch {
            try? descriptor.close()
            throw .failed(action: "lock the PWM chip", SysfsError(path: path, errno: error.rawValue))
        }
        guard locked else {
            let holder = Self.holder(of: descriptor)
            try? descriptor.close()
            throw .heldElsewhere(holder: holder)
        }
        return PWMChannelLock(descriptor: descriptor, path: path)
    }

    /// `1234 (waypointd)`, from `/proc/locks` and `/proc/1234/comm`; nil when unknown.
    private static func holder(of descriptor: FileDescriptor) -> String? {
        let reading = LinuxFileReading()
        guard let identity = try? descriptor.identity(),
            let locks = try? reading.contents(ofRegularFile: "/proc/locks", maximumBytes: 1 << 20, followingLinks: false),
            let process = identity.flockHolder(in: String(decoding: locks, as: UTF8.self))
        else { return nil }
        let command = (try? reading.contents(ofRegularFile: "/proc/\(process)/comm", maximumBytes: 64, followingLinks: false))
            .map { String(decoding: $0, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "" }
        return command.map { "\(process) (\($0))" } ?? "\(process)"
    }
}
