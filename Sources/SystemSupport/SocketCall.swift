@preconcurrency import Glibc

/// The socket calls behind ``UnixSocketListener`` and ``UnixSocketConnection``, each wrapped
/// once here: libc returns −1 and sets `errno`, which ``SystemCall/valueOrErrno(retryOnInterrupt:_:)``
/// turns into a `Result`.
///
/// `close` is not here: ``FileDescriptor/close()`` wraps it.
public enum SocketCall {
    /// `socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)`.
    static func makeStreamSocket() -> Result<Int32, Errno> {
        SystemCall.valueOrErrno {
            Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
    }

    /// `socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)`.
    static func makeDatagramSocket() -> Result<Int32, Errno> {
        SystemCall.valueOrErrno {
            Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
    }

    /// `sendto(2)` of one datagram, `MSG_DONTWAIT | MSG_NOSIGNAL`, to an address as
    /// ``withAddress(_:_:)`` reads it: a filesystem path, or an abstract name after `@` (the two
    /// forms systemd's `NOTIFY_SOCKET` takes). Allocates nothing and never blocks: the watchdog
    /// is petted from the sampling loop, and a receiver whose queue is full (EAGAIN) must not
    /// stop that loop, or the stop sequence, which notifies before it arms its deadline.
    static func sendDatagram(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, to path: String) -> Result<Void, Errno> {
        withAddress(path) { address, length in
            SystemCall.valueOrErrno {
                let flags = Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)
                return sendto(descriptor, bytes.baseAddress, bytes.count, flags, address, length)
            }.map { _ in () }
        } ?? .failure(.invalidArgument)
    }

    /// `bind(2)` to a filesystem path or an abstract `@` name. The caller has checked the path
    /// with ``withAddress(_:_:)``.
    static func bind(_ descriptor: Int32, path: String) -> Result<Void, Errno> {
        withAddress(path) { address, length in
            SystemCall.valueOrErrno { Glibc.bind(descriptor, address, length) }.map { _ in () }
        } ?? .failure(.invalidArgument)
    }

    /// `connect(2)` to a filesystem path or an abstract `@` name. Not retried after `EINTR`: an
    /// interrupted `connect` goes on in the background and a second call would fail with
    /// `EALREADY`.
    static func connect(_ descriptor: Int32, path: String) -> Result<Void, Errno> {
        withAddress(path) { address, length in
            SystemCall.valueOrErrno(retryOnInterrupt: false) { Glibc.connect(descriptor, address, length) }
                .map { _ in () }
        } ?? .failure(.invalidArgument)
    }

    /// `listen(2)`.
    static func listen(_ descriptor: Int32, backlog: Int32) -> Result<Void, Errno> {
        SystemCall.valueOrErrno { Glibc.listen(descriptor, backlog) }.map { _ in () }
    }

    /// `accept(2)`, then `FD_CLOEXEC` on the new descriptor, ignoring the peer's (unnamed)
    /// address.
    ///
    /// `accept4(…, SOCK_CLOEXEC)` would set the flag atomically, but Swift's Glibc module is
    /// built without `_GNU_SOURCE` and does not declare `accept4` (nor `pipe2`). The window
    /// between the two calls only matters to a `fork` on another thread at that instant, and
    /// Foundation's `Process` closes inherited descriptors in the child anyway.
    static func accept(_ descriptor: Int32) -> Result<Int32, Errno> {
        SystemCall.valueOrErrno { Glibc.accept(descriptor, nil, nil) }.flatMap { client in
            switch setFlags(client, closeOnExec: true, nonBlocking: false) {
            case .success: return .success(client)
            case .failure(let error):
                try? FileDescriptor(rawValue: client).close()
                return .failure(error)
            }
        }
    }

    /// `fcntl(F_SETFD, FD_CLOEXEC)` and, when asked, `fcntl(F_SETFL, O_NONBLOCK)`.
    static func setFlags(_ descriptor: Int32, closeOnExec: Bool, nonBlocking: Bool) -> Result<Void, Errno> {
        if closeOnExec {
            if case .failure(let error) = SystemCall.valueOrErrno({ fcntl(descriptor, F_SETFD, FD_CLOEXEC) }) {
                return .failure(error)
            }
        }
        if nonBlocking {
            let flags = SystemCall.valueOrErrno { fcntl(descriptor, F_GETFL) }
            guard case .success(let value) = flags else { return flags.map { _ in () } }
            return SystemCall.valueOrErrno { fcntl(descriptor, F_SETFL, value | O_NONBLOCK) }.map { _ in () }
        }
        return .success(())
    }

    /// `getsockopt(SOL_SOCKET, SO_ACCEPTCONN)`: whether a descriptor is a listening socket.
    static func isListening(_ descriptor: Int32) -> Result<Bool, Errno> {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return SystemCall.valueOrErrno { getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &value, &length) }
            .map { _ in value != 0 }
    }

