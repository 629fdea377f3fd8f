import ControlProtocol

/// A blocking connection to the daemon's control socket: lines out, replies in.
///
/// Not for sharing between threads, except ``interrupt()``, which another thread may call to
/// wake a ``receive()`` that is waiting.
final class ControlConnection {
    /// One line the daemon sent: the reply it decodes to, and the bytes as they arrived (for
    /// `status --json`).
    struct Received {
        /// The decoded reply.
        let reply: ControlReply
        /// The line's bytes, without the newline.
        let line: [UInt8]
    }

    /// The socket path, for messages.
    let path: String
    private let descriptor: Int32
    private var framer = LineFramer()
    private var pending: [LineFramer.Frame] = []
    private var receiveTimeoutSeconds: Double?
    /// How many bytes one `recv` asks for: a STATUS line is a few hundred.
    private static let receiveChunkBytes = 4096

    /// Connects to the socket at `path`.
    /// - Parameters:
    ///   - path: The daemon's control socket.
    ///   - receiveTimeoutSeconds: How long ``receive()`` waits for a line; nil for ever.
    /// - Throws: ``ConnectionError`` when the path is too long or the connection fails.
    init(path: String, receiveTimeoutSeconds: Double?) throws(ConnectionError) {
        self.path = path
        guard path.utf8.count <= SocketCall.maximumPathBytes else { throw .pathTooLong(path: path) }
        let descriptor: Int32
        switch SocketCall.makeStreamSocket() {
        case .success(let value): descriptor = value
        case .failure(let error): throw .socketFailed(error)
        }
        if case .failure(let error) = SocketCall.connect(descriptor, path: path) {
            _ = SocketCall.close(descriptor)
            throw .connectFailed(path: path, error)
        }
        self.descriptor = descriptor
        try setReceiveTimeout(seconds: receiveTimeoutSeconds)
    }

    deinit {
        // Nothing useful can be done about a failed close of a socket we only read and wrote.
        _ = SocketCall.close(descriptor)
    }

    /// Changes how long ``receive()`` waits; nil waits for ever.
    /// - Throws: ``ConnectionError/setupFailed(path:_:)``.
    func setReceiveTimeout(seconds: Double?) throws(ConnectionError) {
        if case .failure(let error) = SocketCall.setReceiveTimeout(descriptor, seconds: seconds) {
            throw .setupFailed(path: path, error)
        }
        receiveTimeoutSeconds = seconds
    }

    /// Sends one request line.
    /// - Throws: ``ConnectionError/sendFailed(path:_:)``.
    func send(_ request: ControlRequest) throws(ConnectionError) {
        let bytes = request.line
        var sent = 0
        while sent < bytes.count {
            let result = bytes[sent...].withUnsafeBytes { SocketCall.send(descriptor, $0) }
            switch result {
            case .success(let count): sent += count
            case .failure(let error): throw .sendFailed(path: path, error)
            }
        }
    }

    /// Waits for the next line and decodes it.
    /// - Throws: ``ConnectionError``: timed out, closed, too long, unreadable.
    func receive() throws(ConnectionError) -> Received {
        while pending.isEmpty {
            var chunk = [UInt8](repeating: 0, count: Self.receiveChunkBytes)
            let result = chunk.withUnsafeMutableBytes { SocketCall.receive(descriptor, into: $0) }
            switch result {
            case .success(0):
                throw .closed(path: path)
            case .success(let count):
                pending = framer.append(chunk[..<count])
            case .failure(.wouldBlock):
                throw .timedOut(path: path, seconds: receiveTimeoutSeconds ?? 0)
            case .failure(let error):
                throw .receiveFailed(path: path, error)
            }
        }
        switch pending.removeFirst() {
        case .lineTooLong:
            throw .lineTooLong(path: path)
        case .line(let line):
            do throws(ReplyDecodingError) {
                return Received(reply: try ControlReply(line: line), line: line)
            } catch {
                throw .badReply(path: path, error)
            }
        }
    }

    /// Wakes a ``receive()`` blocked in another thread, which then reports the connection
    /// closed: how a signal source's handler ends `watch`.
    ///
    /// Holds the bare descriptor: use it only while this connection is alive.
    struct Interrupter: Sendable {
        fileprivate let descriptor: Int32

        /// Shuts the socket down in both directions.
        func interrupt() {
            // Fails only for a descriptor that is not a connected socket: then nothing waits on it.
            _ = SocketCall.shutdown(descriptor)
        }
    }

    /// An ``Interrupter`` for this connection.
    var interrupter: Interrupter { Interrupter(descriptor: descriptor) }
}
