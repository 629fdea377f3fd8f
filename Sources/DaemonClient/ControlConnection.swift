import ControlProtocol
import SystemSupport

/// A blocking connection to the daemon's control socket: lines out, replies in.
///
/// Not for sharing between threads, except ``interrupt()``, which another thread may call to
/// wake a ``receive()`` that is waiting.
public final class ControlConnection {
    /// One line the daemon sent: the reply it decodes to, and the bytes as they arrived (for
    /// `status --json`).
    public struct Received {
        /// The decoded reply, its strings escaped for printing (``PlaceName/printable(_:)``).
        public let reply: ControlReply
        /// The line's bytes, without the newline.
        public let line: [UInt8]
    }

    /// The socket path, for messages.
    public let path: String
    private let socket: UnixSocketConnection
    private var framer = LineFramer(maximumLineLength: ControlReply.maximumLineLength)
    private var pending: [LineFramer.Frame] = []
    private var receiveTimeoutSeconds: Double?
    /// How many bytes one `recv` asks for: a STATUS line is a few hundred.
    private static let receiveChunkBytes = 4096

    /// Connects to the socket at `path`.
    /// - Parameters:
    ///   - path: The daemon's control socket.
    ///   - receiveTimeoutSeconds: How long ``receive()`` waits for a line; nil for ever.
    /// - Throws: ``ConnectionError`` when the path is too long or the connection fails.
    public init(path: String, receiveTimeoutSeconds: Double?) throws(ConnectionError) {
        self.path = path
        guard path.utf8.count <= UnixSocketConnection.maximumPathLength else { throw .pathTooLong(path: path) }
        do throws(UnixSocketError) {
            socket = try UnixSocketConnection.connect(to: path)
        } catch {
            switch error {
            case .createFailed(let error): throw .socketFailed(error)
            case .connectFailed(_, let error):
                // connect(2) says only "refused" for a directory or a file given as the socket.
                if error == .connectionRefused, let kind = try? FileSystem.kind(of: path), kind != .other {
                    throw .notASocket(path: path, kind)
                }
                throw .connectFailed(path: path, error)
            // Empty or containing NUL: `Arguments` lets neither through, but say so if one comes.
            case .invalidPath: throw .connectFailed(path: path, .invalidArgument)
            default: preconditionFailure("UnixSocketConnection.connect threw a listener's error: \(error)")
            }
        }
        try setReceiveTimeout(seconds: receiveTimeoutSeconds)
    }

    deinit {
        socket.close()
    }

    /// Changes how long ``receive()`` waits; nil waits for ever.
    /// - Throws: ``ConnectionError/setupFailed(path:_:)``.
    public func setReceiveTimeout(seconds: Double?) throws(ConnectionError) {
        do throws(Errno) {
            try socket.setReceiveTimeout(seconds: seconds)
        } catch {
            throw .setupFailed(path: path, error)
        }
        receiveTimeoutSeconds = seconds
    }

    /// Sends one request line.
    ///
    /// The send never blocks: a line of a few hundred bytes, with no earlier request unanswered,
    /// always fits the kernel's buffer, so anything short of all of it sent is a failure.
    /// `MSG_NOSIGNAL` makes a daemon that went away `EPIPE`, not a `SIGPIPE` that would end the
    /// client without a word.
    /// - Throws: ``ConnectionError/sendFailed(path:_:)``.
    public func send(_ request: ControlRequest) throws(ConnectionError) {
        switch socket.send(request.line) {
        case .sent:
            return
        case .droppedFailed(let error):
            throw .sendFailed(path: path, error)
        case .queued, .droppedOverLimit:
            // The daemon stopped reading: the rest of the line would never reach it.
            socket.shutdown()
            throw .sendFailed(path: path, .wouldBlock)
        case .closed:
            // Shut down by ``Interrupter/interrupt()``: what `send` on such a socket reports.
            throw .sendFailed(path: path, .brokenPipe)
        }
    }

    /// Waits for the next line and decodes it.
    /// - Throws: ``ConnectionError``: timed out, closed, too long, unreadable.
    public func receive() throws(ConnectionError) -> Received {
        while pending.isEmpty {
            var chunk = [UInt8](repeating: 0, count: Self.receiveChunkBytes)
            let result = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try socket.receive(into: buffer) }
            }
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
                // Printable: every string a person will see is escaped here, once, for all.
                return Received(reply: try ControlReply(line: line, printable: true), line: line)
            } catch {
                throw .badReply(path: path, error)
            }
        }
    }

    /// Whether something waits to be read that no request asked for (a `timeout` error the
    /// daemon sends a quiet client before closing it, or the end of the stream): such a
    /// connection is not one to send a request on. Does not wait.
    public var hasUnreadInput: Bool {
        guard pending.isEmpty else { return true }
        do throws(Errno) {
            return try socket.waitForInput(timeout: .zero)
        } catch {
            return true
        }
    }

    /// Wakes a ``receive()`` blocked in another thread, which then reports the connection
    /// closed: how a signal source's handler ends `watch`.
    ///
    /// Safe at any time: once the connection is closed, interrupting it does nothing.
    public struct Interrupter: Sendable {
        fileprivate let socket: UnixSocketConnection

        /// Shuts the socket down in both directions.
        public func interrupt() {
            socket.shutdown()
        }
    }

    /// An ``Interrupter`` for this connection.
    public var interrupter: Interrupter { Interrupter(socket: socket) }
}
