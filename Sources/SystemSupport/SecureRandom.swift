/// Random bytes from the kernel's cryptographic generator, for secrets (the companion's
/// session and pairing tokens), read from `/dev/urandom` (getrandom(2) is not in Swift's Glibc
/// module; since Linux 5.6 both wait only until the generator is first seeded after boot).
public enum SecureRandom {
    /// `count` random bytes.
    /// - Throws: The `Errno` that opening or reading `/dev/urandom` failed with.
    public static func bytes(_ count: Int) throws(Errno) -> [UInt8] {
        let source = try FileDescriptor.open("/dev/urandom", .readOnly)
        defer { try? source.close() }
        let bytes = try source.read(upToCount: count)
        guard bytes.count == count else { throw .ioError }
        return bytes
    }

    /// `byteCount` random bytes as lower-case hex: a token safe in a URL, a cookie and a file name.
    public static func hexToken(byteCount: Int) throws(Errno) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in try bytes(byteCount) { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }
}
