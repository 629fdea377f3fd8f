import CommandLineSupport
import ControlProtocol
import Geodesy

extension DaemonCommandEntry {
    /// `place`: the named places.
    static let place = DaemonCommandEntry(
        name: "place",
        overview: """
              place [list|add|mark|rename|remove]   named places: place mark Car keeps where you are
            """,
        help: """
            usage: waypointctl place [list]
                   waypointctl place add NAME PLACE [--near COORDINATE] [--radius M] [--replace]
                   waypointctl place mark NAME [--seconds S] [--radius M] [--replace]
                   waypointctl place rename NAME NEW_NAME
                   waypointctl place remove NAME

            Named places, kept by the daemon across restarts (at most 500); names keep the
            rules of go --name and match in any case. 'waypointctl go NAME' guides to one.

            list           every place, in the order they were made
            add            a place at PLACE (any form under Places in --help: coordinates, a map
                           link, a plus code; a short one is completed near --near, else
                           near the current fix)
            mark           a place where you stand: the daemon averages the GPS fixes of the S
                           seconds this command waits (default \(Int(ControlProtocol.PlaceAction.defaultMarkSeconds)), at most \(Int(ControlProtocol.PlaceAction.maximumMarkSeconds))) and prints the
                           place with its error, the radius holding the truth with about 95 %
                           confidence (a receiver's error drifts over a minute, so a few seconds
                           of averaging improve on one fix only a little, and the error says so)
            --radius M     this place's own arrival distance, \(Int(ControlProtocol.ControlRequest.arrivalRadiusRangeMeters.lowerBound)) to \(Int(ControlProtocol.ControlRequest.arrivalRadiusRangeMeters.upperBound)) metres (default: the config's)
            --replace      replace the place of that name instead of refusing
            \(DaemonCommandEntry.socketOption)
            """,
        valueOptions: ["--radius", "--seconds", "--near"], flagOptions: ["--replace"],
        words: PlaceAction.names,
        parse: { arguments, now throws(UsageError) in
            try parsePlace(arguments)
        })

    private static func parsePlace(_ arguments: Arguments) throws(UsageError) -> DaemonCommand {
        let command = "place"
        let words = arguments.positionals
        let radius = try arguments.value("--radius").map { (text) throws(UsageError) in
            let range = ControlRequest.arrivalRadiusRangeMeters
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                throw UsageError(
                    "--radius '\(text)' is not a distance from \(Int(range.lowerBound)) to \(Int(range.upperBound)) metres",
                    command: command)
            }
            return value
        }
        let replacing = arguments.has("--replace")
        let action = words.first ?? "list"
        if action != "add", arguments.value("--near") != nil {
            throw UsageError("--near goes with place add", command: command)
        }
        if action != "mark", arguments.value("--seconds") != nil {
            throw UsageError("--seconds goes with place mark", command: command)
        }
        if !["add", "mark"].contains(action), radius != nil || replacing {
            throw UsageError("--radius and --replace go with place add and place mark", command: command)
        }
        switch action {
        case "list":
            guard words.count <= 1 else { throw UsageError("place list takes nothing more", command: command) }
            return .place(.list)
        case "add":
            guard words.count >= 3 else {
                throw UsageError("place add needs a name and a coordinate: place add NAME LAT LON", command: command)
            }
            let name = try placeName(words[1], what: "the name", command: command)
            let text = words[2...].joined(separator: " ")
            let then = DaemonCommand.Completion.placeAdd(name: name, radiusMeters: radius, replacing: replacing)
            switch try PlaceText.read(text, near: try PlaceText.near(arguments, command: command), fixMayHelp: true, command: command) {
            case .location(let location): return then.command(location)
            case .needsFix(let text): return .completing(text, then: then)
            }
        case "mark":
            guard words.count == 2 else { throw UsageError("place mark needs one name", command: command) }
            var seconds = PlaceAction.defaultMarkSeconds
            if let text = arguments.value("--seconds") {
                guard let value = Double(text), value.isFinite, value >= 1, value <= PlaceAction.maximumMarkSeconds else {
                    throw UsageError(
                        "--seconds '\(text)' is not from 1 to \(Int(PlaceAction.maximumMarkSeconds))", command: command)
                }
                seconds = value
            }
            return .placeMark(
                name: try placeName(words[1], what: "the name", command: command), seconds: seconds, radiusMeters: radius,
                replacing: replacing)
        case "rename":
            guard words.count == 3 else { throw UsageError("place rename needs the old name and the new one", command: command) }
            return .place(
                .rename(
                    try placeName(words[1], what: "the old name", command: command),
                    to: try placeName(words[2], what: "the new name", command: command)))
        case "remove":
            guard words.count == 2 else { throw UsageError("place remove needs one name", command: command) }
            return .place(.remove(try placeName(words[1], what: "the name", command: command)))
        default:
            throw UsageError(
                "place takes list, add NAME COORDINATE, mark NAME, rename NAME NEW or remove NAME, not '\(action)'",
                command: command)
        }
    }
}
