import CommandLineSupport
import ControlProtocol
import DaemonClient
import Geodesy
import LocationIntake
import TextFormats

/// A place typed on the command line, in any form ``LocationParser`` reads (coordinates,
/// `geo:`, map links, plus codes, a shared message holding one), and where a short plus code
/// is completed: near `--near`, else near the daemon's current fix.
enum PlaceText {
    /// The forms, for the help texts.
    static let forms = """
        A place is coordinates (48.8584 2.2945, 48.8584,2.2945, 48.8584N 2.2945E,
        48°51'30.2"N 2°17'40.2"E, 48 51.503 N 2 17.670 E), a geo: URI (geo:48.8584,2.2945,
        geo:0,0?q=48.8584,2.2945(Eiffel Tower)), a map link from Google Maps, Apple Maps,
        OpenStreetMap, OsmAnd, Waze or Bing Maps, a plus code (8FW4V75V+8Q, or short: V75V+8Q,
        completed near --near or the daemon's fix), or a shared message holding one of them.
        Read offline: short links (maps.app.goo.gl, maps.apple/p) are refused, never fetched.
        """

    /// What was typed, read: a place, or a short plus code still to be completed.
    enum Reading: Equatable {
        case location(Location)
        case needsFix(String)
    }

    /// Reads `text`; every message quotes at most ``LocationError/maximumQuotedCharacters`` of
    /// it, with control characters escaped (it may be anything pasted). A short plus code with no `near` comes back as ``Reading/needsFix(_:)``
    /// when `fixMayHelp`, for the caller to ask the daemon.
    /// - Throws: `UsageError` with the parser's reason, quoting the text.
    static func read(_ text: String, near: Coordinate?, fixMayHelp: Bool, command: String) throws(UsageError) -> Reading {
        do throws(LocationError) {
            return .location(try LocationParser.parse(text, near: near))
        } catch {
            if case .needsReference = error, fixMayHelp { return .needsFix(text) }
            throw UsageError(PlaceName.printable("'\(LocationError.excerpt(text))': \(error)"), command: command)
        }
    }

    /// `--near COORDINATE`'s place, if given: any form but a short plus code.
    static func near(_ arguments: Arguments, command: String) throws(UsageError) -> Coordinate? {
        guard let text = arguments.value("--near") else { return nil }
        do throws(LocationError) {
            return try LocationParser.parse(text).coordinate
        } catch {
            throw UsageError(PlaceName.printable("--near '\(LocationError.excerpt(text))': \(error)"), command: command)
        }
    }

    /// Completes a short plus code near the daemon's current fix.
    /// - Throws: `DaemonFailure`: no daemon, or no fix yet (with what to do).
    static func completed(_ text: String, session: DaemonSession) throws(DaemonFailure) -> Location {
        guard let fix = try session.currentFix() else {
            throw .input(
                "'\(PlaceName.printable(LocationError.excerpt(text)))' holds a short plus code, completed near the current position, and the "
                    + "daemon has no fix yet: give --near COORDINATE, or the full code", .dataError)
        }
        do throws(LocationError) {
            let location = try LocationParser.parse(text, near: fix)
            if let completion = location.completion {
                Console.error("\(completion.fullCode): the short code completed near the current fix")
            }
            return location
        } catch {
            throw .input(PlaceName.printable("'\(LocationError.excerpt(text))': \(error)"), .dataError)
        }
    }
}
