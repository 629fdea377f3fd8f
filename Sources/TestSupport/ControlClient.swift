import Foundation

/// A client of the daemon's control socket for end-to-end tests: one JSON object per line.
public final class ControlClient {
    private let descriptor: Int32
    private var buffer = Data()

    /// Connects to the UNIX socket at `path`.
    /// - Parameter receiveTimeoutSeconds: how long ``receive()`` waits for a line before it
    ///   gives up and returns nil, so a test fails instead of hanging.
    /// - Throws: `ExternalTool.Missing`-style errors as NSError with the errno.
    public init(path: String, receiveTimeoutSeconds: Int = 10) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let error = errno
            close(descriptor)
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(error))
        }
    }

    deinit { close(descriptor) }

    /// Sends one request line.
    public func send(_ json: String) { send(bytes: Array((json + "\n").utf8)) }

    /// Sends bytes as they are: a partial line, invalid UTF-8.
    public func send(bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Says it will send nothing more (shutdown for writing), as `echo … | socat - UNIX-CONNECT:…`
    /// and `nc -N -U` do after their input ends; replies can still be read.
    public func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    /// Reads one reply line as a JSON object (nil at end of stream, after the receive timeout,
    /// or on bad JSON).
    public func receive() -> [String: Any]? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                return (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any]
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// Sends a request and returns the reply.
    public func request(_ json: String) -> [String: Any]? {
        send(json)
        return receive()
    }
}
