/// One HTTP request as the companion's handlers see it: values only, nothing of the library
/// that read it off the connection (`HTTPServer`), so the routing is tested without a socket.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, … as sent.
    public var method: String
    /// The path without the query: `/api/status`.
    public var path: String
    /// The headers, names in lower case; the first of a repeated header.
    public var headers: [String: String]
    /// The cookies the request carries.
    public var cookies: [String: String]
    /// The query's arguments (`?token=…`), decoded.
    public var query: [String: String]
    /// The body, whole; empty when it was larger than the server takes (see `bodyTooLarge`).
    public var body: [UInt8]
    /// Whether the body was larger than ``HTTPServer/Limits/bodyBytes`` and dropped.
    public var bodyTooLarge: Bool
    /// The client's IP address as text (`192.0.2.7`); empty when unknown.
    public var clientAddress: String

    /// A request from its parts.
    public init(
        method: String, path: String, headers: [String: String] = [:], cookies: [String: String] = [:],
        query: [String: String] = [:], body: [UInt8] = [], bodyTooLarge: Bool = false, clientAddress: String = ""
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.cookies = cookies
        self.query = query
        self.body = body
        self.bodyTooLarge = bodyTooLarge
        self.clientAddress = clientAddress
    }

    /// A header's value by its lower-case name.
    public func header(_ lowercaseName: String) -> String? { headers[lowercaseName] }
}
