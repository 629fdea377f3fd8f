/// Where gpsd listens: a host name or address and a TCP port.
public struct GPSServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// gpsd's registered port.
    public static let defaultPort: UInt16 = 2947
    /// gpsd on this machine.
    public static let local = GPSServerAddress(host: "127.0.0.1", port: defaultPort)

    /// Host name, IPv4 address or IPv6 address (without brackets).
    public let host: String
    /// TCP port.
    public let port: UInt16

    /// An address from its parts.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Reads `HOST`, `HOST:PORT`, `[IPV6]` or `[IPV6]:PORT`; the port defaults to 2947.
    /// - Throws: `GPSServerAddressError` naming what is wrong.
    public init(parsing text: String) throws(GPSServerAddressError) {
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw .malformed(text, "an IPv6 address needs its closing ']'") }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw .malformed(text, "expected ':PORT' after ']'") }
                portText = rest.dropFirst()
            }
        } else if let colon = host.firstIndex(of: ":") {
            guard host[host.index(after: colon)...].firstIndex(of: ":") == nil else {
                throw .malformed(text, "write an IPv6 address in brackets, e.g. [::1]:2947")
            }
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw .malformed(text, "the host is empty") }
        guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-_:".contains($0)) }) else {
            throw .malformed(text, "'\(host)' is not a host name or address")
        }
        var port = Self.defaultPort
        if let portText {
            guard let value = UInt16(portText), value > 0 else {
                throw .malformed(text, "the port '\(portText)' is not a number from 1 to 65535")
            }
            port = value
        }
        self.init(host: String(host), port: port)
    }

    /// `host:port`, with brackets around an IPv6 address.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// Why a gpsd address could not be read.
public enum GPSServerAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text and what is wrong with it.
    case malformed(String, String)

    public var description: String {
        switch self {
        case .malformed(let text, let reason): "bad gpsd address '\(text)': \(reason)"
        }
    }
}
