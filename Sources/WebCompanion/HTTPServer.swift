@preconcurrency import Glibc
import CMicroHTTPD
import SystemSupport
import Synchronization

/// The companion's HTTP server: libmicrohttpd with a thread per connection, so that an event
/// stream may block its own thread waiting for the daemon's next state, and a handler may wait
/// on the control socket, without holding up anyone else. Each libmicrohttpd call is made here
/// and nowhere else; the handler sees only ``HTTPRequest`` and answers an ``HTTPResponse``.
public final class HTTPServer: @unchecked Sendable {
    // @unchecked: `daemon` is set once by start() before any connection and cleared by stop();
    // everything a connection's thread touches is its own `PendingRequest` or immutable.

    /// Every bound the server holds a client to (README and waypoint-web(8) list them).
    public struct Limits: Sendable {
        /// Connections at once, each a thread: beyond it the kernel's backlog waits, then refuses.
        public var connections = 32
        /// Connections at once from one address: room for every event stream the hub allows
        /// (``EventHub/maximumStreams``) and a browser's six requests, and no more, so that two
        /// other addresses together still leave the paired phone a few of ``connections``.
        public var connectionsPerAddress = 14
        /// A connection's request headers must all be in within this many seconds of its accept
        /// (``HeaderDeadlines``), however slowly they trickle.
        public var headerSeconds = 5
        /// A connection quiet this long is closed: a slow client cannot hold a thread for ever.
        public var quietSeconds = 30
        /// The memory of one connection, where the request line and headers must fit (about
        /// half of it): a larger header is answered 431 by the library.
        public var connectionMemoryBytes = 32 * 1024
        /// The stack of a connection's thread.
        public var threadStackBytes = 256 * 1024
        /// The largest body taken (a GPX upload); a larger one is answered 413 unread.
        public var bodyBytes = 4 * 1024 * 1024

        /// The defaults.
        public init() {}
    }

    /// Answers a request the preflight let through; runs on the connection's own thread.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse
    /// Looks at a request once its headers are in, before its body is read.
    public typealias Preflight = @Sendable (HTTPRequest) -> Admission

    /// What the preflight decided.
    public enum Admission: Sendable {
        /// Answered now, before any body is read, and the connection closed: a request without
        /// a session does not get to send megabytes first.
        case refused(HTTPResponse)
        /// Read whole and handled. Without a session the connection is closed after the answer
        /// (`Connection: close`): only a paired client keeps one open.
        case admitted(session: Bool)
    }

    private let handler: Handler
    private let preflight: Preflight
    private let limits: Limits
    private let logger: Logger
    private var daemon: OpaquePointer?
    private let deadlines: HeaderDeadlines
    /// The library's lines: one per refused connection, so bounded (``LogBudget``).
    private let logBudget = Mutex(LogBudget())
    private let created = ContinuousClock.now

    /// A server that answers with `handler`; it listens once ``start(address:tls:)`` returns.
    public init(limits: Limits = Limits(), logger: Logger, preflight: @escaping Preflight, handler: @escaping Handler) {
        self.limits = limits
        self.preflight = preflight
        self.logger = logger
        self.handler = handler
        deadlines = HeaderDeadlines(seconds: limits.headerSeconds)
    }

