import CommandLineSupport
import ControlProtocol
import DaemonClient
import Geodesy
import LocationIntake
import Places
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
        completed near --near, near the town written after it (V75V+8Q Paris, found on the
        offline map) or near the daemon's fix), or a shared message holding one of them
        ("I'm at 48.8584, 2.2945", "Lat: 48.8584 Lon: 2.2945").
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

    /// Completes a short plus code: near the town written beside it (`PCQH+F8 Monaco`), found
    /// on the daemon's map; else near the daemon's current fix.
    /// - Throws: `DaemonFailure`: no daemon, no map for the town, or no fix yet (with what to do).
    static func completed(_ text: String, session: DaemonSession) throws(DaemonFailure) -> Location {
        if let (code, locality) = LocationParser.shortCodeAndLocality(text) {
            let town = try Self.town(locality, code: code, session: session)
            do throws(LocationError) {
                let location = try LocationParser.parse(code, near: town.point)
                if let completion = location.completion { Console.error("\(completion.fullCode): the short code completed near \(town.name)") }
                return location
            } catch {
                throw .input(PlaceName.printable("'\(LocationError.excerpt(text))': \(error)"), .dataError)
            }
        }
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

    /// The town `locality` names, searched on the daemon's map (a place of a town's kind first).
    private static func town(_ locality: String, code: String, session: DaemonSession) throws(DaemonFailure) -> (name: String, point: Coordinate) {
        let fix = try session.currentFix()
        let printable = PlaceName.printable(LocationError.excerpt(locality))
        let received: ControlConnection.Received
        do throws(DaemonFailure) {
            received = try session.send(.search(locality, latitude: fix?.latitudeDegrees ?? 0, longitude: fix?.longitudeDegrees ?? 0, limit: 10))
        } catch {
            guard case .refused(let refusal) = error else { throw error }
            throw .input("\(code) is completed near '\(printable)', found on the offline map, and the daemon has none: \(refusal.message)", .dataError)
        }
        switch received.reply {
        case .search(let report):
            guard let found = report.results.first(where: { $0.kind.map(PlaceKind.townKinds.contains) == true }) ?? report.results.first else {
                throw .input("\(code) is completed near the town named beside it, and '\(printable)' is not on the map"
                    + (report.map.map { " (\($0))" } ?? "") + ": give the full code, or coordinates", .dataError)
            }
            return (found.name ?? printable, Coordinate(uncheckedLatitudeDegrees: found.latitude, longitudeDegrees: found.longitude))
        default:
            throw .unexpectedReply(request: "search", reply: received.reply.messageClass.rawValue)
        }
    }
}
