import ClientSupport
import CommandLineSupport
import ControlProtocol
import DaemonClient
import GPX
import Geodesy
import LocationIntake
import SystemSupport
import TextFormats

extension DaemonCommand {
    /// Talks to the daemon, prints the outcome for people, and says how the program should end.
    /// - Parameter socketPath: The control socket.
    /// - Returns: 0 done, 1 the daemon answered an error, 69 it could not be reached.
    func run(socketPath: String) -> ExitStatus {
        if case .watch(let hertz, let plain) = self {
            return WatchCommand.run(hertz: hertz, plain: plain, socketPath: socketPath)
        }
        do throws(DaemonFailure) {
            let session = try DaemonSession(path: socketPath)
            if case .completing(let text, let then) = self {
                return try then.command(try PlaceText.completed(text, session: session)).run(in: session)
            }
            if case .goSearch(let query, let walk) = self {
                return try Self.goToResult(try Self.bestMatch(query, session), walk: walk, session: session)
            }
            if case .goResult(let number, let walk) = self {
                return try Self.goToResult(try Self.searchResult(number), walk: walk, session: session)
            }
            if case .routePlan(let from, let to, let profile, let json) = self {
                return try RoutePlanCommand.run(from: from, to: to, profile: profile, json: json, session: session)
            }
            return try run(in: session)
        } catch {
            Console.error("\(error)")
            return error.exitStatus
        }
    }

    /// The best match of a search near the fix, or why there is none.
    private static func bestMatch(_ query: String, _ session: DaemonSession) throws(DaemonFailure) -> SearchReport.Result {
        let received = try session.send(.search(query, latitude: nil, longitude: nil, limit: 1))
        guard case .search(let report) = received.reply else {
            throw .unexpectedReply(request: "search", reply: received.reply.messageClass.rawValue)
        }
        guard let best = report.results.first else {
            throw .input("nothing found for '\(PlaceName.printable(query))'" + (report.map.map { " in \($0)" } ?? ""), .dataError)
        }
        return best
    }

    /// Result `number` of the last search, kept for this user.
    static func searchResult(_ number: Int) throws(DaemonFailure) -> SearchReport.Result {
        let results = try SearchMemory.results().results
        guard number >= 1, number <= results.count else {
            throw .input("the last search has \(results.count) result\(results.count == 1 ? "" : "s"), not \(number)", .dataError)
        }
        return results[number - 1]
    }

    /// Guides to a search result, saying which it is; its name (or address) names the destination.
    private static func goToResult(_ result: SearchReport.Result, walk: Bool?, session: DaemonSession) throws(DaemonFailure)
        -> ExitStatus
    {
        let place = Coordinate(uncheckedLatitudeDegrees: result.latitude, longitudeDegrees: result.longitude)
        // From the wearer, not from where the search was asked (a --near 692 km away).
        if let fix = try session.currentFix() {
            let inverse = Geodesic.wgs84.inverse(from: fix, to: place)
            Console.output(
                "chose: \(SearchSummary.label(result)), \(Presentation.distance(meters: inverse.distanceMeters)) "
                    + Presentation.bearing(degrees: Angle.normalized(inverse.initialAzimuthDegrees)) + " from here")
        } else {
            Console.output("chose: \(SearchSummary.label(result)) (no fix yet: its distance from here is not known)")
        }
        // A map's place is where the map says: no longitude-first question.
        return try DaemonCommand.go(location(of: result), name: nil, force: true, walk: walk).run(in: session)
    }

    /// A search result as a place: its name (or address, or kind) names it.
    static func location(of result: SearchReport.Result) -> Location {
        Location(
            coordinate: Coordinate(uncheckedLatitudeDegrees: result.latitude, longitudeDegrees: result.longitude),
            name: PlaceName.cleaned(result.name ?? result.address ?? result.kind ?? ""), source: .coordinates)
    }

