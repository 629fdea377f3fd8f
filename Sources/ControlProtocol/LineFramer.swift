/// Splits a byte stream into newline-terminated lines no longer than a limit.
///
/// Bytes arrive in whatever pieces the socket delivers; the lines that come out are the same
/// however the stream was split. A line longer than ``maximumLineLength`` is reported once, as
/// soon as it passes the limit, and its remaining bytes are skipped up to the next newline,
/// where framing starts afresh. The newline is not part of a line, and neither is a `\r`
/// before it (so `socat` and `nc -C` users are served too); the `\r` does count towards the
/// limit.
public struct LineFramer: Sendable {
    /// The protocol's limit on a request line in bytes, newline excluded: a route of
    /// ``ControlRequest/maximumRouteWaypoints`` unnamed waypoints fits.
    public static let defaultMaximumLineLength = 65_536

    /// One result of framing.
    public enum Frame: Sendable, Hashable {
        /// A complete line, without its newline.
        case line([UInt8])
        /// A line passed the limit; its bytes up to the next newline are discarded.
        case lineTooLong
    }

    /// The longest line accepted, in bytes, newline excluded.
    public let maximumLineLength: Int
    private var buffer: [UInt8] = []
    private var isDiscarding = false

    /// A framer with an empty buffer.
    ///
    /// - Parameter maximumLineLength: The longest line accepted, in bytes; at least 1.
    public init(maximumLineLength: Int = defaultMaximumLineLength) {
        precondition(maximumLineLength > 0, "a line limit must allow at least one byte")
        self.maximumLineLength = maximumLineLength
    }

    /// Whether bytes of an unfinished line are buffered (or being skipped): what a peer that
    /// disconnects now leaves behind.
    public var hasPartialLine: Bool { !buffer.isEmpty || isDiscarding }

    /// Takes the next bytes of the stream.
    ///
    /// - Parameter bytes: Any number of bytes, possibly none.
    /// - Returns: The frames these bytes completed, in order.
    public mutating func append(_ bytes: some Sequence<UInt8>) -> [Frame] {
        var frames: [Frame] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if isDiscarding {
                    isDiscarding = false
                } else {
                    if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
                    frames.append(.line(buffer))
                }
                buffer.removeAll(keepingCapacity: true)
            } else if isDiscarding {
                continue
            } else if buffer.count == maximumLineLength {
                frames.append(.lineTooLong)
                buffer.removeAll(keepingCapacity: true)
                isDiscarding = true
            } else {
                buffer.append(byte)
            }
        }
        return frames
    }
}
