@preconcurrency import Glibc
import CommandLineSupport
import Geodesy
import Guidance
import SystemSupport

/// Plans walks over the routes that `map import` built (issue 41): Routino's
/// `routino-router` (its slim build first) run once a plan as a child, its output read line by
/// line within bounds, into a ``WalkPlan``. Routino is AGPL-3.0 and waypointd MIT: a separate
/// program, never linked.
public struct WalkPlanner: Sendable {
    /// Who walks: Routino's profile of that name.
    public enum Profile: String, Sendable, Hashable, CaseIterable {
        /// On foot: every way a person may walk, steps included.
        case foot
        /// In a wheelchair: no steps, smooth ways preferred.
        case wheelchair
    }

    /// Why no walk was planned, each said as a sentence for the wearer's client.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// No routes were imported.
        case noRoutes
        /// Routino is not installed.
        case noRouter
        /// The start or the end is far from any way of the map.
        case farFromWays(end: End, meters: Double?)
        /// The two ends are on ways that do not connect for this profile.
        case noPath(Profile)
        /// The route has more nodes than a plan keeps.
        case tooLong(nodes: Int)
        /// The router took longer than the plan's limit.
        case timedOut(seconds: Double)
        /// The router failed: its first line of errors, or how it ended.
        case routerFailed(String)
        /// The database is not what the import wrote: truncated, changed, or another
        /// Routino's.
        case damaged(String)

        /// Which end of a walk.
        public enum End: String, Sendable, Hashable {
            case start, destination
        }