    /// The command on an open session.
    func run(in session: DaemonSession) throws(DaemonFailure) -> ExitStatus {
        // Whether there is anything to clear: "cleared" twice in a row would be untrue.
        let hadDestination = self == .clear ? try Self.status(session)?.destination != nil : true
        if case .placeMark(_, let seconds, _, _) = self {
            // The daemon averages the fixes of the seconds before the request: these.
            Console.error("hold still: averaging \(Presentation.seconds(seconds)) of GPS fixes…")
            ThreadSleep.sleep(for: .milliseconds(Int64(seconds * 1000)))
        }
        if case .trackExport(let since, let until) = self {
            let document = try TrackExport.document(session: session, since: since, until: until)
            Console.output(GPXWriter.text(document, creator: "waypointctl \(Release.version)"), terminator: "")
            let points = document.pointCount
            let segments = document.tracks.first?.segments.count ?? 0
            guard points > 0 else {
                // An empty file said as such, not left to be found empty later.
                Console.error("track: no point of the trail is in that time; the GPX written is empty")
                return .success
            }
            Console.error("track: \(points) point\(points == 1 ? "" : "s") in \(segments) segment\(segments == 1 ? "" : "s")")
            return .success
        }
        if case .calibrateWaiting(let timeout) = self {
            return try CalibrationWait.run(session: session, timeoutSeconds: timeout)
        }
        if case .buttonTest(let seconds) = self {
            return try ButtonTestCommand.run(seconds: seconds, session: session)
        }
        // Before anything is set or played: coordinates that look typed longitude first,
        // typed as numbers or as a geo: URI (a map link or a plus code comes from an app).
        if case .go(let location, _, force: false, _) = self, [.coordinates, .geoURI].contains(location.source),
            let refusal = try Self.swapRefusal(location.coordinate, session)
        {
            throw .input("go: \(refusal)", .dataError)
        }
        // --near and --at typed longitude first: results thousands of kilometres away.
        // (A map link's point is never one: thousands of kilometres one way and a walk the other.)
        if case .search(let request, _) = self, let (point, option) = Self.askedPoint(request), let fix = try session.currentFix(),
            let swap = LikelySwap(destination: point, fix: fix)
        {
            throw .input("\(option): \(swap.finding): if you meant that, give \(option) '\(LikelySwap.numbers(swap.meant))'", .dataError)
        }
        let received = try session.send(try requestToSend())
        if case .search(.search, _) = self, case .search = received.reply { SearchMemory.keep(received.line + [UInt8(ascii: "\n")]) }
        for line in try output(for: received, session: session, hadDestination: hadDestination) {
            Console.output(line)
        }
        return .success
    }

    /// ``request``, with a route's waypoints read from its file.
    private func requestToSend() throws(DaemonFailure) -> ControlRequest {
        guard case .routeLoad(let path, let name) = self else { return request }
        let route = try Self.readRoute(path)
        let request = ControlRequest.route(.load(name: name ?? route.name, waypoints: route.waypoints))
        let bytes = request.line.count - 1
        guard bytes <= LineFramer.defaultMaximumLineLength else {
            throw .input(
                "\(path): the route's \(route.waypoints.count) waypoints make a \(bytes)-byte request, more than the "
                    + "\(LineFramer.defaultMaximumLineLength) a request may be; use fewer waypoints or shorter names",
                .dataError)
        }
        Console.error("\(path): \(route.source)")
        return request
    }

