import ClientSupport
import ControlProtocol

/// What `search` and `where` print for people.
enum SearchSummary {
    /// A numbered line a result: `1. Boulangerie (bakery), Rue Grimaldi 12: 120 m NW`.
    static func lines(for report: SearchReport) -> [String] {
        guard !report.results.isEmpty else { return ["nothing found" + (report.map.map { " in \($0)" } ?? "")] }
        return report.results.enumerated().map { index, result in
            "\(index + 1). \(label(result)): \(Presentation.distance(meters: result.distanceMeters)) \(Presentation.bearing(degrees: result.bearingDegrees))"
        }
    }

    /// Named: `L'Epi d'Or (bakery), Rue …`; unnamed: `atm, LCL, near Rue …` (what it is, whose,
    /// then where): two results read alike only when they are alike.
    static func label(_ result: SearchReport.Result) -> String {
        var label = result.name ?? result.kind ?? "unnamed place"
        if let kind = result.kind, result.name != nil { label += " (\(kind))" }
        if let operatorName = result.operatorName { label += ", \(operatorName)" }
        if let address = result.address {
            label += ", \(address)"
        } else if let street = result.nearStreet {
            label += ", near \(street)"
        }
        return label
    }

    /// Nearer a street than this, which side the walker is on is within a fix's error.
    static let minimumSideMeters = 3.0

    /// `in: …`, `address: …`, `street: …`, `side: …`, `town: …`, `distance: …` lines.
    static func lines(for report: WhereReport) -> [String] {
        guard let distance = report.distanceMeters else { return ["no address or street near here on the map"] }
        var lines: [String] = []
        // In a square, a park, a station: said first, as a walker would say where they are.
        if let inside = report.inside { lines.append("in: \(inside)" + (report.insideKind.map { " (\($0))" } ?? "")) }
        if let address = report.address { lines.append("address: \(address)") } else if let street = report.street {
            lines.append("street: \(street)")
            // Which side: a blind walker crosses to reach the other (issue 40).
            if let bearing = report.bearingDegrees, distance >= minimumSideMeters {
                lines.append("side: the \(Presentation.side(streetBearingDegrees: bearing)) side of \(street)")
            }
        }
        if let place = report.place { lines.append("town: \(place)") }
        lines.append("distance: \(Presentation.distance(meters: distance))" + (report.bearingDegrees.map { " \(Presentation.bearing(degrees: $0))" } ?? ""))
        return lines
    }
}