        public var description: String {
            switch self {
            case .noRoutes:
                "no walking routes are loaded; import a map with Routino installed: apt install routino, then waypointd map import FILE.osm.pbf"
            case .noRouter:
                "Routino's routino-router is not installed; apt install routino"
            case .farFromWays(let end, let meters?):
                "the \(end.rawValue) is \(WalkPlan.Turn.spoken(meters: meters)) from the nearest walkable way; "
                    + "is it outside the map, or in the sea?"
            case .farFromWays(let end, nil):
                "no walkable way of the map is near the \(end.rawValue); is it outside the map, or in the sea?"
            case .noPath(let profile):
                "no \(profile == .foot ? "walking" : "wheelchair") route joins the start and the destination"
                    + (profile == .wheelchair ? " (steps are left out)" : "")
            case .tooLong(let nodes):
                "the route has over \(nodes) points, more than a plan keeps; plan to somewhere nearer"
            case .timedOut(let seconds):
                "routino-router took over \(DecimalFormat.fixed(seconds, fractionDigits: 0)) s and was stopped"
            case .routerFailed(let reason):
                "routino-router failed: \(reason)"
            case .damaged(let reason):
                "the walking routes cannot be trusted (\(reason)); import the map again: waypointd map import FILE.osm.pbf"
            }
        }
    }

    /// The state directory the routes are in.
    public let stateDirectory: String
    /// The routes' directory (`routes/` in the state directory).
    public let directory: String
    /// Where the router's errors are written while it runs (one file: plans are made one at a
    /// time).
    public let errorsPath: String
    /// The router's program, or nil when none is installed.
    public let router: String?
    /// Its version (`3.3.3`), to hold the database's to.
    public let routerVersion: String?
    /// The longest a plan may take, seconds.
    public var timeoutSeconds = 10.0

    /// The most nodes a plan keeps: a 40 km walk through a dense city.
    public static let maximumNodes = 20_000
    /// The most waypoints (turns and bends) a plan may have, the destination left out: a
    /// route's 1000 less one.
    public static let maximumWaypoints = 999
    /// A line of the router's output longer than this is not read (they are under 120 bytes).
    static let maximumLineBytes = 1024
    /// The farthest an end may be from the way the router starts or ends on, metres.
    public static let maximumSnapMeters = 200.0

    /// A planner of the routes in `stateDirectory`.
    public init(stateDirectory: String, router: String? = Self.findRouter()) {
        self.stateDirectory = stateDirectory
        directory = stateDirectory + "/" + MapImport.routesDirectoryName
        errorsPath = stateDirectory + "/.plan-errors"
        self.router = router
        routerVersion = router.map { Routino.version(of: $0, errors: stateDirectory + "/.plan-errors") }
    }

    /// Whether routes were imported: one stat.
    public var hasRoutes: Bool { Routino.hasRoutes(in: stateDirectory) }

    /// Holds the database to its manifest (written at import): the same Routino, every file
    /// as long as it was written. A database imported before manifests were written is taken
    /// as it is.
    func checkDatabase() throws(Failure) {
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try LinuxFileReading().contents(
                ofRegularFile: directory + "/" + Routino.manifestName, maximumBytes: 4096, followingLinks: false)
        } catch {
            if error == .missing { return }
            throw .damaged("its manifest cannot be read: \(error)")
        }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count == 2 else { throw .damaged("its manifest is not one an import writes") }
            if words[0] == "routino" {
                if let routerVersion, routerVersion != "unknown", words[1] != "unknown", words[1] != routerVersion {
                    throw .damaged("Routino \(words[1]) wrote them, and this is Routino \(routerVersion)")
                }
                continue
            }
            let name = String(words[0])
            guard Routino.databaseFiles.contains(name), let expected = Int(words[1]) else {
                throw .damaged("its manifest names '\(name.prefix(40))'")
            }
            let found = (try? FileSystem.status(of: directory + "/" + name))??.bytes
            guard found == expected else {
                throw .damaged("\(name) is \(found.map { "\($0) bytes" } ?? "missing"); the import wrote \(expected)")
            }
        }
    }

    /// The router's slim build (which reads its files as it goes, with little memory), else
    /// the other.
    public static func findRouter() -> String? {
        SpawnedProcess.find("routino-router-slim") ?? SpawnedProcess.find("routino-router")
    }

    /// Plans a walk from `start` to `end`.
    /// - Parameter stop: Asked while the router is silent; true ends the plan (stopping).
    public func plan(from start: Coordinate, to end: Coordinate, profile: Profile, stop: () -> Bool = { false })
        throws(Failure) -> WalkPlan
    {
        guard hasRoutes else { throw .noRoutes }
        guard let router else { throw .noRouter }
        try checkDatabase()
        let process: SpawnedProcess
        do throws(SpawnedProcess.StartError) {
            process = try SpawnedProcess(
                router,
                [
                    "--dir=" + directory, "--prefix=" + Routino.prefix, "--profiles=" + Routino.dataDirectory + "/profiles.xml",
                    "--profile=" + profile.rawValue, "--quickest", "--output-text-all", "--output-stdout", "--quiet",
                    "--lat1=" + Self.degrees(start.latitudeDegrees), "--lon1=" + Self.degrees(start.longitudeDegrees),
                    "--lat2=" + Self.degrees(end.latitudeDegrees), "--lon2=" + Self.degrees(end.longitudeDegrees),
                ], standardErrorPath: errorsPath)
        } catch {
            throw .routerFailed("\(error)")
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeoutSeconds * 1000))
        var reader = Self.OutputReader()
        var timedOut = false
        _ = process.forEachLine(
            maximumLineBytes: Self.maximumLineBytes,
            stopWhen: {
                timedOut = ContinuousClock.now >= deadline
                return timedOut || stop()
            }
        ) { line in
            reader.take(line)
            return reader.nodes.count <= Self.maximumNodes
        }
        if timedOut || reader.nodes.count > Self.maximumNodes { process.kill() }
        let status = process.wait()
        // The errors are read once and the file removed: nothing is left in the state directory.
        let errors = MapImport.firstLine(errorsPath)
        try? FileSystem.removeFile(errorsPath)
        if timedOut { throw .timedOut(seconds: timeoutSeconds) }
        if reader.nodes.count > Self.maximumNodes { throw .tooLong(nodes: Self.maximumNodes) }
        guard status == 0 else { throw Self.failure(status: status, errors: errors, profile: profile) }
        if let jump = reader.jumpMeters {
            throw .damaged("its route jumps \(WalkPlan.Turn.spoken(meters: jump)) between two points one segment apart")
        }
        guard reader.nodes.count >= 2, let first = reader.nodes.first?.coordinate, let last = reader.nodes.last?.coordinate else {
            throw .routerFailed("its output held no route")
        }
        // Routino starts and ends on the way nearest each end, however far: a point in the sea
        // is not on a walk.
        let startGap = Geodesic.wgs84.inverse(from: start, to: first).distanceMeters
        if startGap > Self.maximumSnapMeters { throw .farFromWays(end: .start, meters: startGap) }
        let endGap = Geodesic.wgs84.inverse(from: end, to: last).distanceMeters
        if endGap > Self.maximumSnapMeters { throw .farFromWays(end: .destination, meters: endGap) }
        let plan = WalkPlan(nodes: reader.nodes, durationSeconds: reader.minutes * 60)
        // The daemon follows it as a route, which keeps at most 1000 waypoints.
        if plan.waypoints.count >= Self.maximumWaypoints { throw .tooLong(nodes: reader.nodes.count) }
        return plan
    }

    /// What the router's exit and first error line mean.
    static func failure(status: Int32, errors: String?, profile: Profile) -> Failure {
        let line = errors ?? ""
        if line.contains("close to specified point 1") { return .farFromWays(end: .start, meters: nil) }
        if line.contains("close to specified point") { return .farFromWays(end: .destination, meters: nil) }
        if line.contains("compatible with profile") || line.contains("Cannot find route") { return .noPath(profile) }
        if status > 128 { return .routerFailed("ended by signal \(status - 128)" + (line.isEmpty ? "" : " (\(line))")) }
        return .routerFailed(line.isEmpty ? "exit status \(status)" : line)
    }

    private static func degrees(_ value: Double) -> String { DecimalFormat.fixed(value, fractionDigits: 7) }

    /// Reads `--output-text-all`: a `#` header, then a line a node, tab-separated: latitude,
    /// longitude, node number, type (`Waypt#1`, `Junct`, `Junct-`, `Change`, `Inter`), the
    /// segment's distance (km) and duration (min), the totals, the speed, the bearing and the
    /// way's name (or what it is, for a way without one), the last four empty on the first line.
    struct OutputReader {
        private(set) var nodes: [WalkPlan.Node] = []
        /// The total duration at the last node, minutes.
        private(set) var minutes = 0.0
        /// Two nodes farther apart than the segment between them says, metres: a database
        /// Routino read wrongly (one truncated gives a route that leaps across the map).
        private(set) var jumpMeters: Double?

        mutating func take(_ line: ArraySlice<UInt8>) {
            guard let first = line.first(where: { $0 != UInt8(ascii: " ") }), first != UInt8(ascii: "#") else { return }
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map {
                String(ConfigurationLine.trimmingWhitespace(Substring(decoding: $0, as: UTF8.self)))
            }
            guard fields.count >= 8, let latitude = Double(fields[0]), let longitude = Double(fields[1]),
                (-90...90).contains(latitude), (-180...180).contains(longitude)
            else { return }
            let way = fields.count > 10 ? fields[10] : ""
            let coordinate = Coordinate(uncheckedLatitudeDegrees: latitude, longitudeDegrees: longitude)
            if let previous = nodes.last?.coordinate, let segmentKilometres = Double(fields[4]) {
                let meters = Geodesic.wgs84.inverse(from: previous, to: coordinate).distanceMeters
                // Routino measures on its own approximation and prints whole metres.
                if abs(meters - segmentKilometres * 1000) > max(15, 0.2 * meters) { jumpMeters = max(jumpMeters ?? 0, meters) }
            }
            nodes.append(
                WalkPlan.Node(coordinate: coordinate, way: String(way.prefix(200)), isJunction: fields[3].hasPrefix("Junct")))
            if let total = Double(fields[7]) { minutes = total }
        }
    }
}
