// waypoint-bench: speed of the navigation math, one metric per line (`name value unit`).
//   waypoint-bench                  every built-in metric
//   waypoint-bench geodesic FILE    the inverse over the first four columns of FILE's rows
//   waypoint-bench locations        reading shared links, plus codes and typed coordinates
//   waypoint-bench gpx-import       reading a 10 000-point GPX track into a route (its own process: its peak memory)
//   waypoint-bench trail-export     exporting a 100 000-point trail as GPX (likewise)
//   waypoint-bench latency [--marks]   zone entry to the motor's first duty rise, on the daemon's threads (real time, ~2 min;
//                                   --marks: four sweeps, each crossing's marks printed)
//   waypoint-bench heading [NAME=VALUE ...] < RECORDING   replay with heading settings changed (scripts/broad-loo.py)
@preconcurrency import Glibc
import Dispatch
import Geodesy
import Geomagnetism
import Guidance
import Haptics
import Heading
import LocationIntake
import Simulation

typealias GeodesicPair = (lat1: Double, lon1: Double, lat2: Double, lon2: Double)

let inputCount = 4096
let meanEarthRadiusMeters = 6_371_008.8
let degreesPerRadian = 180 / Double.pi

/// Points spread evenly over the sphere, each paired with a second point: another point
/// anywhere when `distanceMeters` is nil, else one at a walking distance in some direction.
func pairs(distanceMeters: ClosedRange<Double>?) -> [GeodesicPair] {
    (0..<inputCount).map { i in
        let u = (0..<5).map { Benchmark.quasiRandom(i, dimension: $0, of: 5) }
        let lat1 = asin(2 * u[0] - 1) * degreesPerRadian
        let lon1 = 360 * u[1] - 180
        guard let distanceMeters else {
            return (lat1, lon1, asin(2 * u[2] - 1) * degreesPerRadian, 360 * u[3] - 180)
        }
        // Log-uniform distance, offset on a local sphere: only the inputs need to be realistic.
        let meters = distanceMeters.lowerBound * pow(distanceMeters.upperBound / distanceMeters.lowerBound, u[2])
        let azimuth = 2 * Double.pi * u[3]
        let dLat = meters * cos(azimuth) / meanEarthRadiusMeters * degreesPerRadian
        let dLon = meters * sin(azimuth) / (meanEarthRadiusMeters * max(cos(lat1 / degreesPerRadian), 1e-6))
            * degreesPerRadian
        return (lat1, lon1, max(-90, min(90, lat1 + dLat)), lon1 + dLon)
    }
}

func inverse(_ pair: GeodesicPair) -> Double {
    let result = Geodesic.wgs84.inverse(
        latitude1Degrees: pair.lat1, longitude1Degrees: pair.lon1,
        latitude2Degrees: pair.lat2, longitude2Degrees: pair.lon2)
    return result.distanceMeters + result.initialAzimuthDegrees + result.finalAzimuthDegrees
}

func runBuiltIn() {
    Benchmark.report(
        "geodesic.inverse.short", Benchmark.nanosecondsPerOperation(pairs(distanceMeters: 1...5000), inverse), "ns/op")
    Benchmark.report(
        "geodesic.inverse.long", Benchmark.nanosecondsPerOperation(pairs(distanceMeters: nil), inverse), "ns/op")

    let places = (0..<inputCount).map { i in
        let u = (0..<4).map { Benchmark.quasiRandom(i, dimension: $0, of: 4) }
        return (latitude: asin(2 * u[0] - 1) * degreesPerRadian, longitude: 360 * u[1] - 180,
                heightKilometers: 5 * u[2], year: 2025 + 5 * u[3])
    }
    Benchmark.report(
        "wmm.field",
        Benchmark.nanosecondsPerOperation(places) { place in
            MagneticModel.wmm2025.field(
                latitudeDegrees: place.latitude, longitudeDegrees: place.longitude,
                heightAboveEllipsoidKilometers: place.heightKilometers, decimalYear: place.year
            ).declinationDegrees
        },
        "ns/op")
    runLocations()
    runHeading()
    RouteBench.runGuiding()
    runHaptics()
    if let kilobytes = Benchmark.peakResidentKilobytes() {
        Benchmark.report("process.peak_rss", Double(kilobytes), "kB")
    }
}

