import ClientSupport
import CommandLineSupport
import ControlProtocol
import DaemonClient
import Geodesy
import LocationIntake
import TextFormats

/// `waypointctl locate PLACE`: what a place's text means, offline; the daemon is asked only
/// for its fix, to complete a short plus code given without `--near`.
enum LocateCommand {
    static let name = "locate"
    /// Its options that take a value, and its flags (the bash completion offers them).
    static let valueOptions = ["--near", "--socket"]
    static let flagOptions = ["--json"]

    static let help = """
        usage: waypointctl locate PLACE [--near COORDINATE] [--json]

        Say what PLACE means without setting anything: its coordinates in decimal degrees and
        in degrees, minutes and seconds, the name it carries, where it came from ("Google Maps
        link", "plus code") and, when it says, how precise it is (a plus code's cell, a geo:
        URI's u=). Nothing is fetched: a short link that only its service could resolve is
        refused with what to do instead.

        \(PlaceText.forms)

        Quote PLACE: links hold & and ?, which the shell would take.
          waypointctl locate 'https://www.google.com/maps/place/Eiffel+Tower/@48.858,2.2919,17z/data=!3d48.8583701!4d2.2944813'

        --near C       where a short plus code is completed (default: the daemon's fix, if a
                       daemon answers at the socket)
        --json         one object: {"lat":…, "lon":…, "name":…, "source":…, "precision_m":…};
                       name only when the text carries one, precision_m null when it does not
                       say; source is one of \(LocationSource.allCases.map(\.rawValue).joined(separator: ", "))
        \(DaemonCommandEntry.socketOption)

        Exit status: 0 a place, 65 the text is no place (the reason on standard error), 64
        usage error.
        """

    static func run(_ words: [String], socketPath: (String?) -> String) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, valueOptions: Set(valueOptions), flagOptions: Set(flagOptions), command: name)
        guard !arguments.positionals.isEmpty else { throw UsageError("locate needs a place", command: name) }
        let text = arguments.positionals.joined(separator: " ")
        let near = try PlaceText.near(arguments, command: name)
        var location: Location
        do throws(LocationError) {
            location = try LocationParser.parse(text, near: near)
        } catch {
            guard case .needsReference = error, let session = try? DaemonSession(path: socketPath(arguments.value("--socket"))) else {
                Console.error("locate: " + PlaceName.printable("\(error)"))
                return .dataError
            }
            // Near the town written beside the code, else near the fix: as go completes it.
            do throws(DaemonFailure) {
                location = try PlaceText.completed(text, session: session)
            } catch {
                Console.error("locate: \(error)")
                return error.exitStatus
            }
        }
        Console.output(arguments.has("--json") ? json(location) : lines(location).joined(separator: "\n"))
        return .success
    }

    static func lines(_ location: Location) -> [String] {
        var lines = [
            "place      \(location.coordinate.formattedDegreesMinutesSeconds())",
            "decimal    \(location.coordinate.formattedDecimal(fractionDigits: 6))",
        ]
        if let name = location.name { lines.append("name       \(PlaceName.printable(name))") }
        lines.append("source     \(location.source.description)")
        if let completion = location.completion {
            lines.append(
                "completed  \(completion.fullCode), near \(completion.near.formattedDecimal(fractionDigits: 5))")
        }
        if let precision = location.precisionMeters {
            let what = location.source == .geoURI ? "the URI's uncertainty" : "the code's cell"
            lines.append("precision  \(Presentation.distance(meters: precision)) (\(what))")
        }
        return lines
    }

    static func json(_ location: Location) -> String {
        // To a nanodegree (0.1 mm), so that a plus code's centre prints as 48.8582875 and not
        // as the sum's 48.85828749999999; the precision to a decimetre.
        let rounded = { (value: Double, perUnit: Double) in (value * perUnit).rounded() / perUnit }
        var members: [(String, JSONWriter.Ordered)] = [
            ("lat", .number(rounded(location.coordinate.latitudeDegrees, 1e9))),
            ("lon", .number(rounded(location.coordinate.longitudeDegrees, 1e9))),
        ]
        if let name = location.name { members.append(("name", .string(name))) }
        members.append(("source", .string(location.source.rawValue)))
        members.append(("precision_m", .number(location.precisionMeters.map { rounded($0, 10) })))
        return JSONWriter.line(members)
    }
}
