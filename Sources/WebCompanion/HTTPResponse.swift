import ControlProtocol
import TextFormats

/// One HTTP response: a status, its headers and a body given whole or streamed.
public struct HTTPResponse: Sendable {
    /// What follows the headers.
    public enum Body: Sendable {
        /// These bytes.
        case bytes([UInt8])
        /// Bytes produced while the connection lasts (Server-Sent Events).
        case stream(any HTTPStream)
    }

    /// The status code: 200, 303, 401, …
    public var status: Int
    /// Headers in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Body

    /// A response from its parts.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body as it is (a reply line of the daemon, or one written here).
    public static func json(_ status: Int, _ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: .bytes(bytes))
    }

    /// A JSON body written from its value, compact, keys sorted.
    package static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        json(status, JSONWriter.bytes(value, layout: .compact))
    }

    /// The companion's own refusal: `{"error": "sentence"}`.
    public static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, .object(["error": .string(message)]))
    }

    /// The value of the first header of that name (any case), for tests.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body's bytes; empty for a stream.
    public var bytes: [UInt8] {
        if case .bytes(let bytes) = body { return bytes }
        return []
    }
}

/// A body produced while the connection lasts, read by the connection's own thread.
public protocol HTTPStream: AnyObject, Sendable {
    /// Fills `buffer` with the next bytes, waiting for them if need be.
    /// - Returns: how many bytes were written (at least 1), or nil when the stream has ended.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int?
    /// The connection is gone: whatever the stream holds can go.
    func finish()
}