/// Reading what a phone shares (issue 26, aim ≤ 5 µs a link): one shape of each service, a
/// link inside a message, a geo: label and plus codes, each to a location; and typed
/// coordinates, for scale.
func runLocations() {
    let links = [
        ("google-place", "https://www.google.com/maps/place/Eiffel+Tower/@48.8583701,2.2919064,17z/data=!3m1!4b1!4m6!3m5!1s0x47e66e2964e34e2d:0x8ddca9ee380ef7e0!8m2!3d48.8583701!4d2.2944813!16zL20vMDJqODE"),
        ("google-q", "https://maps.google.com/?q=48.8584,2.2945"),
        ("google-api", "https://www.google.com/maps/search/?api=1&query=48.8584%2C2.2945"),
        ("apple", "https://maps.apple.com/?ll=48.858370,2.294481&q=Eiffel%20Tower&t=m"),
        ("openstreetmap", "https://www.openstreetmap.org/?mlat=48.85837&mlon=2.29448#map=17/48.85837/2.29448"),
        ("osmand", "https://osmand.net/go?lat=48.85837&lon=2.29448&z=16"),
        ("waze", "https://waze.com/ul?ll=48.85837,2.29448&navigate=yes"),
        ("bing", "https://www.bing.com/maps?cp=48.85837~2.29448&lvl=17"),
        ("in-message", "Meet me here: https://maps.apple.com/?ll=48.858370,2.294481&q=Eiffel%20Tower thanks"),
        ("geo-label", "geo:0,0?q=48.8584,2.2945(Eiffel%20Tower)"),
        ("plus-code", "8FW4V75V+8Q"),
        ("short-plus-code", "V75V+8Q Paris"),
        ("typed-dms", #"48°51'30.2"N 2°17'40.2"E"#),
    ]
    let reference = Coordinate(uncheckedLatitudeDegrees: 48.86, longitudeDegrees: 2.35)
    let read = { (text: String) in (try? LocationParser.parse(text, near: reference))?.coordinate.latitudeDegrees ?? 0 }
    // The mean over the shared forms (the aim is per link), then each form.
    let shared = links.filter { $0.0 != "typed-dms" }.map(\.1)
    let inputs = (0..<inputCount).map { shared[$0 % shared.count] }
    Benchmark.report("location.parse.link", Benchmark.nanosecondsPerOperation(inputs, read), "ns/op")
    for (name, text) in links {
        Benchmark.report("location.parse.\(name)", Benchmark.nanosecondsPerOperation([text], read), "ns/op")
    }
}

/// The heading pipeline's cost per IMU sample, and its heap allocations per sample in steady
/// state (counted when `make bench` preloads scripts/bench/count-allocations.c).
func runHeading() {
    var physics = SensorPhysics(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945, decimalYear: 2026.5, seed: 9)
    let samples = (0..<inputCount).map { i in
        physics.sample(Attitude(yawDegrees: Double(i % 360), pitchDegrees: 10 * sin(Double(i) / 50), rollDegrees: -5))
    }
    // With a gyroscope: the same turning, with the rates that make it.
    func attitude(_ i: Int) -> Attitude {
        Attitude(yawDegrees: Double(i % 360), pitchDegrees: 10 * sin(Double(i) / 50), rollDegrees: -5)
    }
    let gyroscopeSamples = (0..<inputCount).map { i in
        // Yaw at 50 °/s about the vertical, pitch swinging about the body's y axis (near enough
        // at 5° of roll for a cost measurement).
        let rates = attitude(i).toBody(Vector3(0, 0, 50)) + Vector3(0, 10 * cos(Double(i) / 50), 0)
        return physics.sample(attitude(i), bodyRatesDegreesPerSecond: rates)
    }
    let model = HeadingEstimator.ModelField(declinationDegrees: 1.1, totalIntensityMicrotesla: 48.5, inclinationDegrees: 64)
    for (name, input) in [("heading.pipeline", samples), ("heading.pipeline.gyro", gyroscopeSamples)] {
        var estimator = HeadingEstimator(calibration: .identity)
        Benchmark.report(
            "\(name).sample",
            Benchmark.nanosecondsPerOperation(input) { estimator.update($0, seconds: 0.02, model: model).trueDegrees ?? 0 },
            "ns/sample")
        if let allocations = Benchmark.allocations({
            var sink = 0.0
            for sample in input { sink += estimator.update(sample, seconds: 0.02, model: model).trueDegrees ?? 0 }
            Benchmark.consume(sink)
        }) {
            Benchmark.report("\(name).allocations", Double(allocations) / Double(input.count), "allocations/sample")
        } else {
            print("\(name).allocations n/a allocations/sample (needs LD_PRELOAD of count-allocations.so; make bench does it)")
        }
    }
}

/// The renderer's cost per duty edge, and how often the player wakes while rendering a steady
/// cue in real time (it should wake only at pulse edges and at the end of each gap).
func runHaptics() {
    let settings = MotorSettings()
    let renderer = ERMRenderer(settings: settings)
    let cues = (0..<inputCount).map { i in
        HapticCue(intensity: Benchmark.quasiRandom(i, dimension: 0, of: 2), sharpness: Benchmark.quasiRandom(i, dimension: 1, of: 2))
    }
    let edgesPerPulse = Double(cues.reduce(0) { $0 + renderer.pulse(for: $1).steps.count }) / Double(cues.count)
    let nanosecondsPerPulse = Benchmark.nanosecondsPerOperation(cues) { Double(renderer.pulse(for: $0).steps.count) }
    Benchmark.report("haptics.render.edge", nanosecondsPerPulse / edgesPerPulse, "ns/edge")
    // Rendering builds a small array per pulse (a few a second): allowed, and a check that the
    // allocation counter counts.
    if let allocations = Benchmark.allocations({ Benchmark.consume(Double(cues.map { renderer.pulse(for: $0).steps.count }.count)) }) {
        Benchmark.report("haptics.render.allocations", Double(allocations) / Double(cues.count), "allocations/pulse")
    }

    let channel = CountingChannel(periodNanoseconds: settings.periodNanoseconds)
    let player = HapticPlayer(channel: channel, settings: settings, clock: ContinuousClock())
    let seconds = 3.0
    let wakeups = Benchmark.contextSwitches {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let running = Task { try? await player.run() }
            player.deliver(cue: HapticCue(intensity: 0.55, sharpness: 0.4))
            try? await Task.sleep(for: .seconds(seconds))
            running.cancel()
            _ = await running.value
            done.signal()
        }
        done.wait()
    }
    Benchmark.report("haptics.player.writes", Double(channel.count) / seconds, "writes/s")
    Benchmark.report("haptics.player.wakeups", Double(wakeups) / seconds, "wakeups/s")
}

