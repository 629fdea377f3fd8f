@preconcurrency import Glibc

/// A POSIX error number with its standard message, as a value that errors can carry.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    public let rawValue: Int32

    /// Wraps an `errno` value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    public static var current: Errno { Errno(rawValue: errno) }

    /// `strerror`'s text and the symbolic number, e.g. `Connection refused (errno 111)`.
    public var description: String {
        "\(message) (errno \(rawValue))"
    }

    /// `strerror`'s text alone, e.g. `Is a directory`: for messages to people that name the
    /// path themselves.
    public var message: String { String(cString: strerror(rawValue)) }

    /// Interrupted system call.
    public static let interrupted = Errno(rawValue: EINTR)
    /// Resource temporarily unavailable.
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    /// Broken pipe.
    public static let brokenPipe = Errno(rawValue: EPIPE)
    /// Connection reset by peer.
    public static let connectionReset = Errno(rawValue: ECONNRESET)
}