    /// `setsockopt(SOL_SOCKET, SO_SNDBUF)`: the kernel's send buffer, bytes (the kernel doubles
    /// it for its bookkeeping and enforces a minimum).
    static func setSendBufferSize(_ descriptor: Int32, bytes: Int) -> Result<Void, Errno> {
        var value = Int32(clamping: bytes)
        return SystemCall.valueOrErrno {
            setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
        }.map { _ in () }
    }

    /// `setsockopt(SOL_SOCKET, SO_RCVTIMEO)`: a `recv` that waits longer fails with `EAGAIN`.
    /// Nil waits for ever (a zero `timeval`).
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

    /// `chmod(2)`.
    static func changeMode(_ path: String, permissions: UInt32) -> Result<Void, Errno> {
        SystemCall.valueOrErrno { chmod(path, mode_t(permissions)) }.map { _ in () }
    }

    /// `pipe(2)`, then `FD_CLOEXEC` and `O_NONBLOCK` on both ends (see ``accept(_:)`` on why
    /// not `pipe2`).
    public static func makeWakePipe() -> Result<(read: Int32, write: Int32), Errno> {
        var ends: [Int32] = [-1, -1]
        if case .failure(let error) = SystemCall.valueOrErrno({ pipe(&ends) }) { return .failure(error) }
        for end in ends {
            if case .failure(let error) = setFlags(end, closeOnExec: true, nonBlocking: true) {
                for end in ends { try? FileDescriptor(rawValue: end).close() }
                return .failure(error)
            }
        }
        return .success((ends[0], ends[1]))
    }

    /// `poll(2)` for input on each descriptor, waiting at most `milliseconds` (-1: no limit);
    /// EINTR retried.
    ///
    /// - Returns: For each descriptor, whether it is readable (or hung up, or failed: a read
    ///   then reports what happened); all false when the time passed.
    public static func waitForInput(_ descriptors: [Int32], milliseconds: Int32 = -1) -> Result<[Bool], Errno> {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        return SystemCall.valueOrErrno { poll(&entries, nfds_t(entries.count), milliseconds) }
            .map { _ in entries.map { $0.revents != 0 } }
    }

    /// `poll(2)` on one descriptor for `events` (`POLLIN`, `POLLOUT`), waiting at most
    /// `milliseconds` (-1: no limit); EINTR retried (with the whole wait again).
    ///
    /// - Returns: Whether the descriptor is ready, or hung up, or failed (the next call on it then
    ///   reports what happened); false when the time passed.
    static func wait(_ descriptor: Int32, for events: Int16, milliseconds: Int32) -> Result<Bool, Errno> {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        return SystemCall.valueOrErrno { poll(&entry, 1, milliseconds) }.map { $0 > 0 }
    }

    /// `recv(2)`, blocking, EINTR retried.
    static func receive(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        SystemCall.valueOrErrno { recv(descriptor, buffer.baseAddress, buffer.count, 0) }
    }

    /// `send(2)` with `MSG_DONTWAIT | MSG_NOSIGNAL`: never blocks, and a closed peer is
    /// `EPIPE` rather than a `SIGPIPE` that would kill the daemon.
    static func sendWithoutBlocking(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        SystemCall.valueOrErrno {
            send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
        }
    }

    /// `shutdown(SHUT_RDWR)`: wakes a `recv` blocked on the socket, which then returns 0.
    /// `ENOTCONN` (the peer already left) is not a failure worth reporting.
    public static func shutdown(_ descriptor: Int32) -> Result<Void, Errno> {
        SystemCall.valueOrErrno { Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }.map { _ in () }
    }

    /// The longest path a `sockaddr_un` holds, in bytes, leaving room for the terminating NUL.
    static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Builds a `sockaddr_un` for `path` and passes it to `body` with its length.
    ///
    /// A `path` that starts with `@` names the Linux abstract address made of the rest: its
    /// first byte is NUL instead, and the length is exact, since an abstract name is delimited
    /// by the length rather than by a NUL (trailing zeros would be part of the name). Any other
    /// path is a filesystem path, passed with the whole `sockaddr_un`.
    ///
    /// Copies straight from the UTF-8 view, without allocating: ``sendDatagram(_:_:to:)`` runs
    /// on the sampling loop.
    ///
    /// - Returns: `body`'s result, or nil when the path (or the name after `@`) is empty, is
    ///   longer than ``maximumPathLength`` or contains NUL.
    static func withAddress<Value>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Value
    ) -> Value? {
        let utf8 = path.utf8
        let isAbstract = utf8.first == UInt8(ascii: "@")
        guard utf8.count > (isAbstract ? 1 : 0), utf8.count <= maximumPathLength, !utf8.contains(0) else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            sunPath.copyBytes(from: utf8)
            if isAbstract { sunPath[0] = 0 }
        }
        let length =
            isAbstract
            ? MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + utf8.count
            : MemoryLayout<sockaddr_un>.size
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(length)) }
        }
    }
}
