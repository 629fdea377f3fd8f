@preconcurrency import Glibc
import ControlProtocol
import Core
import Daemon
import GPX
import Geodesy
import Guidance
import Haptics
import Heading
import Simulation
import SystemSupport

/// Routes and the trail (issue 19): guiding along a route must cost a sample no more than
/// guiding to a point; importing a GPX file and exporting the trail are timed, each in its own
/// process (`waypoint-bench gpx-import`, `trail-export`) so that its peak memory is its own.
enum RouteBench {
    static let origin = Coordinate(uncheckedLatitudeDegrees: 48.8556, longitudeDegrees: 2.2986)

    /// `meters` north and `east` metres east of the origin, roughly.
    static func point(north: Double, east: Double = 0) -> Coordinate {
        Coordinate(
            uncheckedLatitudeDegrees: origin.latitudeDegrees + north / 111_200,
            longitudeDegrees: origin.longitudeDegrees + east / 73_200)
    }

    static func fix(_ coordinate: Coordinate, second: Int) -> Fix {
        var fix = Fix(mode: .threeDimensional, time: UTCTime(seconds: 1_782_950_400 + Int64(second)), coordinate: coordinate)
        fix.horizontalErrorMeters = 4
        fix.altitudeMSLMeters = 35
        return fix
    }

    /// Per IMU sample and per fix, with a 50-waypoint route loaded and with a point: time and
    /// heap allocations of ``DaemonState/imu(_:at:)`` and ``DaemonState/fix(_:at:)``.
    static func runGuiding() {
        var physics = SensorPhysics(latitudeDegrees: 48.8584, longitudeDegrees: 2.2945, decimalYear: 2026.5, seed: 9)
        let samples = (0..<inputCount).map { i in physics.sample(Attitude(yawDegrees: Double(i % 360), pitchDegrees: 0, rollDegrees: 0)) }
        let fixes = (0..<inputCount).map { fix(point(north: Double($0 % 400)), second: $0) }
        let waypoints = (1...50).map { index in
            let place = point(north: Double(index) * 40, east: Double(index % 2) * 30)
            return DestinationReport(latitude: place.latitudeDegrees, longitude: place.longitudeDegrees)
        }
        for routed in [false, true] {
            var state = DaemonState(
                pipeline: NavigationPipeline(calibration: .identity), saved: .initial, builtInCalibration: .identity)
            let far = point(north: 2000)
            let request: ControlRequest =
                routed
                ? .route(.load(name: "bench", waypoints: waypoints))
                : .go(latitude: far.latitudeDegrees, longitude: far.longitudeDegrees, name: "far")
            _ = state.handle(request, DaemonState.RequestContext(seconds: 0))
            var seconds = 1.0
            _ = state.fix(fixes[0], at: seconds)
            let name = routed ? "guiding.route" : "guiding.point"
            Benchmark.report(
                "\(name).sample",
                Benchmark.nanosecondsPerOperation(samples) { sample in
                    seconds += 0.02
                    return Double(state.imu(sample, at: seconds).actions.count)
                }, "ns/sample")
            if let allocations = Benchmark.allocations({
                var sink = 0.0
                for sample in samples {
                    seconds += 0.02
                    sink += Double(state.imu(sample, at: seconds).actions.count)
                }
                Benchmark.consume(sink)
            }) {
                Benchmark.report("\(name).allocations", Double(allocations) / Double(samples.count), "allocations/sample")
            }
            if let allocations = Benchmark.allocations({
                var sink = 0.0
                for fix in fixes {
                    seconds += 1
                    // A waypoint reached saves its progress: that effect list may allocate, a plain fix
                    // may not (nor its trail point, but once a minute for the append).
                    sink += Double(state.fix(fix, at: seconds).actions.count)
                }
                Benchmark.consume(sink)
            }) {
                Benchmark.report("\(name).fix.allocations", Double(allocations) / Double(fixes.count), "allocations/fix")
            }
        }
    }

