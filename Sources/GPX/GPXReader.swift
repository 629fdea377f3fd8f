/// Reads GPX 1.1 and 1.0 with expat, within limits that no file can push past: size, nesting,
/// point count and text length, each refused with an error naming where.
public enum GPXReader {
    /// How much of a file is read at most.
    public struct Limits: Sendable, Hashable {
        /// The largest file, bytes. Default 32 MiB: a 100 000-point track is about 10 MiB.
        public var maximumBytes = 32 << 20
        /// The deepest nesting of elements. Default 64 (GPX itself needs 5).
        public var maximumDepth = 64
        /// The most points (`wpt`, `rtept` and `trkpt` together). Default 100 000.
        public var maximumPoints = 100_000
        /// The longest text kept from one element (a name, a time), bytes. Default 4096.
        public var maximumTextBytes = 4096

        /// The defaults.
        public init() {}
    }

    /// Reads a GPX document.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - limits: What is refused.
    /// - Returns: Its waypoints, routes and tracks.
    /// - Throws: ``GPXError`` naming the problem and, where it has one, its place.
    public static func read(_ bytes: [UInt8], limits: Limits = Limits()) throws(GPXError) -> GPXDocument {
        guard bytes.count <= limits.maximumBytes else { throw .tooLarge(bytes: bytes.count, limit: limits.maximumBytes) }
        guard let parser = ExpatParser(limits: limits) else {
            throw .notXML(reason: "out of memory for the parser", at: GPXError.Position(line: 1, column: 1))
        }
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(GPXError) in try parser.parse(buffer) } }
        return try result.get()
    }
}