    deinit { stop() }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// The address it was to listen on.
        public let address: ListenAddress
        /// The system's reason.
        public let error: Errno
        public var description: String { "cannot listen on \(address): \(error)" }
    }

    /// Binds `address` and starts serving.
    /// - Parameter tls: a PEM certificate and key for HTTPS; nil for plain HTTP.
    /// - Returns: the port listened on (the kernel's choice when `address` asks for 0).
    public func start(address: ListenAddress, tls: (certificate: String, key: String)?) throws(StartError) -> UInt16 {
        precondition(daemon == nil, "the server is already running")
        do throws(Errno) {
            try deadlines.start()
        } catch {
            throw StartError(address: address, error: error)
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        var port: UInt16 = 0
        let started: OpaquePointer? = address.socketAddressBytes.withUnsafeBytes { socketAddress in
            withOptionalCString(tls?.certificate) { certificate in
                withOptionalCString(tls?.key) { key in
                    var settings = waypoint_http_settings(
                        address: socketAddress.baseAddress!.assumingMemoryBound(to: sockaddr.self),
                        ipv6: address.isIPv6 ? 1 : 0, connection_limit: UInt32(limits.connections),
                        address_limit: UInt32(limits.connectionsPerAddress),
                        timeout_seconds: UInt32(limits.quietSeconds), connection_memory_bytes: limits.connectionMemoryBytes,
                        thread_stack_bytes: limits.threadStackBytes, tls_certificate_pem: certificate, tls_key_pem: key)
                    return waypoint_http_start(
                        &settings, accessHandler, context, completedHandler, context, noticeHandler, context, logHandler, context, &port)
                }
            }
        }
        guard let started else {
            let error = Errno(rawValue: errno)
            deadlines.close()
            throw StartError(address: address, error: error)
        }
        daemon = started
        return port
    }

    /// Stops listening, closes every connection and waits for their threads. Event streams
    /// must have been told to end first (``EventHub/close()``), or their threads would wait.
    public func stop() {
        guard let daemon else { return }
        MHD_stop_daemon(daemon)
        self.daemon = nil
        deadlines.close()
    }

    /// Connections shut down so far for missing their header deadline.
    public var headerDeadlinesMissed: Int { deadlines.expiredCount }

    // MARK: - One connection's request

    /// What a request gathers between libmicrohttpd's calls: its head, read once when it came,
    /// and its body, so far.
    fileprivate final class PendingRequest {
        var request: HTTPRequest
        var tooLarge = false
        let keepAlive: Bool
        init(_ request: HTTPRequest, keepAlive: Bool) {
            self.request = request
            self.keepAlive = keepAlive
        }
    }

    fileprivate func handle(
        _ connection: OpaquePointer, url: String, method: String, upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>, state: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let stateBox = state.pointee else {
            // The headers are in: the deadline is met. A request refused now, or with a body
            // announced larger than the bound, is answered before the body is read, and the
            // connection closed.
            deadlines.disarm(UnsafeMutableRawPointer(connection))
            let head = request(connection, url: url, method: method)
            let keepAlive: Bool
            switch preflight(head) {
            case .refused(let refusal): return queue(refusal, on: connection, keepAlive: false)
            case .admitted(let session): keepAlive = session
            }
            if let length = Self.value(connection, .HEADER_KIND, "Content-Length").flatMap(Int.init), length > limits.bodyBytes {
                return queue(
                    .error(413, "the request's body is \(length) bytes; at most \(limits.bodyBytes) are taken"), on: connection, keepAlive: false)
            }
            state.pointee = Unmanaged.passRetained(PendingRequest(head, keepAlive: keepAlive)).toOpaque()
            return .YES
        }
        let pending = Unmanaged<PendingRequest>.fromOpaque(stateBox).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            if pending.request.body.count + count > limits.bodyBytes {
                pending.tooLarge = true
                pending.request.body = []
            } else if !pending.tooLarge, let upload {
                upload.withMemoryRebound(to: UInt8.self, capacity: count) {
                    pending.request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        var whole = pending.request
        whole.bodyTooLarge = pending.tooLarge
        pending.request.body = []
        let answer = handler(whole)
        // A large body's blocks were taken from this thread's arena: given back, or the memory
        // of a burst of uploads stays resident after they are gone.
        if whole.body.count >= Int(HeapPolicy.largeBlockBytes) { HeapPolicy.releaseFreeMemory() }
        return queue(answer, on: connection, keepAlive: pending.keepAlive)
    }

    /// The request's line, headers, cookies, query and client address.
    private func request(_ connection: OpaquePointer, url: String, method: String) -> HTTPRequest {
        var address = [CChar](repeating: 0, count: 64)  // INET6_ADDRSTRLEN is 46
        waypoint_http_client_address(connection, &address, address.count)
        return HTTPRequest(
            method: method, path: url, headers: Self.values(connection, .HEADER_KIND, lowercased: true),
            cookies: Self.values(connection, .COOKIE_KIND, lowercased: false),
            query: Self.values(connection, .GET_ARGUMENT_KIND, lowercased: false),
            clientAddress: String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    fileprivate func noticed(_ connection: OpaquePointer, started: Bool) {
        let key = UnsafeMutableRawPointer(connection)
        if started {
            let socket = waypoint_http_connection_socket(connection)
            if socket >= 0 { deadlines.arm(key, socket: socket) }
        } else {
            deadlines.disarm(key)
        }
    }

    fileprivate func completed(_ state: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let state, let box = state.pointee else { return }
        Unmanaged<PendingRequest>.fromOpaque(box).release()
        state.pointee = nil
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer, keepAlive: Bool) -> MHD_Result {
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { buffer in
                waypoint_http_copied_response(buffer.count, buffer.baseAddress)
            }
        case .stream(let stream):
            // Released by the library's free callback when the connection ends.
            let box = Unmanaged.passRetained(StreamBox(stream)).toOpaque()
            made = MHD_create_response_from_callback(UInt64.max, 4096, streamReader, box, streamFinished)
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers { _ = MHD_add_response_header(made, name, value) }
        if !keepAlive { _ = MHD_add_response_header(made, "Connection", "close") }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }

    fileprivate func log(_ message: String) {
        let (seconds, attoseconds) = (ContinuousClock.now - created).components
        let now = Double(seconds) + Double(attoseconds) / 1e18
        let (allowed, suppressed) = logBudget.withLock { $0.admit(at: now) }
        guard allowed else { return }
        let text = message.hasSuffix("\n") ? String(message.dropLast()) : message
        let left = suppressed > 0 ? " (and \(suppressed) more of its lines in the last minute, not logged)" : ""
        logger.warning("libmicrohttpd: \(text)\(left)")
    }

    // MARK: - Reading the library's values

    private final class ValueBox {
        var values: [String: String] = [:]
        let lowercased: Bool
        init(lowercased: Bool) { self.lowercased = lowercased }
    }

    /// The most values of one kind taken from a request: the connection's memory bounds their
    /// size already; this bounds the dictionary.
    static let maximumValues = 64

    private static func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercased: Bool) -> [String: String] {
        let box = ValueBox(lowercased: lowercased)
        _ = withExtendedLifetime(box) {
            MHD_get_connection_values(connection, kind, valueIterator, Unmanaged.passUnretained(box).toOpaque())
        }
        return box.values
    }

    private static func value(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ key: String) -> String? {
        MHD_lookup_connection_value(connection, kind, key).map { String(cString: $0) }
    }

    private static let valueIterator: MHD_KeyValueIterator = { context, _, key, value in
        let box = Unmanaged<ValueBox>.fromOpaque(context!).takeUnretainedValue()
        guard let key, box.values.count < HTTPServer.maximumValues else { return .YES }
        let name = String(cString: key)
        let keyed = box.lowercased ? name.lowercased() : name
        if box.values[keyed] == nil { box.values[keyed] = value.map { String(cString: $0) } ?? "" }
        return .YES
    }
}

/// A stream kept alive for the library's callbacks.
private final class StreamBox {
    let stream: any HTTPStream
    init(_ stream: any HTTPStream) { self.stream = stream }
}

private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}

private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, upload, uploadSize, state in
    let server = Unmanaged<HTTPServer>.fromOpaque(context!).takeUnretainedValue()
    return server.handle(
        connection!, url: String(cString: url!), method: String(cString: method!), upload: upload, uploadSize: uploadSize!,
        state: state!)
}

private let completedHandler: MHD_RequestCompletedCallback = { context, _, state, _ in
    Unmanaged<HTTPServer>.fromOpaque(context!).takeUnretainedValue().completed(state)
}

private let noticeHandler: waypoint_http_connection_notice = { context, connection, started in
    Unmanaged<HTTPServer>.fromOpaque(context!).takeUnretainedValue().noticed(connection!, started: started != 0)
}

private let logHandler: waypoint_http_log = { context, message in
    Unmanaged<HTTPServer>.fromOpaque(context!).takeUnretainedValue().log(String(cString: message!))
}

private let streamReader: MHD_ContentReaderCallback = { context, _, buffer, maximum in
    let box = Unmanaged<StreamBox>.fromOpaque(context!).takeUnretainedValue()
    guard let count = box.stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: maximum)) else {
        return -1  // MHD_CONTENT_READER_END_OF_STREAM
    }
    return count
}

private let streamFinished: MHD_ContentReaderFreeCallback = { context in
    let box = Unmanaged<StreamBox>.fromOpaque(context!).takeRetainedValue()
    box.stream.finish()
}
