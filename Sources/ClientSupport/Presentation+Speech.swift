import ControlProtocol
import Geodesy
import Guidance
import TextFormats

/// The sentences said aloud (the daemon's voice, the companion's live region) when the wearer
/// presses the button: short, units in words (a speech synthesiser reads "m" as a letter), the
/// destination's direction as a clock hour from where the wearer faces.
extension Presentation {
    /// `240 metres`, `35 metres`, `1.2 kilometres`: rounded as a walker is told a distance.
    public static func spokenDistance(meters: Double) -> String {
        let text = WalkPlan.Turn.spoken(meters: meters)
        if text.hasSuffix(" km") { return text.dropLast(3) + " kilometres" }
        return text.dropLast(2) + " metres"
    }

    /// A single press: where the wearer is, then the destination's distance and direction.
    /// `At Rue Grimaldi 12, Monaco. Bakery is 240 metres away, at 2 o'clock.`
    public static func spokenWhere(_ place: WhereReport?, status: StatusReport) -> String {
        var sentences: [String] = []
        if let place, place.distanceMeters != nil {
            var words: [String] = []
            if let inside = place.inside { words.append("In " + inside) }
            if let address = place.address {
                words.append((words.isEmpty ? "At " : "at ") + address)
            } else if let street = place.street {
                words.append((words.isEmpty ? "On " : "on ") + street)
            }
            if let town = place.place { words.append(town) }
            sentences.append(words.joined(separator: ", ") + ".")
        } else if place != nil {
            sentences.append("No street near here on the map.")
        }
        sentences.append(spokenDestination(status))
        return sentences.joined(separator: " ")
    }

    /// The destination, or what stands in for it: `Bakery is 240 metres away, at 2 o'clock.`;
    /// a walk adds its next turn.
    public static func spokenDestination(_ status: StatusReport) -> String {
        guard let destination = status.destination else { return "No destination set." }
        let name = destination.name.map { PlaceName.printable($0) } ?? "The destination"
        guard let meters = status.distanceMeters else { return "\(name): no position yet." }
        if status.state == "arrived" { return "You have arrived at \(name)." }
        var sentence = "\(name) is \(spokenDistance(meters: meters)) away"
        if let error = status.errorDegrees {
            sentence += ", at \(HapticPattern.clockHour(errorDegrees: error)) o'clock"
        } else if let bearing = status.bearingDegrees, let point = CompassPoint(bearingDegrees: bearing) {
            sentence += ", to the \(point.spokenName)"
        }
        sentence += "."
        if let walk = status.route?.walk, let turn = walk.next {
            sentence += " Next, " + spokenInstruction(turn.instruction) + "."
        }
        return sentence
    }

    /// A double press: the route's next waypoint, or a walk's next turn.
    /// `Waypoint 3 of 7, Fountain, 120 metres away, at 11 o'clock.`
    public static func spokenNext(_ status: StatusReport) -> String {
        guard let route = status.route else { return spokenDestination(status) }
        if let walk = route.walk {
            guard let turn = walk.next else { return "Straight on to the destination. " + spokenDestination(status) }
            return "Next, " + spokenInstruction(turn.instruction) + "."
        }
        var sentence = "Waypoint \(route.waypoint) of \(route.count)"
        if let name = route.target.name { sentence += ", " + PlaceName.printable(name) }
        if let meters = status.distanceMeters { sentence += ", \(spokenDistance(meters: meters)) away" }
        if let error = status.errorDegrees { sentence += ", at \(HapticPattern.clockHour(errorDegrees: error)) o'clock" }
        return sentence + "."
    }

    /// A walk's instruction (`in 120 m turn left onto …`) with its units in words.
    static func spokenInstruction(_ instruction: String) -> String {
        let printable = PlaceName.printable(instruction)
        guard printable.hasPrefix("in "), let unit = printable.dropFirst(3).firstIndex(of: " ") else { return printable }
        let number = printable[printable.index(printable.startIndex, offsetBy: 3)..<unit]
        let rest = printable[printable.index(after: unit)...]
        guard let space = rest.firstIndex(of: " ") else { return printable }
        let word =
            switch rest[..<space] {
            case "m": number == "1" ? "metre" : "metres"
            case "km": "kilometres"
            default: String(rest[..<space])
            }
        return "in \(number) \(word)" + rest[space...]
    }

    /// A long press: `Guidance paused.` or `Guidance resumed.`
    public static func spokenPause(muted: Bool) -> String {
        muted ? "Guidance paused. Hold again to resume." : "Guidance resumed."
    }

    /// A very long press: `Marked this place as Mark 14:05:09, within 10 metres.` The error is
    /// a bound, so it is rounded up to 5 m, never down.
    public static func spokenMark(_ report: PlaceMarkReport) -> String {
        let name = report.place.name.map { PlaceName.printable($0) } ?? "a new place"
        let bound = max(5, (report.errorMeters / 5).rounded(.up) * 5)
        return "Marked this place as \(name), within \(spokenDistance(meters: bound))."
    }
}
