@preconcurrency import Glibc

/// The C socket calls behind ``ControlConnection``, each wrapped once: libc returns −1 and
/// sets `errno`, which ``SystemCall/valueOrErrno(retryOnInterrupt:_:)`` reads on the spot and turns into a
/// `Result`.
enum SocketCall {
    /// The longest socket path `sockaddr_un` holds, in bytes, without the terminating NUL.
    static let maximumPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// `socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)`.
    static func makeStreamSocket() -> Result<Int32, Errno> {
        SystemCall.valueOrErrno { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
    }

    /// `connect(2)` to a filesystem path of at most ``maximumPathBytes`` bytes (the caller
    /// checks). Not retried after `EINTR`: an interrupted `connect` goes on in the background
    /// and a second call would fail with `EALREADY`.
    static func connect(_ descriptor: Int32, path: String) -> Result<Void, Errno> {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        precondition(bytes.count <= maximumPathBytes, "the caller checks the socket path's length")
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                SystemCall.valueOrErrno(retryOnInterrupt: false) {
                    Glibc.connect(descriptor, generic, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        }.map { _ in () }
    }

    /// `setsockopt(SO_RCVTIMEO)`: a `recv` that waits longer fails with `EAGAIN`. Nil waits
    /// for ever.
    static func setReceiveTimeout(_ descriptor: Int32, seconds: Double?) -> Result<Void, Errno> {
        var value = timeval(tv_sec: 0, tv_usec: 0)
        if let seconds {
            let microseconds = Int((seconds * 1_000_000).rounded())
            value = timeval(tv_sec: microseconds / 1_000_000, tv_usec: microseconds % 1_000_000)
        }
        return SystemCall.valueOrErrno {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }.map { _ in () }
    }

    /// `send(2)` with `MSG_NOSIGNAL`, so a daemon that went away is `EPIPE`, not a `SIGPIPE`
    /// that kills the client without a word; EINTR retried.
    static func send(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        SystemCall.valueOrErrno { Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
    }

    /// `recv(2)`, blocking up to the receive timeout; EINTR retried. 0 is the end of the stream.
    static func receive(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        SystemCall.valueOrErrno { recv(descriptor, buffer.baseAddress, buffer.count, 0) }
    }

    /// `shutdown(SHUT_RDWR)`: wakes a `recv` blocked on the socket in another thread, which
    /// then returns 0. Safe to call from any thread.
    static func shutdown(_ descriptor: Int32) -> Result<Void, Errno> {
        SystemCall.valueOrErrno { Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }.map { _ in () }
    }

    /// `close(2)`, never retried: after `EINTR` the descriptor is already closed on Linux, and
    /// closing it again could close one another thread just opened.
    static func close(_ descriptor: Int32) -> Result<Void, Errno> {
        SystemCall.valueOrErrno(retryOnInterrupt: false) { Glibc.close(descriptor) }.map { _ in () }
    }
}
