import ClientSupport
import CommandLineSupport
import ControlProtocol
import DaemonClient
import Geodesy
import LocationIntake
import TextFormats

/// `waypointctl route plan`: the places read here (as `locate` reads them, or a result of the
/// last search), the walk planned by the daemon (Routino runs beside it), the turns printed
/// as a person would say them.
enum RoutePlanCommand {
    static func run(
        from: DaemonCommand.PlaceArgument?, to: DaemonCommand.PlaceArgument, profile: String, json: Bool, session: DaemonSession
    ) throws(DaemonFailure) -> ExitStatus {
        let start = try from.map { (place) throws(DaemonFailure) in try point(place, session: session) }
        let end = try point(to, session: session)
        let received = try session.send(.route(.plan(from: start, to: end, profile: profile, follow: false)))
        guard case .plan(let plan) = received.reply else {
            throw .unexpectedReply(request: "route plan", reply: received.reply.messageClass.rawValue)
        }
        if json {
            Console.output(DaemonCommand.printableJSON(String(decoding: received.line, as: UTF8.self)))
        } else {
            for line in lines(plan, to: end) { Console.output(line) }
        }
        return .success
    }

    /// The walk as it is told: its length and time, each turn from the one before, the last
    /// stretch to the destination.
    static func lines(_ plan: WalkPlanReport, to end: DestinationReport) -> [String] {
        let minutes = max(1, Int((plan.durationSeconds / 60).rounded()))
        var lines = [
            "walk: \(Presentation.distance(meters: plan.distanceMeters)) along the streets, about \(minutes) min"
                + (plan.profile == "wheelchair" ? " by wheelchair (no steps)" : " on foot")
        ]
        for (number, turn) in plan.turns.enumerated() { lines.append("\(number + 1). \(PlaceName.printable(turn.instruction))") }
        let lastAlong = plan.turns.reduce(0) { $0 + $1.distanceMeters }
        let place = PlaceName.printable(end.name ?? "the destination")
        lines.append("\(plan.turns.count + 1). then \(Presentation.distance(meters: max(plan.distanceMeters - lastAlong, 0))) to \(place)")
        return lines
    }

    /// A place typed or chosen: its coordinates and the name it carries.
    private static func point(_ place: DaemonCommand.PlaceArgument, session: DaemonSession) throws(DaemonFailure) -> DestinationReport {
        let location: Location
        switch place {
        case .result(let number):
            location = DaemonCommand.location(of: try DaemonCommand.searchResult(number))
        case .text(let text):
            do throws(LocationError) {
                location = try LocationParser.parse(text)
            } catch {
                guard case .needsReference = error else { throw .input(PlaceName.printable("\(error)"), .dataError) }
                location = try PlaceText.completed(text, session: session)
            }
        }
        return DestinationReport(
            latitude: location.coordinate.latitudeDegrees, longitude: location.coordinate.longitudeDegrees, name: location.name)
    }
}
