import Geodesy

/// Coordinates most likely typed longitude first: thousands of kilometres from the wearer,
/// while the same two numbers the other way round are within a walk (`2.2945 48.8584` in
/// Paris). Both clients ask this before they set such a destination, so that the wearer does
/// not feel the accepted pattern and walk on toward nothing: `waypointctl go` refuses unless
/// `--force`, the page offers the two readings to choose from. Pure.
public struct LikelySwap: Sendable, Equatable {
    /// A destination at least this far from the fix may have been swapped.
    public static let implausibleDistanceMeters = 1_000_000.0
    /// ...when the swapped point is at most this far: a walk's length.
    public static let plausibleDistanceMeters = 100_000.0

    /// The destination as given.
    public let typed: Coordinate
    /// The same numbers, latitude first.
    public let meant: Coordinate
    /// How far each is from the fix, metres.
    public let typedMeters: Double
    public let meantMeters: Double

    /// The swap `destination` most likely is, seen from `fix`; nil when it is not one (near
    /// enough as given, or the swap no nearer, or a longitude no latitude can be).
    public init?(destination: Coordinate, fix: Coordinate) {
        guard destination.longitudeDegrees.magnitude <= Coordinate.latitudeLimitDegrees else { return nil }
        let meant = Coordinate(uncheckedLatitudeDegrees: destination.longitudeDegrees, longitudeDegrees: destination.latitudeDegrees)
        let distance = { (point: Coordinate) in Geodesic.wgs84.inverse(from: fix, to: point).distanceMeters }
        let typedMeters = distance(destination)
        let meantMeters = distance(meant)
        guard typedMeters > Self.implausibleDistanceMeters, meantMeters < Self.plausibleDistanceMeters else { return nil }
        self.typed = destination
        self.meant = meant
        self.typedMeters = typedMeters
        self.meantMeters = meantMeters
    }

    /// `48.8584 2.2945`: a point's two numbers as they would be typed, latitude first.
    public static func numbers(_ point: Coordinate) -> String { "\(point.latitudeDegrees) \(point.longitudeDegrees)" }

    /// What both clients say first: `2.2945 48.8584 is 6792 km from here, but 48.8584 2.2945
    /// (the same numbers, latitude first) is 1.20 km away`. Each adds how to choose.
    public var finding: String {
        "\(Self.numbers(typed)) is \(Presentation.distance(meters: typedMeters)) from here, but \(Self.numbers(meant)) "
            + "(the same numbers, latitude first) is \(Presentation.distance(meters: meantMeters)) away"
    }
}
