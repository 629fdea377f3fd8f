import Geodesy

/// Why a text gave no location. ``description`` is a sentence for the person who typed or
/// pasted it, saying what to do instead where there is something to do.
public enum LocationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing but whitespace.
    case empty
    /// Longer than ``LocationParser/maximumTextBytes``.
    case tooLong(bytes: Int)
    /// Typed coordinates that do not read (the text holds no link, `geo:` or plus code).
    case coordinate(CoordinateParseError)
    /// A link, `geo:` URI or plus code whose coordinates are wrong (out of range, NaN).
    case badCoordinate(LocationSource, CoordinateParseError)
    /// A link that only its service's server can turn into a place (a short link, a place
    /// id); `service` names it ("Google Maps short link").
    case needsServer(service: String)
    /// A name or an address without coordinates: finding it needs a search. `source` is the
    /// link it came in, nil for typed text.
    case needsSearch(String, LocationSource?)
    /// A map link that carries neither coordinates nor a name.
    case noCoordinates(LocationSource)
    /// A map service's link in a coded form this version does not decode (`osm.org/go/…`,
    /// Organic Maps' `omaps.app/…`); `service` names it.
    case codedLink(service: String)
    /// A link to a site that is not a map this program reads.
    case unknownLink(host: String)
    /// A short plus code and no position to complete it near.
    case needsReference(code: String)
    /// Two different places in one text (two pins, two links), this far apart.
    case conflicting(Location, Location, meters: Double)

    public var description: String {
        let shareInstead = "open it on the phone and share the place's coordinates or its plus code instead"
        switch self {
        case .empty:
            return "no location given (the text is empty)"
        case .tooLong(let bytes):
            return "the text is \(bytes) bytes; a location is read from at most \(LocationParser.maximumTextBytes)"
        case .coordinate(let error):
            return "\(error)"
        case .badCoordinate(let source, let error):
            return "\(source.description): \(error)"
        case .needsServer(let service):
            return "\(Self.withArticle(service)) names the place only on its service's server, and nothing is fetched here: "
                + shareInstead
        case .needsSearch(let text, let source):
            let what = source.map { "the \($0.description) names '\(Self.excerpt(text))'" } ?? "'\(Self.excerpt(text))'"
            return "\(what) without coordinates: finding it needs a search; \(shareInstead)"
        case .noCoordinates(let source):
            return "this \(source.description) carries no coordinates; \(shareInstead)"
        case .codedLink(let service):
            return "\(Self.withArticle(service)) is coded in a form this version does not read; \(shareInstead)"
        case .unknownLink(let host):
            return "a link to \(Self.excerpt(host)) is not a map link this program reads "
                + "(Google Maps, Apple Maps, OpenStreetMap, OsmAnd, Waze, Bing Maps); share coordinates, "
                + "a geo: URI or a plus code instead"
        case .needsReference(let code):
            return "the short plus code \(code) names a place only near a known position: give --near COORDINATE, "
                + "or the full code (8 digits before the +)"
        case .conflicting(let first, let second, let meters):
            return "the text holds two different places, "
                + "\(Self.place(first)) and \(Self.place(second)), \(Self.distance(meters)) apart: share one"
        }
    }

    /// `noun` after "a", or "an" before a vowel's sound as written (an Apple Maps short link,
    /// an OpenStreetMap short link).
    static func withArticle(_ noun: String) -> String {
        ("AEIOUaeiou".contains(noun.first ?? "x") ? "an " : "a ") + noun
    }

    /// The most characters of the text a message quotes: enough to recognise it, while a
    /// message stays a line or two whatever was pasted.
    public static let maximumQuotedCharacters = 80

    /// `text`, cut to ``maximumQuotedCharacters`` with `…` when longer.
    public static func excerpt(_ text: String) -> String {
        text.count <= maximumQuotedCharacters ? text : String(text.prefix(maximumQuotedCharacters)) + "…"
    }

    private static func place(_ location: Location) -> String {
        let c = location.coordinate
        return "\(DecimalFormat.fixed(c.latitudeDegrees, fractionDigits: 6)) "
            + "\(DecimalFormat.fixed(c.longitudeDegrees, fractionDigits: 6)) (\(location.source.description))"
    }

    private static func distance(_ meters: Double) -> String {
        meters < 1000
            ? "\(DecimalFormat.fixed(meters, fractionDigits: 0)) m" : "\(DecimalFormat.fixed(meters / 1000, fractionDigits: 1)) km"
    }
}
