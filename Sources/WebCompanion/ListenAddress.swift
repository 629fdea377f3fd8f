@preconcurrency import Glibc

/// Where the companion listens: one IP address and a port, as `HOST:PORT` (`127.0.0.1:8740`,
/// `[::1]:8740`). A literal address, not a name: which interface a name would bind is not for a
/// resolver to decide, and the `Host` check compares against exactly this text.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address as written, without brackets: `127.0.0.1`, `::1`.
    public let host: String
    /// The TCP port; 0 lets the kernel choose (tests).
    public let port: UInt16
    /// Whether `host` is an IPv6 address.
    public let isIPv6: Bool

    /// The default: the Pi itself only. A phone reaches it once the user names the address of
    /// the network it shares with the phone (README, "The phone companion").
    public static let standard = ListenAddress(host: "127.0.0.1", port: 8740, isIPv6: false)

    private init(host: String, port: UInt16, isIPv6: Bool) {
        self.host = host
        self.port = port
        self.isIPv6 = isIPv6
    }

    /// Reads `HOST:PORT`.
    /// - Returns: nil, with `reason` set, when the text is not an IPv4 or bracketed IPv6 address
    ///   with a port from 0 to 65535.
    public init?(_ text: String, reason: inout String) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                reason = "an IPv6 address is written in brackets with its port: [::1]:8740"
                return nil
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                reason = "the port is missing: write HOST:PORT, e.g. 192.168.43.20:8740"
                return nil
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = UInt16(portText) else {
            reason = "'\(portText)' is not a port (0 to 65535)"
            return nil
        }
        let isIPv6 = text.hasPrefix("[")
        guard Self.socketAddress(String(host), port: port, isIPv6: isIPv6) != nil else {
            reason = "'\(host)' is not an \(isIPv6 ? "IPv6" : "IPv4") address (a name cannot be listened on; give the address)"
            return nil
        }
        self.init(host: String(host), port: port, isIPv6: isIPv6)
    }

    /// The same address with another port (the one the kernel chose for port 0).
    public func with(port: UInt16) -> ListenAddress { ListenAddress(host: host, port: port, isIPv6: isIPv6) }

    /// `HOST:PORT`, brackets around an IPv6 address: what browsers send as `Host`.
    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Whether every interface is meant (`0.0.0.0`, `::`): then the `Host` check knows no
    /// address of its own and only `host-names` pass.
    public var isWildcard: Bool { host == "0.0.0.0" || host == "::" }

    /// The `sockaddr` bytes for bind(2), or nil when `host` is not an address.
    static func socketAddress(_ host: String, port: UInt16, isIPv6: Bool) -> [UInt8]? {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { return nil }
            return withUnsafeBytes(of: address) { Array($0) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }

    /// The `sockaddr` bytes for bind(2).
    var socketAddressBytes: [UInt8] { Self.socketAddress(host, port: port, isIPv6: isIPv6)! }
}
