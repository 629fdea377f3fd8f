import Foundation
@preconcurrency import Glibc

/// A datagram socket bound where `NOTIFY_SOCKET` points, standing in for systemd.
public final class NotifyListener {
    private let descriptor: Int32
    /// Where it is bound: a path, or `@name` for an abstract name; what `NOTIFY_SOCKET` holds.
    public let address: String

    /// Binds to a path, or to an abstract name when `abstract` is set.
    /// - Throws: when the socket cannot be bound.
    public init(abstract: Bool = false) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let name = "waypointd-notify-\(UUID().uuidString)"
        var bytes = Array((abstract ? "@" + name : NSTemporaryDirectory() + "/" + name).utf8)
        address = String(decoding: bytes, as: UTF8.self)
        if abstract { bytes[0] = 0 }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: bytes) }
        let length = abstract ? MemoryLayout<sa_family_t>.size + bytes.count : MemoryLayout<sockaddr_un>.size
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(length)) }
        }
        guard descriptor >= 0 && bound == 0 else {
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "cannot bind \(address)"])
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
        if !address.hasPrefix("@") { unlink(address) }
    }

    /// The next datagram, as text; nil after the 5 s timeout.
    public func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count >= 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : nil
    }
}
