/// A GPX `trk`: a recorded path, in segments (a new one after the receiver lost its fix).
public struct GPXTrack: Sendable, Hashable {
    /// `name`.
    public var name: String?
    /// `trkseg`, each its `trkpt` in order.
    public var segments: [[GPXPoint]]

    /// A track from its parts.
    public init(name: String? = nil, segments: [[GPXPoint]] = []) {
        self.name = name
        self.segments = segments
    }
}