    /// The route in a GPX file.
    static func readRoute(_ path: String) throws(DaemonFailure) -> RouteImport.Route {
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try LinuxFileReading().contents(
                ofRegularFile: path, maximumBytes: GPXReader.Limits().maximumBytes, followingLinks: true)
        } catch {
            throw .input("cannot read \(path): \(error)", error == .missing ? .noInput : .dataError)
        }
        let document: GPXDocument
        do throws(GPXError) {
            document = try GPXReader.read(bytes)
        } catch {
            throw .input("\(path): \(error)", .dataError)
        }
        do throws(RouteImport.Failure) {
            return try RouteImport.route(from: document)
        } catch {
            throw .input("\(path): \(error)", .dataError)
        }
    }

    /// What to print for the reply to ``request``.
    private func output(for received: ControlConnection.Received, session: DaemonSession, hadDestination: Bool)
        throws(DaemonFailure) -> [String]
    {
        switch (self, received.reply) {
        case (.search(_, json: true), .search), (.search(_, json: true), .whereAmI):
            return [Self.printableJSON(String(decoding: received.line, as: UTF8.self))]
        case (.search, .search(let report)):
            return SearchSummary.lines(for: report)
        case (.search, .whereAmI(let report)):
            return SearchSummary.lines(for: report)
        case (.status(json: true), .status):
            return [Self.printableJSON(String(decoding: received.line, as: UTF8.self))]
        case (.status, .status(let report)):
            return StatusSummary.lines(for: report)
        case (.recent, .recent(let destinations)):
            return RecentList.lines(for: destinations)
        case (.calibrate, .calibration(let report)):
            return CalibrationSummary.lines(for: report)
        case (.go(let location, let name, _, _), .ok):
            let place = Presentation.place(
                latitudeDegrees: location.coordinate.latitudeDegrees, longitudeDegrees: location.coordinate.longitudeDegrees,
                name: name ?? location.name)
            // The radius arrival is judged by is the daemon's (its configuration), and whether
            // it walks the streets its setting: ask it.
            let status = try? Self.status(session)
            let radius = status?.route?.walk == nil ? status?.destination?.radiusMeters : nil
            var lines = ["destination set: \(place)" + (radius.map { " (arrival within \(Presentation.distance(meters: $0)))" } ?? "")]
            if let route = status?.route, let walk = route.walk {
                lines += RouteSummary.walkLines(walk, remainingMeters: route.remainingMeters)
            }
            return lines
        case (.goRecent, .ok), (.goPlace, .ok):
            // The request named a number or a name; ask which place that was, so the wearer
            // hears it.
            let status = try session.send(.status)
            guard case .status(let report) = status.reply, let destination = report.destination else {
                if case .goRecent(let index) = self { return ["destination set: recent destination \(index)"] }
                return ["destination set"]
            }
            let place = Presentation.place(
                latitudeDegrees: destination.latitude, longitudeDegrees: destination.longitude, name: destination.name)
            return ["destination set: \(place)"]
        case (.clear, .ok):
            return [hadDestination ? "destination cleared; guidance stopped" : "no destination was set; nothing to clear"]
        case (.mute(true), .ok):
            return ["guidance vibration muted; patterns still play"]
        case (.mute(false), .ok):
            return ["guidance vibration on"]
        case (.buzz(let pattern), .ok):
            return ["playing \(pattern.rawValue)"]
        case (.route, .route(let report)), (.routeLoad, .route(let report)):
            return RouteSummary.lines(for: report, after: self)
        case (.place(.list), .places(let places)):
            return PlaceList.lines(for: places)
        case (.place(.add(let place, _)), .ok):
            return ["place added: \(Presentation.place(place))"]
        case (.place(.rename(let name, let newName)), .ok):
            return ["place renamed: \(name) is now \(newName)"]
        case (.place(.remove(let name)), .ok):
            return ["place removed: \(name)"]
        case (.trackClear, .ok):
            return ["trail cleared"]
        case (.send(_, let done), .ok):
            return [done]
        case (.back, .route(let report)):
            return ["guiding back along the trail"] + RouteSummary.lines(for: report, after: self)
        case (.placeMark, .placeMarked(let report)):
            let place = report.place
            return [
                "place marked: \(Presentation.place(place))",
                "error: within \(Presentation.distance(meters: report.errorMeters)) (95 %, from \(report.fixes) fix\(report.fixes == 1 ? "" : "es"))",
            ]
        default:
            throw .unexpectedReply(request: request.commandName, reply: received.reply.messageClass.rawValue)
        }
    }

    /// The daemon's `STATUS`, or nil if it answered something else.
    static func status(_ session: DaemonSession) throws(DaemonFailure) -> StatusReport? {
        guard case .status(let report) = try session.send(.status).reply else { return nil }
        return report
    }

    /// The point a search (`--near`) or where (`--at`) asks about, as typed, and its option.
    static func askedPoint(_ request: ControlRequest) -> (Coordinate, String)? {
        switch request {
        case .search(_, let latitude?, let longitude?, _): (Coordinate(uncheckedLatitudeDegrees: latitude, longitudeDegrees: longitude), "--near")
        case .whereAmI(let latitude?, let longitude?): (Coordinate(uncheckedLatitudeDegrees: latitude, longitudeDegrees: longitude), "--at")
        default: nil
        }
    }

    /// Why `go` is refused for a destination most likely typed longitude first (``LikelySwap``),
    /// or nil. Without a fix nothing can be judged.
    static func swapRefusal(_ destination: Coordinate, _ session: DaemonSession) throws(DaemonFailure) -> String? {
        guard let fix = try session.currentFix(), let swap = LikelySwap(destination: destination, fix: fix) else { return nil }
        return "\(swap.finding): if you meant that, run 'waypointctl go \(LikelySwap.numbers(swap.meant))'; "
            + "to go to \(LikelySwap.numbers(swap.typed)) all the same, add --force"
    }

    /// The daemon's JSON line with DEL, C1 controls and bidirectional overrides written as
    /// `\uXXXX` escapes: the same JSON, safe on a terminal. (C0 controls are always escaped in
    /// valid JSON; these may appear raw inside its strings, and only there.)
    static func printableJSON(_ line: String) -> String {
        var result = ""
        for scalar in line.unicodeScalars {
            if PlaceName.isUnprintable(scalar) {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