    /// Reading a 10 000-point GPX track and making a route of it, as `route load` does.
    static func runImport() {
        let track = (0..<10_000).map { index in
            let place = point(north: Double(index) * 1.4, east: 30 * sin(Double(index) / 40))
            return GPXPoint(
                latitudeDegrees: place.latitudeDegrees, longitudeDegrees: place.longitudeDegrees, elevationMeters: 35,
                time: UTCTime(seconds: 1_782_950_400 + Int64(index)).iso8601)
        }
        let text = GPXWriter.text(GPXDocument(tracks: [GPXTrack(name: "walk", segments: [track])]), creator: "waypoint-bench")
        let bytes = Array(text.utf8)
        let before = Benchmark.peakResidentKilobytes() ?? 0
        let nanoseconds = Benchmark.nanosecondsPerOperation([bytes]) { bytes in
            guard let document = try? GPXReader.read(bytes) else { return 0 }
            let points = document.tracks[0].segments[0].map {
                Coordinate(uncheckedLatitudeDegrees: $0.latitudeDegrees, longitudeDegrees: $0.longitudeDegrees)
            }
            return Double(TrackSimplifier.simplify(points).count)
        }
        Benchmark.report("gpx.import.10k", nanoseconds / 1e6, "ms")
        Benchmark.report("gpx.import.file", Double(bytes.count) / 1024, "kB")
        Benchmark.report("gpx.import.peak_rss", Double(Benchmark.peakResidentKilobytes() ?? 0), "kB")
        Benchmark.report("gpx.import.peak_rss_increase", Double((Benchmark.peakResidentKilobytes() ?? 0) - before), "kB")
    }

    /// Exporting a 100 000-point trail as `track export` does: the daemon's pages (read from
    /// its files, encoded as `TRACK` lines), decoded by the client and written as GPX.
    static func runExport() async {
        let directory = "/tmp/waypoint-bench-trail-\(getpid())"
        mkdir(directory, 0o700)
        defer {
            unlink(directory + "/" + TrailFiles.fileName)
            unlink(directory + "/" + TrailFiles.olderFileName)
            rmdir(directory)
        }
        var thinning = TrailThinner.Settings()
        thinning.spacingMeters = 0
        var limits = TrailLog.Limits()
        limits.fileBytes = 16 << 20
        let core = DaemonCore(
            state: DaemonState(
                pipeline: NavigationPipeline(calibration: .identity), saved: .initial,
                trail: TrailLog(limits: limits, thinning: thinning)),
            clock: ContinuousClock(), wallClock: { 1_782_950_400 }, motor: SilentMotor(), store: nil,
            trailFiles: TrailFiles(directory: directory, limits: limits), logger: Logger(label: "bench", level: .error, handler: StandardErrorLogHandler()))
        for second in 0..<100_000 { core.fix(fix(point(north: Double(second % 5000)), second: second)) }
        core.stop()
        let before = Benchmark.peakResidentKilobytes() ?? 0
        var pointCount = 0
        let clock = ContinuousClock()
        let started = clock.now
        var size = 0
        exporting: do {
            var segments: [[GPXPoint]] = []
            var cursor: String?
            repeat {
                let reply = core.handle(.track(.export(since: nil, until: nil, cursor: cursor)))
                guard case .track(let decoded)? = try? ControlReply(line: reply.line.dropLast()) else { break exporting }
                for point in decoded.points {
                    if point.startsSegment || segments.isEmpty { segments.append([]) }
                    segments[segments.count - 1].append(
                        GPXPoint(latitudeDegrees: point.latitude, longitudeDegrees: point.longitude, elevationMeters: point.elevationMeters))
                }
                cursor = decoded.next
            } while cursor != nil
            let document = GPXDocument(tracks: [GPXTrack(segments: segments)])
            pointCount = document.pointCount
            size = GPXWriter.text(document, creator: "waypoint-bench").utf8.count
        }
        Benchmark.consume(Double(size))
        Benchmark.report("trail.export.100k", started.duration(to: clock.now).seconds * 1000, "ms")
        Benchmark.report("trail.export.points", Double(pointCount), "points")
        Benchmark.report("trail.export.peak_rss", Double(Benchmark.peakResidentKilobytes() ?? 0), "kB")
        Benchmark.report("trail.export.peak_rss_increase", Double((Benchmark.peakResidentKilobytes() ?? 0) - before), "kB")
    }
}
