import CommandLineSupport
import ControlProtocol
import Geodesy

extension DaemonCommandEntry {
    /// `go`: guide to a coordinate, a recent destination or a named place.
    static let go = DaemonCommandEntry(
        name: "go",
        overview: """
              go LAT LON [--name NAME] [--force]  guide to a place
              go --recent N                guide to recent destination N
              go NAME                      guide to a named place (or a recent one of that name)
            """,
        help: """
            usage: waypointctl go LAT LON [--name NAME] [--force]
                   waypointctl go COORDINATE [--name NAME] [--force]
                   waypointctl go --recent N
                   waypointctl go NAME | go --place NAME

            Guide to a destination. The daemon confirms with the accepted pattern and from then
            on pulses the motor while the wearer faces the destination. COORDINATE is any form
            under Coordinates in 'waypointctl --help'; quote it when it contains spaces:
              waypointctl go 48.8584 2.2945 --name "Eiffel Tower"
              waypointctl go "48°51'30.2\\"N 2°17'40.2\\"E"
              waypointctl go geo:48.8584,2.2945

            --name NAME    what to call it in status and recent: at most \(ControlProtocol.PlaceName.maximumLength) characters,
                           spaces around it trimmed, no control characters
            A latitude past ±90° whose swap is in range is refused with the order spelled out;
            so is a destination over 1000 km away whose swap is within 100 km of the current
            fix (exit 65, nothing set, the swapped one suggested).
            --force        set it all the same
            --recent N     guide to destination N of 'waypointctl recent' (1 is the most recent)
            --place NAME   guide to the place of 'waypointctl place list' called NAME, in any
                           case, else the recent destination of that name; a near miss gets a
                           suggestion. A bare NAME (one that no coordinate reading explains) does
                           the same: waypointctl go bakery
            Guiding somewhere drops a route being followed.
            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: ["--name", "--recent", "--place"], flagOptions: ["--force"],
        parse: { arguments, now throws(UsageError) in
            try parseGo(arguments)
        })

    private static func parseGo(_ arguments: Arguments) throws(UsageError) -> DaemonCommand {
        let name = "go"
        if let place = arguments.value("--place") {
            guard arguments.positionals.isEmpty, arguments.value("--name") == nil, arguments.value("--recent") == nil,
                !arguments.has("--force")
            else {
                throw UsageError("--place NAME takes no coordinates, no --name, no --recent and no --force", command: name)
            }
            return .goPlace(try placeName(place, what: "--place", command: name))
        }
        if let recentText = arguments.value("--recent") {
            guard arguments.positionals.isEmpty, arguments.value("--name") == nil, !arguments.has("--force") else {
                throw UsageError("--recent N takes no coordinates, no --name and no --force", command: name)
            }
            guard let index = Int(recentText), (1...ControlRequest.recentCount).contains(index) else {
                throw UsageError(
                    "--recent '\(recentText)' is not a number from 1 to \(ControlRequest.recentCount) "
                        + "(see 'waypointctl recent')",
                    command: name)
            }
            return .goRecent(index)
        }
        let positionals = arguments.positionals
        guard positionals.count == 1 || positionals.count == 2 else {
            throw UsageError(
                "go needs a destination (LAT LON, one coordinate such as geo:48.8584,2.2945, or --recent N); "
                    + "got \(positionals.count) arguments",
                command: name)
        }
        let text = positionals.joined(separator: " ")
        let coordinate: Coordinate
        do throws(CoordinateParseError) {
            coordinate = try Coordinate(parsing: text)
        } catch {
            // Letters no coordinate uses: a place's name ("go Bakery", "go Gate 3").
            if arguments.value("--name") == nil, Self.isPlaceName(text) {
                return .goPlace(try placeName(text, what: "the place's name", command: name))
            }
            throw UsageError("'\(text)': \(error)", command: name)
        }
        do throws(PlaceNameError) {
            return .go(coordinate, name: try PlaceName.validated(arguments.value("--name")), force: arguments.has("--force"))
        } catch {
            throw UsageError("--name: \(error)", command: name)
        }
    }

    /// Whether `text`, which is no coordinate, reads as a name: a word of it has a letter that
    /// neither a hemisphere (N S E W), `geo:` nor a number's spelling (`nan`, `inf`) explains.
    static func isPlaceName(_ text: String) -> Bool {
        guard !text.lowercased().hasPrefix("geo:") else { return false }
        return text.split(whereSeparator: \.isWhitespace).contains { word in
            Double(word) == nil
                && word.unicodeScalars.contains { $0.properties.isAlphabetic && !"NSEWnsew".unicodeScalars.contains($0) }
        }
    }
}