/// A channel that only counts writes.
final class CountingChannel: PWMChannel, @unchecked Sendable {
    let periodNanoseconds: UInt64
    private(set) var count = 0
    init(periodNanoseconds: UInt64) { self.periodNanoseconds = periodNanoseconds }
    func setDutyCycle(nanoseconds: UInt64) throws(PWMError) { count += 1 }
    func shutDown() throws(PWMError) {}
}

func runFile(_ path: String) -> Int32 {
    guard let lines = Benchmark.lines(ofFile: path) else {
        fputs("waypoint-bench: cannot read \(path): \(String(cString: strerror(errno)))\n", stderr)
        return 66
    }
    let rows: [GeodesicPair] = lines.compactMap { line in
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).prefix(4).compactMap { Double($0) }
        return fields.count == 4 ? (fields[0], fields[1], fields[2], fields[3]) : nil
    }
    guard !rows.isEmpty else {
        fputs("waypoint-bench: \(path) has no rows of four numbers\n", stderr)
        return 65
    }
    Benchmark.report("geodesic.inverse.file", Benchmark.nanosecondsPerOperation(rows, inverse), "ns/op")
    return 0
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.count {
case 0:
    runBuiltIn()
case 2 where arguments[0] == "geodesic":
    exit(runFile(arguments[1]))
case 1 where arguments[0] == "locations":
    runLocations()
case 1 where arguments[0] == "gpx-import":
    RouteBench.runImport()
case 1 where arguments[0] == "trail-export":
    await RouteBench.runExport()
case 1 where arguments[0] == "latency":
    exit(await LatencyBench.run(sweeps: LatencyBench.sweeps, printingMarks: false))
case 2 where arguments[0] == "latency" && arguments[1] == "--marks":
    exit(await LatencyBench.run(sweeps: 4, printingMarks: true))
case _ where arguments.first == "heading":
    exit(HeadingReplay.run(Array(arguments.dropFirst())))
default:
    fputs("usage: waypoint-bench [geodesic FILE | locations | gpx-import | trail-export | latency [--marks] | heading [NAME=VALUE ...] < RECORDING]\n", stderr)
    exit(64)
}
