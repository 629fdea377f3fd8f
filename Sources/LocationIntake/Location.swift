import Geodesy

/// A place read from text a person typed or a phone shared: where it is, what the text calls
/// it, where the text came from and how precise it is. Made by ``LocationParser``.
public struct Location: Sendable, Equatable {
    /// The place.
    public var coordinate: Coordinate
    /// The name the text carries (a map link's place, a `geo:` label), cleaned by the
    /// place-name rule (`PlaceName.cleaned`); nil when it carries none.
    public var name: String?
    /// What kind of text it was.
    public var source: LocationSource
    /// How far the place may be from ``coordinate``, metres, when the text says: a plus code's
    /// cell (its larger side), a `geo:` URI's `u`. Nil otherwise.
    public var precisionMeters: Double?
    /// How a short plus code was completed; nil for every other source.
    public var completion: Completion?

    /// A short plus code's full form and the position it was completed near.
    public struct Completion: Sendable, Equatable {
        public var fullCode: String
        public var near: Coordinate

        public init(fullCode: String, near: Coordinate) {
            self.fullCode = fullCode
            self.near = near
        }
    }

    public init(coordinate: Coordinate, name: String? = nil, source: LocationSource, precisionMeters: Double? = nil) {
        self.coordinate = coordinate
        self.name = name
        self.source = source
        self.precisionMeters = precisionMeters
    }
}
