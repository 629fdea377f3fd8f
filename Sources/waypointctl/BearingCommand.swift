import ClientSupport
import CommandLineSupport
import Geodesy

/// `waypointctl bearing`: the initial and final bearing and the distance between two points on
/// the WGS84 ellipsoid, offline.
enum BearingCommand {
    static let name = "bearing"
    /// Its options that take a value, and its flags (the bash completion offers them).
    static let valueOptions = ["--near"]
    static let flagOptions = ["--batch"]

    static func run(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, valueOptions: Set(valueOptions), flagOptions: Set(flagOptions), command: name)
        if arguments.has("--batch") {
            guard arguments.positionals.isEmpty, arguments.value("--near") == nil else {
                throw UsageError("--batch reads points from standard input and takes no coordinates", command: name)
            }
            return runBatch()
        }
        let (from, to) = try endpoints(arguments.positionals, near: try PlaceText.near(arguments, command: name))
        let result = Geodesic.wgs84.inverse(from: from, to: to)
        Console.output("from             \(from.formattedDegreesMinutesSeconds())")
        Console.output("to               \(to.formattedDegreesMinutesSeconds())")
        Console.output("distance         \(Presentation.distance(meters: result.distanceMeters))")
        if result.distanceMeters == 0 {
            Console.output("bearing          none: the two points are the same")
        } else {
            Console.output("initial bearing  \(Presentation.bearing(degrees: result.initialAzimuthDegrees))")
            Console.output("final bearing    \(Presentation.bearing(degrees: result.finalAzimuthDegrees))")
        }
        return .success
    }

    /// Two places, each one argument (`"48.8584 2.2945"`, `geo:48.8584,2.2945`, DMS, a map
    /// link, a plus code …), or four plain numbers `LAT1 LON1 LAT2 LON2`.
    private static func endpoints(_ positionals: [String], near: Coordinate?) throws(UsageError) -> (Coordinate, Coordinate) {
        let texts: [String]
        switch positionals.count {
        case 2: texts = positionals
        case 4: texts = [positionals[0] + " " + positionals[1], positionals[2] + " " + positionals[3]]
        default:
            throw UsageError(
                "bearing needs two points (FROM TO, or LAT1 LON1 LAT2 LON2); got \(positionals.count) arguments",
                command: name)
        }
        var points: [Coordinate] = []
        for (label, text) in zip(["FROM", "TO"], texts) {
            do throws(UsageError) {
                if case .location(let location) = try PlaceText.read(text, near: near, fixMayHelp: false, command: name) {
                    points.append(location.coordinate)
                }
            } catch {
                throw UsageError("\(label) \(error.message)", command: name)
            }
        }
        return (points[0], points[1])
    }

    /// stdin `lat1 lon1 lat2 lon2` → stdout `azi1 azi2 s12`, as GeographicLib's `GeodSolve -i`.
    private static func runBatch() -> ExitStatus {
        BatchInput.run(
            fields: [.latitude("lat1"), .number("lon1"), .latitude("lat2"), .number("lon2")], outputFieldCount: 3
        ) { numbers in
            let result = Geodesic.wgs84.inverse(
                latitude1Degrees: numbers[0], longitude1Degrees: numbers[1],
                latitude2Degrees: numbers[2], longitude2Degrees: numbers[3])
            return "\(result.initialAzimuthDegrees) \(result.finalAzimuthDegrees) \(result.distanceMeters)"
        }
    }
}
