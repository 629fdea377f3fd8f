import CommandLineSupport
import ControlProtocol
import LocationIntake

extension DaemonCommandEntry {
    /// `search`: places of the offline map by name, category or address.
    static let search = DaemonCommandEntry(
        name: "search",
        overview: """
              search QUERY [--near PLACE]  find a place on the offline map: a name, "bakery", an address
            """,
        help: """
            usage: waypointctl search QUERY [--near PLACE] [--limit N] [--json]

            Search the map the daemon has loaded (waypointd map import) near the current fix, or
            near --near: names and their other names, what you have typed of the last word, a
            typo or two in longer words, accents or none (Cafe finds Café), categories in English,
            German, French, Italian and Spanish (bakery, bus, atm, Apotheke, pharmacie, playa,
            or a word's beginning: boulang), every place of the kind nearest first, and addresses
            in either order (Landstrasse 12, 12 Landstrasse, with or without ", Town"; a number
            the map lacks gives the street and its nearest numbers). Each result: its number
            (for go --result N), name, kind, address, distance and direction from here.
            Map data © OpenStreetMap contributors (ODbL).

            --near PLACE   search near this place instead of the fix (any form of --help's Places)
            --limit N      at most N results (1 to \(ControlRequest.maximumSearchResults), default \(ControlRequest.defaultSearchResults))
            --json         {"results": [{"name", "kind", "address", "lat", "lon", "distance_m",
                           "bearing_deg", "operator", "near_street"}, …]} (the last two when known)
            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: ["--near", "--limit"], flagOptions: ["--json"],
        parse: { arguments, now throws(UsageError) in
            let command = "search"
            let query = arguments.positionals.joined(separator: " ")
            // Spaces and punctuation alone are nothing to look for, not "nothing found".
            guard query.contains(where: { $0.isLetter || $0.isNumber }) else {
                throw UsageError("search needs something to look for: a name, a kind of place or an address", command: command)
            }
            guard query.count <= ControlRequest.maximumQueryCharacters else {
                throw UsageError("the query is \(query.count) characters; at most \(ControlRequest.maximumQueryCharacters)", command: command)
            }
            var limit = ControlRequest.defaultSearchResults
            if let text = arguments.value("--limit") {
                guard let value = Int(text), (1...ControlRequest.maximumSearchResults).contains(value) else {
                    throw UsageError("--limit '\(text)' is not a number from 1 to \(ControlRequest.maximumSearchResults)", command: command)
                }
                limit = value
            }
            let near = try PlaceText.near(arguments, command: command)
            return .search(
                .search(query, latitude: near?.latitudeDegrees, longitude: near?.longitudeDegrees, limit: limit),
                json: arguments.has("--json"))
        })

    /// `where`: the nearest address or street.
    static let whereAmI = DaemonCommandEntry(
        name: "where",
        overview: """
              where [--at PLACE]           where am I: the nearest address or street, and the town
            """,
        help: """
            usage: waypointctl where [--at PLACE] [--json]

            Where the wearer is, from the map the daemon has loaded: first the named square,
            pedestrian area, park, market or station the wearer is in, if any; the nearest
            address within about 40 m, else the nearest named street on the surface (a tunnel
            only when nothing else is near) and which side of it you are on, and the town, with
            the distance and direction to it. Map data © OpenStreetMap contributors (ODbL).

            --at PLACE     ask about this place instead of the current fix
            --json         {"address", "street", "housenumber", "place", "distance_m", "lat", "lon",
                           "bearing_deg", "inside", "inside_kind"} (the last two when inside one)
            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: ["--at"], flagOptions: ["--json"],
        parse: { arguments, now throws(UsageError) in
            try arguments.expectNoPositionals()
            var at: (Double, Double)?
            if let text = arguments.value("--at") {
                do throws(LocationError) {
                    let point = try LocationParser.parse(text).coordinate
                    at = (point.latitudeDegrees, point.longitudeDegrees)
                } catch {
                    throw UsageError("--at '\(LocationError.excerpt(text))': \(error)", command: "where")
                }
            }
            return .search(.whereAmI(latitude: at?.0, longitude: at?.1), json: arguments.has("--json"))
        })
}
