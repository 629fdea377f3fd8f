import Daemon
import Foundation
import Geodesy
@preconcurrency import Glibc
import Core
import Heading
import Synchronization
import SystemSupport
import Testing

// MARK: - Fixtures

private let eiffel = SavedDestination(
    coordinate: Coordinate(uncheckedLatitudeDegrees: 48.8584, longitudeDegrees: 2.2945), name: "Eiffel Tower")
private let opera = SavedDestination(
    coordinate: Coordinate(uncheckedLatitudeDegrees: -33.8568, longitudeDegrees: 151.2153),
    name: "Opéra \"House\" / Sydney")
private let unnamed = SavedDestination(
    coordinate: Coordinate(uncheckedLatitudeDegrees: 0.1 + 0.2, longitudeDegrees: -179.999_999_999_999_97))

private func place(_ latitude: Double, _ longitude: Double, _ name: String? = nil) -> SavedDestination {
    SavedDestination(
        coordinate: Coordinate(uncheckedLatitudeDegrees: latitude, longitudeDegrees: longitude), name: name)
}

private let fittedCalibration = SavedCalibration(
    calibration: MagneticCalibration(
        offsetMicrotesla: Vector3(12.5, -3.25, 40.125),
        matrix: Matrix3(
            Vector3(1.021_334_5, 0.010_2, -0.003_1), Vector3(0.010_2, 0.981_1, 0.002_4),
            Vector3(-0.003_1, 0.002_4, 1.000_7))),
    createdAt: UTCTime(seconds: 1_777_636_800, nanoseconds: 250_000_000),
    quality: SavedCalibration.Quality(
        fitErrorPercent: 1.83, coveragePercent: 96.15, fittedFieldMicrotesla: 47.912, referenceFieldMicrotesla: 48.301,
        sampleCount: 412))

private let handCalibration = SavedCalibration(
    calibration: MagneticCalibration(offsetMicrotesla: Vector3(-1, 2, -3), matrix: .identity),
    createdAt: UTCTime(seconds: 1_700_000_000))

/// Every item set, so that a test can see which ones survive; the target is a route (a
/// destination is the other kind, held in the same file).
private let everything = PersistentState(
    recent: RecentDestinations([eiffel, opera, unnamed]), muted: true,
    calibration: fittedCalibration,
    route: SavedRoute(
        name: "Seine walk", waypoints: [eiffel, SavedDestination(coordinate: opera.coordinate, arrivalRadiusMeters: 8), unnamed],
        index: 1),
    places: PlaceBook([SavedDestination(coordinate: eiffel.coordinate, name: "Tower", arrivalRadiusMeters: 25), opera]))

// MARK: - Helpers

/// A fresh directory under the system's temporary directory, removed when the value goes away.
private final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("state-store-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    deinit {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            Issue.record("cannot remove \(path): \(error)")
        }
    }
}

private func bytes(at path: String) throws -> [UInt8] {
    try Array(Data(contentsOf: URL(fileURLWithPath: path)))
}

private func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

private func names(in directory: String) throws -> Set<String> {
    Set(try FileManager.default.contentsOfDirectory(atPath: directory))
}

private func permissions(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? Int)
}

private func saveAll(_ state: PersistentState, in store: StateStore) throws {
    try store.save(.target, from: PersistentState(destination: state.destination, route: state.route))
    try store.save(.recent, from: PersistentState(recent: state.recent))
    try store.save(.mute, from: PersistentState(muted: state.muted))
    try store.save(.calibration, from: PersistentState(calibration: state.calibration))
    try store.save(.places, from: PersistentState(places: state.places))
}

/// The real system calls, except for one chosen call on one chosen path, which fails with a
/// chosen errno; a write can be made to fail only after writing some bytes for real, as a full
/// disk does. Every call is logged, with its path.
private final class FaultyFileSystem: StateFileSystem, Sendable {
    enum Call: String, Sendable {
        case kind, makeDirectory, checkWritableDirectory, open, read, write, sync, close, rename, removeFile
    }

    struct Fault: Sendable {
        var call: Call
        var path: String
        var errno: Errno
        /// For `write`: bytes really written to the file before the failure.
        var bytesBeforeFailure = 0
    }

    private struct State {
        var fault: Fault?
        var paths: [Int32: String] = [:]
        var written: [Int32: Int] = [:]
        var log: [String] = []
    }

    private let real = LinuxStateFileSystem()
    private let state: Mutex<State>

    init(_ fault: Fault? = nil) { state = Mutex(State(fault: fault)) }

    /// The calls made so far, e.g. `rename /tmp/…/mute.json.tmp -> /tmp/…/mute.json`.
    var log: [String] { state.withLock { $0.log } }

    /// Whether the fault has fired.
    var faultFired: Bool { state.withLock { $0.fault == nil } }

    /// Logs a call and decides whether it fails.
    private func check(_ call: Call, _ path: String, _ detail: String = "") throws(Errno) {
        let failure: Errno? = state.withLock { state in
            state.log.append("\(call.rawValue) \(path)\(detail)")
            guard let fault = state.fault, fault.call == call, fault.path == path, call != .write else { return nil }
            state.fault = nil
            return fault.errno
        }
        if let failure { throw failure }
    }

    private func path(of descriptor: FileDescriptor) -> String {
        state.withLock { $0.paths[descriptor.rawValue] ?? "fd \(descriptor.rawValue)" }
    }

    func kind(of path: String) throws(Errno) -> FileSystem.Kind? {
        try check(.kind, path)
        return try real.kind(of: path)
    }

    func makeDirectory(_ path: String, permissions: UInt32) throws(Errno) {
        try check(.makeDirectory, path)
        try real.makeDirectory(path, permissions: permissions)
    }

    func checkWritableDirectory(_ path: String) throws(Errno) {
        try check(.checkWritableDirectory, path)
        try real.checkWritableDirectory(path)
    }

    func open(
        _ path: String, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions, permissions: UInt32
    ) throws(Errno) -> FileDescriptor {
        try check(.open, path)
        let descriptor = try real.open(path, mode, options: options, permissions: permissions)
        state.withLock {
            $0.paths[descriptor.rawValue] = path
            $0.written[descriptor.rawValue] = 0
        }
        return descriptor
    }

    func kind(of descriptor: FileDescriptor) throws(Errno) -> FileSystem.Kind { try real.kind(of: descriptor) }

    func read(_ descriptor: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try check(.read, path(of: descriptor))
        return try real.read(descriptor, into: buffer)
    }

    func write(_ descriptor: FileDescriptor, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        let path = path(of: descriptor)
        try check(.write, path)
        // nil: write everything asked; a count: write only that many; an errno: fail.
        let decision: Result<Int?, Errno> = state.withLock { state in
            guard let fault = state.fault, fault.call == .write, fault.path == path else { return .success(nil) }
            let done = state.written[descriptor.rawValue, default: 0]
            if done >= fault.bytesBeforeFailure {
                state.fault = nil
                return .failure(fault.errno)
            }
            let allowed = min(buffer.count, fault.bytesBeforeFailure - done)
            state.written[descriptor.rawValue] = done + allowed
            return .success(allowed)
        }
        switch decision {
        case .failure(let error):
            throw error
        case .success(let allowed):
            return try real.write(descriptor, UnsafeRawBufferPointer(rebasing: buffer[0..<(allowed ?? buffer.count)]))
        }
    }

    func sync(_ descriptor: FileDescriptor) throws(Errno) {
        try check(.sync, path(of: descriptor))
        try real.sync(descriptor)
    }

    func close(_ descriptor: FileDescriptor) throws(Errno) {
        let path = path(of: descriptor)
        state.withLock { _ = $0.paths.removeValue(forKey: descriptor.rawValue) }
        // A failing close still releases the descriptor, as on Linux.
        do throws(Errno) {
            try check(.close, path)
        } catch {
            try real.close(descriptor)
            throw error
        }
        try real.close(descriptor)
    }

    func rename(_ source: String, to destination: String) throws(Errno) {
        try check(.rename, source, " -> \(destination)")
        try real.rename(source, to: destination)
    }

    func removeFile(_ path: String) throws(Errno) {
        try check(.removeFile, path)
        try real.removeFile(path)
    }
}

// MARK: - Round trips and restarts

@Suite("State store: round trips", .timeLimit(.minutes(5)))
struct StateStoreRoundTripTests {
    @Test("a fresh directory loads as the defaults, with nothing to report")
    func freshDirectory() throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        let (state, report) = store.load()
        #expect(state == .initial)
        #expect(report.isClean)
        #expect(try names(in: temporary.path).isEmpty)
    }

    @Test("the destination round-trips exactly, named, unnamed, at the limits and cleared")
    func destination() throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        for destination in [
            eiffel, opera, unnamed, place(90, 180), place(-90, -180), place(0, 0),
            // Quotes, a backslash and a slash take the JSON writer's escapes; control characters
            // cannot be saved at all (PlaceNameTests).
            place(1e-300, -0.0, "a b \"c\"\\/ ✓"),
        ] {
            try store.save(.target, from: PersistentState(destination: destination))
            let loaded = try StateStore(directory: temporary.path).load()
            #expect(loaded.state.destination == destination)
            #expect(
                loaded.state.destination?.coordinate.latitudeDegrees.bitPattern
                    == destination.coordinate.latitudeDegrees.bitPattern)
            #expect(loaded.report.isClean)
        }
        try store.save(.target, from: PersistentState(destination: nil))
        #expect(try StateStore(directory: temporary.path).load().state.destination == nil)
    }

    @Test("the recent list round-trips in order")
    func recent() throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        var recent = RecentDestinations()
        for destination in [unnamed, opera, eiffel, place(1, 2), place(3, 4, "four")] { recent.record(destination) }
        try store.save(.recent, from: PersistentState(recent: recent))
        #expect(try StateStore(directory: temporary.path).load().state.recent == recent)
        try store.save(.recent, from: PersistentState(recent: RecentDestinations()))
        #expect(try StateStore(directory: temporary.path).load().state.recent.isEmpty)
    }

    @Test("the mute state round-trips", arguments: [true, false])
    func mute(muted: Bool) throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        try store.save(.mute, from: PersistentState(muted: muted))
        #expect(try StateStore(directory: temporary.path).load().state.muted == muted)
    }

    @Test("the calibration round-trips with all, some and no quality figures, and is cleared")
    func calibration() throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        var partial = fittedCalibration
        partial.quality = SavedCalibration.Quality(coveragePercent: 100, sampleCount: 0)
        for calibration in [fittedCalibration, handCalibration, partial] {
            try store.save(.calibration, from: PersistentState(calibration: calibration))
            let loaded = try StateStore(directory: temporary.path).load()
            #expect(loaded.state.calibration == calibration)
            #expect(loaded.report.isClean)
        }
        try store.save(.calibration, from: PersistentState(calibration: nil))
        #expect(try StateStore(directory: temporary.path).load().state.calibration == nil)
    }

    @Test("a new store on the same directory, as after a restart, sees everything")
    func restart() throws {
        let temporary = try TemporaryDirectory()
        try saveAll(everything, in: StateStore(directory: temporary.path))
        let (state, report) = try StateStore(directory: temporary.path + "/").load()
        #expect(state == everything)
        #expect(report.isClean)
        #expect(
            try names(in: temporary.path).sorted() == [
                "calibration.json", "mute.json", "places.json", "recent.json", "target.json",
            ])
    }

    @Test("the files are the documented JSON, mode 0600")
    func format() throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        try saveAll(everything, in: store)
        func object(_ file: StateFile) throws -> [String: Any] {
            let data = Data(try bytes(at: store.path(of: file)))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let route = try object(.target)
        #expect(route["version"] as? Int == 1)
        #expect(route["destination"] is NSNull)
        let walked = try #require(route["route"] as? [String: Any])
        #expect(walked["name"] as? String == "Seine walk")
        #expect(walked["index"] as? Int == 1)
        let waypoints = try #require(walked["waypoints"] as? [[String: Any]])
        #expect(waypoints.map { $0["radius"] as? Double } == [nil, 8, nil])

        try store.save(.target, from: PersistentState(destination: eiffel))
        let destination = try object(.target)
        #expect(destination["route"] is NSNull)
        let place = try #require(destination["destination"] as? [String: Any])
        #expect(place["lat"] as? Double == 48.8584)
        #expect(place["lon"] as? Double == 2.2945)
        #expect(place["name"] as? String == "Eiffel Tower")

        let recent = try #require(try object(.recent)["recent"] as? [[String: Any]])
        #expect(recent.map { $0["name"] as? String } == ["Eiffel Tower", "Opéra \"House\" / Sydney", nil])
        #expect(recent[2].keys.sorted() == ["lat", "lon"])

        #expect(try object(.mute)["muted"] as? Bool == true)

        let calibration = try #require(try object(.calibration)["calibration"] as? [String: Any])
        #expect(calibration["offset"] as? [Double] == [12.5, -3.25, 40.125])
        #expect((calibration["matrix"] as? [[Double]])?.first == [1.021_334_5, 0.010_2, -0.003_1])
        #expect(calibration["createdAt"] as? String == "2026-05-01T12:00:00.250Z")
        let quality = try #require(calibration["quality"] as? [String: Any])
        #expect(quality["sampleCount"] as? Int == 412)
        #expect(quality["fitErrorPercent"] as? Double == 1.83)

        try store.save(.target, from: PersistentState(destination: nil))
        #expect(try object(.target)["destination"] is NSNull)
        #expect(try object(.target)["route"] is NSNull)
        #expect(String(decoding: try bytes(at: store.path(of: .target)), as: UTF8.self).hasSuffix("}\n"))

        for file in StateFile.allCases {
            #expect(try permissions(of: store.path(of: file)) == 0o600)
        }
    }

    @Test("after every successful save each file is complete JSON and no temporary file is left")
    func completeAfterEverySave() throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        var state = PersistentState.initial
        let destinations = [eiffel, opera, unnamed, place(10, 20), place(-10, -20, "x"), place(45, 90, "y")]
        for (step, destination) in destinations.enumerated() {
            state.destination = step % 3 == 2 ? nil : destination
            state.recent.record(destination)
            state.muted.toggle()
            state.calibration = step % 2 == 0 ? fittedCalibration : handCalibration
            try saveAll(state, in: store)
            for name in try names(in: temporary.path) {
                #expect(StateFile(rawValue: name) != nil, "unexpected file \(name)")
                let data = Data(try bytes(at: temporary.path + "/" + name))
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                #expect(object?["version"] as? Int == 1, "\(name) after save \(step)")
            }
            let loaded = try StateStore(directory: temporary.path).load()
            #expect(loaded.state == state)
            #expect(loaded.report.isClean)
        }
    }

    @Test("a save writes a temporary file, syncs it, renames it over the target, then syncs the directory")
    func durableSequence() throws {
        let temporary = try TemporaryDirectory()
        let fileSystem = FaultyFileSystem()
        let store = try StateStore(directory: temporary.path, fileSystem: fileSystem)
        let before = fileSystem.log.count
        try store.save(.mute, from: PersistentState(muted: true))
        let target = store.path(of: .mute)
        let staging = store.temporaryPath(of: .mute)
        #expect(
            Array(fileSystem.log[before...]) == [
                "open \(staging)", "write \(staging)", "sync \(staging)", "close \(staging)",
                "rename \(staging) -> \(target)", "open \(temporary.path)", "sync \(temporary.path)",
                "close \(temporary.path)",
            ])
    }
}

// MARK: - The recent list

@Suite("Recent destinations", .timeLimit(.minutes(5)))
struct RecentDestinationsTests {
    @Test("keeps the five newest, newest first")
    func capacity() {
        var recent = RecentDestinations()
        for index in 1...7 { recent.record(place(Double(index), 0, "\(index)")) }
        #expect(recent.count == RecentDestinations.capacity)
        #expect(recent.map(\.name) == ["7", "6", "5", "4", "3"])
    }

    @Test("choosing a destination again moves it to the front instead of repeating it")
    func duplicateMovesToFront() {
        var recent = RecentDestinations()
        for destination in [eiffel, opera, unnamed] { recent.record(destination) }
        // The same place to within 1e-7° and the same name.
        let again = place(48.8584 + 0.9e-7, 2.2945 - 0.9e-7, "Eiffel Tower")
        recent.record(again)
        #expect(recent.destinations == [again, unnamed, opera])
        recent.record(unnamed)
        #expect(recent.destinations == [unnamed, again, opera])
    }

    @Test("one entry per place (issue 18, item 3): the same spot under four names is one entry, the newest name kept")
    func onePerPlace() {
        var recent = RecentDestinations()
        recent.record(opera)
        // 48.8584, 2.2945 and points 1–4 m from it: 1e-5° of latitude is 1.1 m.
        for (index, name) in ["evil", nil, "Tour Eiffel", "Eiffel Tower"].enumerated() {
            recent.record(place(48.8584 + Double(index) * 1e-5, 2.2945, name))
        }
        #expect(recent.count == 2, "\(recent)")
        #expect(recent.first?.name == "Eiffel Tower")
        #expect(recent.first?.coordinate.latitudeDegrees == 48.8584 + 3e-5, "the newest position too")
        // Chosen again without a name: it keeps the one it had.
        recent.record(place(48.8584, 2.2945))
        #expect(recent.map(\.name) == ["Eiffel Tower", opera.name])
    }

    @Test("places more than 5 m apart are different destinations, whatever their names")
    func distinctPlaces() {
        var recent = RecentDestinations()
        recent.record(eiffel)
        // 6e-5° of latitude is 6.7 m; 9e-5° of longitude at 48.9° is 6.6 m.
        recent.record(place(48.8584 + 6e-5, 2.2945, "Eiffel Tower"))
        recent.record(place(48.8584, 2.2945 + 9e-5, "Eiffel Tower"))
        #expect(recent.count == 3)
    }

    @Test("a list read from elsewhere is brought under the rules")
    func normalizes() {
        let list = RecentDestinations([eiffel, opera, eiffel, unnamed, place(1, 1), place(2, 2), place(3, 3)])
        #expect(list.destinations == [eiffel, opera, unnamed, place(1, 1), place(2, 2)])
    }

    @Test("a recent.json with too many entries and repeats loads under the rules, without complaint")
    func normalizesOnLoad() throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        let entries = (0..<7).map { #"{"lat":\#($0 % 4),"lon":1,"name":"n\#($0 % 4)"}"# }
        try write(#"{"version":1,"recent":[\#(entries.joined(separator: ","))]}"#, to: store.path(of: .recent))
        let (state, report) = store.load()
        #expect(state.recent.map(\.name) == ["n0", "n1", "n2", "n3"])
        #expect(report.isClean)
    }
}

// MARK: - Damaged files

/// A damaged file and the defect it should be reported with.
struct Damage: Sendable, CustomTestStringConvertible {
    var file: StateFile
    var contents: String
    var defect: StateFileDefect

    var testDescription: String { "\(file): \(defect)" }
}

private let goodCalibrationFields = #""offset":[1,2,3],"createdAt":"2026-05-01T12:00:00.000Z""#
private let identityMatrix = "[[1,0,0],[0,1,0],[0,0,1]]"

private let damages: [Damage] = [
    Damage(file: .target, contents: "", defect: .empty),
    Damage(
        file: .target, contents: #"{"version":1,"destination":{"lat":48.8,"lon":"#,
        defect: .invalidJSON(detail: "unexpected end of file at line 1, column 46")),
    Damage(
        file: .target, contents: #"{"version":1,"destination":{"lat":1e999,"lon":2},"route":null}"#,
        defect: .invalidJSON(detail: "the number 1e999 at line 1, column 35 is too large for a Double")),
    Damage(
        file: .target, contents: #"{"version":1,"destination":{"lat":NaN,"lon":2},"route":null}"#,
        defect: .invalidJSON(detail: "unexpected character 'N' at line 1, column 35; expected a value")),
    Damage(
        file: .target, contents: #"{"version":1,"destination":{"lat":"48.8","lon":2.3},"route":null}"#,
        defect: .wrongType(field: "destination.lat", expected: "a number")),
    Damage(
        file: .target, contents: #"{"version":1,"destination":{"lat":91,"lon":2.3},"route":null}"#,
        defect: .outOfRange(field: "destination.lat", value: 91, allowed: "[-90, 90]")),
    Damage(
        file: .target, contents: #"{"version":1,"destination":{"lat":45,"lon":-180.5},"route":null}"#,
        defect: .outOfRange(field: "destination.lon", value: -180.5, allowed: "[-180, 180]")),
    Damage(file: .target, contents: #"{"version":2,"destination":null}"#, defect: .unknownVersion(2)),
    Damage(file: .target, contents: #"{"destination":null}"#, defect: .missingField("version")),
    Damage(file: .target, contents: #"{"version":1}"#, defect: .missingField("destination")),
    Damage(file: .target, contents: #"{"version":1,"destination":null}"#, defect: .missingField("route")),
    Damage(
        file: .target, contents: #"{"version":1,"destination":{"lat":1,"lon":2},"route":{"index":0,"waypoints":[{"lat":1,"lon":2}]}}"#,
        defect: .invalidValue(field: "destination", reason: "a target is a destination or a route, not both")),
    Damage(file: .target, contents: "[1,2]", defect: .wrongType(field: "the file", expected: "a JSON object")),
    Damage(
        file: .recent, contents: #"{"version":1,"recent":[{"lat":1,"lon":2},{"lat":1,"lon":200}]}"#,
        defect: .outOfRange(field: "recent[1].lon", value: 200, allowed: "[-180, 180]")),
    Damage(
        file: .recent, contents: #"{"version":1,"recent":{"lat":1,"lon":2}}"#,
        defect: .wrongType(field: "recent", expected: "an array")),
    Damage(
        file: .recent, contents: #"{"version":1,"recent":[{"lat":1,"lon":2,"name":7}]}"#,
        defect: .wrongType(field: "recent[0].name", expected: "a string")),
    Damage(
        file: .mute, contents: #"{"version":1,"muted":"yes"}"#,
        defect: .wrongType(field: "muted", expected: "true or false")),
    Damage(
        file: .mute, contents: #"{"version":"1","muted":true}"#,
        defect: .wrongType(field: "version", expected: "an integer")),
    Damage(file: .mute, contents: #"{"version":99,"muted":true}"#, defect: .unknownVersion(99)),
    Damage(
        file: .calibration,
        contents:
            #"{"version":1,"calibration":{"offset":[1,2],"matrix":\#(identityMatrix),"createdAt":"2026-05-01T12:00:00Z"}}"#,
        defect: .wrongCount(field: "calibration.offset", expected: 3, found: 2)),
    Damage(
        file: .calibration,
        contents: #"{"version":1,"calibration":{\#(goodCalibrationFields),"matrix":[[1,0,0],[0,1,0]]}}"#,
        defect: .wrongCount(field: "calibration.matrix", expected: 3, found: 2)),
    Damage(
        file: .calibration,
        contents: #"{"version":1,"calibration":{\#(goodCalibrationFields),"matrix":[[1,0,0],[0,1,null],[0,0,1]]}}"#,
        defect: .wrongType(field: "calibration.matrix[1][2]", expected: "a number, not null")),
    Damage(
        file: .calibration,
        contents: #"{"version":1,"calibration":{\#(goodCalibrationFields),"matrix":[[1,0,0],[2,0,0],[0,0,1]]}}"#,
        defect: .singularMatrix(field: "calibration.matrix")),
    Damage(
        file: .calibration,
        contents:
            #"{"version":1,"calibration":{"offset":[0,0,-Infinity],"matrix":\#(identityMatrix),"createdAt":"2026-05-01T12:00:00Z"}}"#,
        defect: .invalidJSON(detail: "unexpected character 'I' at line 1, column 44; expected a digit")),
    Damage(
        file: .calibration,
        contents:
            #"{"version":1,"calibration":{"offset":[1,2,3],"matrix":\#(identityMatrix),"createdAt":"yesterday"}}"#,
        defect: .invalidValue(
            field: "calibration.createdAt", reason: "not a UTC time such as 2026-05-01T12:00:00.000Z")),
    Damage(
        file: .calibration,
        contents:
            #"{"version":1,"calibration":{\#(goodCalibrationFields),"matrix":\#(identityMatrix),"quality":{"coveragePercent":120}}}"#,
        defect: .outOfRange(field: "calibration.quality.coveragePercent", value: 120, allowed: "[0, 100]")),
    Damage(
        file: .calibration,
        contents:
            #"{"version":1,"calibration":{\#(goodCalibrationFields),"matrix":\#(identityMatrix),"quality":{"sampleCount":-4}}}"#,
        defect: .outOfRange(field: "calibration.quality.sampleCount", value: -4, allowed: "[0, ∞)")),
    Damage(
        file: .calibration, contents: #"{"version":1,"calibration":{"matrix":\#(identityMatrix)}}"#,
        defect: .missingField("calibration.offset")),
    Damage(
        file: .calibration,
        contents:
            #"{"version":1,"calibration":{"offset":[0,1e308,0],"matrix":\#(identityMatrix),"createdAt":"2026-05-01T12:00:00Z"}}"#,
        defect: .outOfRange(field: "calibration.offset[1]", value: 1e308, allowed: "[-5000, 5000]")),
    Damage(
        file: .calibration,
        contents: #"{"version":1,"calibration":{\#(goodCalibrationFields),"matrix":[[1,0,0],[0,1,0],[0,0,1e9]]}}"#,
        defect: .outOfRange(field: "calibration.matrix[2][2]", value: 1e9, allowed: "[-10, 10]")),
    Damage(
        file: .target,
        contents: #"{"version":1,"destination":{"lat":1,"lon":2,"name":""# + String(repeating: "n", count: 500) + #""},"route":null}"#,
        defect: .invalidValue(field: "destination.name", reason: "name is 500 characters; at most 100 are allowed")),
    Damage(
        file: .mute,
        contents: #"{"version":1,"muted":true,"padding":""# + String(repeating: " ", count: 70_000) + #""}"#,
        defect: .tooLarge(limitBytes: StateFile.mute.maximumBytes)),
    Damage(
        file: .target, contents: #"{"version":1,"destination":null,"route":{"index":0,"waypoints":[]}}"#,
        defect: .outOfRange(field: "route.waypoints", value: 0, allowed: "1 to 1000 waypoints")),
    Damage(
        file: .target, contents: #"{"version":1,"destination":null,"route":{"index":3,"waypoints":[{"lat":1,"lon":2},{"lat":1,"lon":3}]}}"#,
        defect: .outOfRange(field: "route.index", value: 3, allowed: "[0, 2]")),
    Damage(
        file: .target, contents: #"{"version":1,"destination":null,"route":{"index":0,"waypoints":[{"lat":1,"lon":2,"radius":0.5}]}}"#,
        defect: .outOfRange(field: "route.waypoints[0].radius", value: 0.5, allowed: "[2, 1000]")),
    Damage(
        file: .target,
        contents: #"{"version":1,"destination":null,"route":{"index":0,"waypoints":["#
            + Array(repeating: #"{"lat":1,"lon":2}"#, count: 1001).joined(separator: ",") + "]}}",
        defect: .outOfRange(field: "route.waypoints", value: 1001, allowed: "1 to 1000 waypoints")),
    Damage(
        file: .target,
        contents: #"{"version":1,"destination":null,"route":null,"padding":""# + String(repeating: " ", count: 1_100_000) + #""}"#,
        defect: .tooLarge(limitBytes: 1 << 20)),
    Damage(
        file: .places, contents: #"{"version":1,"places":[{"lat":1,"lon":2}]}"#,
        defect: .missingField("places[0].name")),
    Damage(
        file: .places, contents: #"{"version":1,"places":[{"lat":1,"lon":2,"name":"Car"},{"lat":1,"lon":3,"name":"CAR"}]}"#,
        defect: .invalidValue(field: "places[1].name", reason: "another place has this name")),
    Damage(
        file: .places,
        contents: #"{"version":1,"places":["#
            + (0...500).map { #"{"lat":1,"lon":2,"name":"p\#($0)"}"# }.joined(separator: ",") + "]}",
        defect: .outOfRange(field: "places", value: 501, allowed: "at most 500 places")),
]

@Suite("State store: damaged files", .timeLimit(.minutes(5)))
struct StateStoreDamageTests {
    @Test("a damaged file is moved aside as .corrupt and reported; the other files still load", arguments: damages)
    func setAside(damage: Damage) throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        try saveAll(everything, in: store)
        let path = store.path(of: damage.file)
        try write(damage.contents, to: path)

        let (state, report) = try StateStore(directory: temporary.path).load()

        // The damaged item starts from its default, every other one is as saved.
        var expected = everything
        switch damage.file {
        case .target: (expected.destination, expected.route) = (nil, nil)
        case .recent: expected.recent = RecentDestinations()
        case .mute: expected.muted = false
        case .calibration: expected.calibration = nil
        case .places: expected.places = PlaceBook()
        }
        #expect(state == expected)

        #expect(report.entries.count == 1, "\(report)")
        let entry = try #require(report.entries.first)
        guard case .setAside(let reportedPath, let corruptPath, let defect) = entry else {
            Issue.record("expected the file to be set aside, got \(entry)")
            return
        }
        #expect(reportedPath == path)
        #expect(corruptPath == store.corruptPath(of: damage.file))
        #expect(defect == damage.defect)
        #expect(entry.isProblem)
        #expect(report.description.contains(path))
        #expect(report.damagedFiles.map(\.path) == [path])

        // The damaged bytes are kept for a person to look at; the file itself is gone.
        #expect(try bytes(at: corruptPath) == Array(damage.contents.utf8))
        #expect(FileManager.default.fileExists(atPath: path) == false)

        // The next start is clean, and saving the item again works.
        let again = try StateStore(directory: temporary.path)
        #expect(again.load().report.isClean)
        try saveAll(everything, in: again)
        #expect(try StateStore(directory: temporary.path).load().state == everything)
        #expect(FileManager.default.fileExists(atPath: corruptPath))
    }

    @Test("only the newest damaged copy is kept")
    func newestCorruptCopy() throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        try write("first damage", to: store.path(of: .mute))
        _ = store.load()
        try write("second damage", to: store.path(of: .mute))
        let report = store.load().report
        #expect(report.damagedFiles.map(\.path) == [store.path(of: .mute)])
        #expect(try bytes(at: store.corruptPath(of: .mute)) == Array("second damage".utf8))
        #expect(try names(in: temporary.path) == ["mute.json.corrupt"])
    }

    @Test("several damaged files are each set aside and reported")
    func severalDamaged() throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        try saveAll(everything, in: store)
        try write("{", to: store.path(of: .target))
        try write(#"{"version":1,"muted":0}"#, to: store.path(of: .mute))
        let (state, report) = store.load()
        #expect(
            state
                == PersistentState(
                    recent: everything.recent, calibration: everything.calibration, places: everything.places))
        #expect(report.damagedFiles.map(\.path) == [store.path(of: .target), store.path(of: .mute)])
    }

    @Test("a file that cannot be read is reported and left where it is; its item starts empty")
    func unreadable() throws {
        let temporary = try TemporaryDirectory()
        try saveAll(everything, in: try StateStore(directory: temporary.path))
        let path = try StateStore(directory: temporary.path).path(of: .target)
        let store = try StateStore(
            directory: temporary.path, fileSystem: FaultyFileSystem(.init(call: .read, path: path, errno: .ioError)))
        let (state, report) = store.load()
        #expect(state.route == nil)
        #expect(state.calibration == everything.calibration)
        #expect(report.entries == [.unreadable(path: path, .ioError)])
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(report.description.contains("Input/output error"))
    }

    @Test("a symbolic link, a directory or a FIFO in a state file's place is set aside unread, without blocking")
    func notRegularFiles() throws {
        let temporary = try TemporaryDirectory()
        let elsewhere = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        try saveAll(everything, in: store)
        // A valid target file elsewhere, and a link to it: it must not be loaded.
        try saveAll(everything, in: try StateStore(directory: elsewhere.path))
        let target = store.path(of: .target)
        try FileManager.default.removeItem(atPath: target)
        #expect(symlink(try StateStore(directory: elsewhere.path).path(of: .target), target) == 0)
        let recent = store.path(of: .recent)
        try FileManager.default.removeItem(atPath: recent)
        try FileManager.default.createDirectory(atPath: recent, withIntermediateDirectories: false)
        // A FIFO with no writer: opening it for reading without O_NONBLOCK waits for ever.
        let mute = store.path(of: .mute)
        try FileManager.default.removeItem(atPath: mute)
        #expect(mkfifo(mute, 0o600) == 0)

        let (state, report) = store.load()
        #expect(state == PersistentState(calibration: everything.calibration, places: everything.places))
        #expect(report.damagedFiles.map(\.path) == [target, recent, mute])
        #expect(report.damagedFiles.map(\.defect) == [.symbolicLink, .notRegularFile(.directory), .notRegularFile(.other)])
        #expect(report.description.contains("symbolic link"))
        #expect(try names(in: temporary.path).sorted() == [
            "calibration.json", "mute.json.corrupt", "places.json", "recent.json.corrupt", "target.json.corrupt",
        ])
        // The link's target is untouched.
        #expect(try StateStore(directory: elsewhere.path).load().state == everything)
    }

    @Test("a temporary file left by an interrupted save is removed at start, and the file it was to replace is kept")
    func leftoverFromCrash() throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        try saveAll(everything, in: store)
        let leftover = store.temporaryPath(of: .calibration)
        try write(#"{"version":1,"calibration":{"off"#, to: leftover)
        let (state, report) = try StateStore(directory: temporary.path).load()
        #expect(state == everything)
        #expect(report.entries == [.removedLeftover(path: leftover)])
        #expect(report.entries.allSatisfy { !$0.isProblem })
        #expect(FileManager.default.fileExists(atPath: leftover) == false)
    }

    @Test("a save succeeds over a temporary file left by a crash")
    func saveOverLeftover() throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        try write("half a file", to: store.temporaryPath(of: .target))
        try store.save(.target, from: PersistentState(destination: opera))
        #expect(try StateStore(directory: temporary.path).load().state.destination == opera)
        #expect(try names(in: temporary.path) == ["target.json"])
    }
}

// MARK: - Failed saves

/// One way a save can fail before its rename.
struct SaveFault: Sendable, CustomTestStringConvertible {
    var file: StateFile
    var call: String
    var step: StateStoreError.SaveStep
    var errno: Int32
    var bytesBeforeFailure = 0

    var testDescription: String { "\(file): \(step) fails with errno \(errno) after \(bytesBeforeFailure) bytes" }
}

// Not mute.json: its only other value is its default, whose failed save removes the file
// instead (``StateStoreDefaultTests``).
private let saveFaults: [SaveFault] = StateFile.allCases.filter { $0 != .mute }.flatMap { file in
    [
        SaveFault(file: file, call: "open", step: .create, errno: ENOSPC),
        SaveFault(file: file, call: "write", step: .write, errno: ENOSPC, bytesBeforeFailure: 17),
        SaveFault(file: file, call: "write", step: .write, errno: EIO),
        SaveFault(file: file, call: "sync", step: .sync, errno: EIO),
        SaveFault(file: file, call: "close", step: .close, errno: EIO),
        SaveFault(file: file, call: "rename", step: .rename, errno: EIO),
    ]
}

/// Saves an item's "new" value, different from ``everything``'s.
private func saveNewValue(of file: StateFile, in store: StateStore) throws(StateStoreError) {
    switch file {
    // Not the default (no target): a file that would hold its default is removed when it
    // cannot be replaced (issue 30, item 18), which `defaultRemovesFile` tests.
    case .target: try store.save(.target, from: PersistentState(destination: opera))
    case .recent: try store.save(.recent, from: PersistentState(recent: RecentDestinations([place(5, 5, "a much longer name than before")])))
    case .mute: try store.save(.mute, from: PersistentState(muted: false))
    case .calibration: try store.save(.calibration, from: PersistentState(calibration: handCalibration))
    case .places: try store.save(.places, from: PersistentState(places: PlaceBook([opera])))
    }
}

@Suite("State store: failed saves", .timeLimit(.minutes(5)))
struct StateStoreFailedSaveTests {
    @Test("a save that fails before its rename keeps the previous file byte for byte", arguments: saveFaults)
    func failedSaveKeepsOldFile(fault: SaveFault) throws {
        let temporary = try TemporaryDirectory()
        try saveAll(everything, in: StateStore(directory: temporary.path))
        let probe = try StateStore(directory: temporary.path)
        let path = probe.path(of: fault.file)
        let staging = probe.temporaryPath(of: fault.file)
        let before = try bytes(at: path)

        let fileSystem = FaultyFileSystem(
            FaultyFileSystem.Fault(
                call: try #require(FaultyFileSystem.Call(rawValue: fault.call)), path: staging,
                errno: Errno(rawValue: fault.errno), bytesBeforeFailure: fault.bytesBeforeFailure))
        let store = try StateStore(directory: temporary.path, fileSystem: fileSystem)
        let error = #expect(throws: StateStoreError.self) { try saveNewValue(of: fault.file, in: store) }
        #expect(fileSystem.faultFired)
        #expect(
            error
                == .saveFailed(
                    path: path, step: fault.step, temporaryPath: staging, Errno(rawValue: fault.errno),
                    cleanupError: nil))
        #expect(error?.path == path)
        #expect(error?.errno == Errno(rawValue: fault.errno))
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains(Errno(rawValue: fault.errno).description) == true)

        #expect(try bytes(at: path) == before)
        #expect(try names(in: temporary.path) == Set(StateFile.allCases.map(\.fileName)))
        let (state, report) = try StateStore(directory: temporary.path).load()
        #expect(state == everything)
        #expect(report.isClean)

        // The store still works once the fault is gone.
        try saveNewValue(of: fault.file, in: store)
        #expect(try bytes(at: path) != before)
    }

    @Test("a save that cannot create its temporary file at all says so and changes nothing")
    func createFails() throws {
        let temporary = try TemporaryDirectory()
        let probe = try StateStore(directory: temporary.path)
        let fileSystem = FaultyFileSystem(
            FaultyFileSystem.Fault(call: .open, path: probe.temporaryPath(of: .mute), errno: .readOnlyFileSystem))
        let store = try StateStore(directory: temporary.path, fileSystem: fileSystem)
        #expect(
            throws: StateStoreError.saveFailed(
                path: probe.path(of: .mute), step: .create, temporaryPath: probe.temporaryPath(of: .mute),
                .readOnlyFileSystem, cleanupError: nil)
        ) { try store.save(.mute, from: PersistentState(muted: true)) }
        #expect(try names(in: temporary.path).isEmpty)
    }

    @Test("when the temporary file cannot be removed after a failure, the error says so")
    func cleanupFails() throws {
        let temporary = try TemporaryDirectory()
        let probe = try StateStore(directory: temporary.path)
        let staging = probe.temporaryPath(of: .mute)
        // The first failure is the sync; the removal after it is made to fail by a second store
        // whose file system fails removals.
        final class TwoFaults: StateFileSystem, Sendable {
            let syncFault: FaultyFileSystem
            let removeFault: FaultyFileSystem
            init(staging: String) {
                syncFault = FaultyFileSystem(.init(call: .sync, path: staging, errno: .ioError))
                removeFault = FaultyFileSystem(.init(call: .removeFile, path: staging, errno: .permissionDenied))
            }
            func kind(of path: String) throws(Errno) -> FileSystem.Kind? { try syncFault.kind(of: path) }
            func makeDirectory(_ path: String, permissions: UInt32) throws(Errno) {
                try syncFault.makeDirectory(path, permissions: permissions)
            }
            func checkWritableDirectory(_ path: String) throws(Errno) { try syncFault.checkWritableDirectory(path) }
            func open(
                _ path: String, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions,
                permissions: UInt32
            ) throws(Errno) -> FileDescriptor {
                try syncFault.open(path, mode, options: options, permissions: permissions)
            }
            func kind(of descriptor: FileDescriptor) throws(Errno) -> FileSystem.Kind {
                try syncFault.kind(of: descriptor)
            }
            func read(_ descriptor: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
                try syncFault.read(descriptor, into: buffer)
            }
            func write(_ descriptor: FileDescriptor, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
                try syncFault.write(descriptor, buffer)
            }
            func sync(_ descriptor: FileDescriptor) throws(Errno) { try syncFault.sync(descriptor) }
            func close(_ descriptor: FileDescriptor) throws(Errno) { try syncFault.close(descriptor) }
            func rename(_ source: String, to destination: String) throws(Errno) {
                try syncFault.rename(source, to: destination)
            }
            func removeFile(_ path: String) throws(Errno) { try removeFault.removeFile(path) }
        }
        let store = try StateStore(directory: temporary.path, fileSystem: TwoFaults(staging: staging))
        let error = #expect(throws: StateStoreError.self) { try store.save(.mute, from: PersistentState(muted: true)) }
        #expect(
            error
                == .saveFailed(
                    path: probe.path(of: .mute), step: .sync, temporaryPath: staging, .ioError,
                    cleanupError: .permissionDenied))
        #expect(error?.description.contains("removing \(staging) failed") == true)
        // What the failed cleanup left behind is removed at the next start.
        #expect(probe.load().report.entries == [.removedLeftover(path: staging)])
    }

    @Test("a failed directory sync after the rename reports that the change may not be durable")
    func directorySyncFails() throws {
        let temporary = try TemporaryDirectory()
        let fileSystem = FaultyFileSystem(.init(call: .sync, path: temporary.path, errno: .ioError))
        let store = try StateStore(directory: temporary.path, fileSystem: fileSystem)
        #expect(throws: StateStoreError.notDurable(path: store.path(of: .mute), directory: temporary.path, .ioError)) {
            try store.save(.mute, from: PersistentState(muted: true))
        }
        // The new contents are in place, whole.
        #expect(try StateStore(directory: temporary.path).load().state.muted == true)
        #expect(try names(in: temporary.path) == ["mute.json"])
    }

    @Test("a file system that cannot sync directories (EINVAL) does not fail the save")
    func directorySyncUnsupported() throws {
        let temporary = try TemporaryDirectory()
        let fileSystem = FaultyFileSystem(.init(call: .sync, path: temporary.path, errno: .invalidArgument))
        let store = try StateStore(directory: temporary.path, fileSystem: fileSystem)
        try store.save(.mute, from: PersistentState(muted: true))
        #expect(fileSystem.faultFired)
        #expect(try StateStore(directory: temporary.path).load().state.muted == true)
    }

    @Test("values that would not read back are refused before anything is written")
    func invalidValues() throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        try store.save(.target, from: PersistentState(destination: eiffel))
        let before = try bytes(at: store.path(of: .target))

        #expect(
            throws: StateStoreError.invalidValue(
                path: store.path(of: .target),
                .outOfRange(field: "destination.lat", value: 95, allowed: "[-90, 90]"))
        ) { try store.save(.target, from: PersistentState(destination: place(95, 0))) }
        #expect(
            throws: StateStoreError.invalidValue(
                path: store.path(of: .target),
                .invalidValue(field: "destination", reason: "a target is a destination or a route, not both"))
        ) { try store.save(.target, from: PersistentState(destination: eiffel, route: everything.route)) }
        #expect(
            throws: StateStoreError.invalidValue(
                path: store.path(of: .recent), .nonFinite(field: "recent[1].lon"))
        ) { try store.save(.recent, from: PersistentState(recent: RecentDestinations([eiffel, place(1, .infinity)]))) }

        var broken = fittedCalibration
        broken.calibration.offsetMicrotesla.y = .nan
        #expect(
            throws: StateStoreError.invalidValue(
                path: store.path(of: .calibration), .nonFinite(field: "calibration.offset[1]"))
        ) { try store.save(.calibration, from: PersistentState(calibration: broken)) }
        broken = fittedCalibration
        broken.calibration.matrix = Matrix3(.zero, .zero, .zero)
        #expect(
            throws: StateStoreError.invalidValue(
                path: store.path(of: .calibration), .singularMatrix(field: "calibration.matrix"))
        ) { try store.save(.calibration, from: PersistentState(calibration: broken)) }
        broken = fittedCalibration
        broken.quality.fitErrorPercent = -.infinity
        #expect(
            throws: StateStoreError.invalidValue(
                path: store.path(of: .calibration), .nonFinite(field: "calibration.quality.fitErrorPercent"))
        ) { try store.save(.calibration, from: PersistentState(calibration: broken)) }

        #expect(try bytes(at: store.path(of: .target)) == before)
        #expect(try names(in: temporary.path) == ["target.json"])
    }
}

// MARK: - The directory

@Suite("State store: the directory", .timeLimit(.minutes(5)))
struct StateStoreDirectoryTests {
    @Test("a missing directory is created, with missing parents, mode 0700")
    func createsDirectory() throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.path + "/var/lib/waypointd"
        let store = try StateStore(directory: directory)
        #expect(store.directory == directory)
        #expect(try permissions(of: directory) == 0o700)
        #expect(try permissions(of: temporary.path + "/var") == 0o700)
        try store.save(.mute, from: PersistentState(muted: true))
        #expect(try StateStore(directory: directory).load().state.muted)
    }

    @Test("an existing directory keeps the mode systemd or the administrator gave it")
    func keepsExistingMode() throws {
        let temporary = try TemporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: temporary.path)
        _ = try StateStore(directory: temporary.path)
        #expect(try permissions(of: temporary.path) == 0o750)
    }

    @Test("a file where the directory should be is refused, naming the path")
    func notADirectory() throws {
        let temporary = try TemporaryDirectory()
        let path = temporary.path + "/state"
        try write("not a directory", to: path)
        #expect(throws: StateStoreError.notADirectory(path: path)) { _ = try StateStore(directory: path) }
        let below = path + "/waypointd"
        let error = #expect(throws: StateStoreError.self) { _ = try StateStore(directory: below) }
        #expect(error == .cannotExamineDirectory(path: below, .notDirectory))
        #expect(error?.description.contains(below) == true)
    }

    @Test("a directory that cannot be created is reported with the path mkdir failed on")
    func cannotCreate() throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.path + "/state"
        let fileSystem = FaultyFileSystem(.init(call: .makeDirectory, path: directory, errno: .readOnlyFileSystem))
        #expect(throws: StateStoreError.cannotCreateDirectory(path: directory, .readOnlyFileSystem)) {
            _ = try StateStore(directory: directory, fileSystem: fileSystem)
        }
    }

    @Test("a directory that is not writable is refused with a clear error naming it")
    func notWritable() throws {
        let temporary = try TemporaryDirectory()
        // Root passes permission checks, so the refusal is injected; the real access(2) runs in
        // every other test.
        let fileSystem = FaultyFileSystem(
            .init(call: .checkWritableDirectory, path: temporary.path, errno: .permissionDenied))
        let error = #expect(throws: StateStoreError.self) {
            _ = try StateStore(directory: temporary.path, fileSystem: fileSystem)
        }
        #expect(error == .directoryNotWritable(path: temporary.path, .permissionDenied))
        #expect(
            error?.description == "the state directory \(temporary.path) is not writable: \(Errno.permissionDenied)")
    }

    @Test("a state directory that went read-only (issue 30, item 15): opened to read, the state loads, every save is refused with the reason")
    func readOnlyStart() throws {
        let temporary = try TemporaryDirectory()
        var state = PersistentState.initial
        state.muted = true
        try StateStore(directory: temporary.path).save(.mute, from: state)
        let fileSystem = FaultyFileSystem(
            .init(call: .checkWritableDirectory, path: temporary.path, errno: .readOnlyFileSystem))
        let store = try StateStore(directory: temporary.path, fileSystem: fileSystem, readingIfNotWritable: true)
        #expect(store.readOnlyReason == .directoryNotWritable(path: temporary.path, .readOnlyFileSystem))
        #expect(store.load().state.muted)
        state.muted = false
        #expect(throws: StateStoreError.directoryNotWritable(path: temporary.path, .readOnlyFileSystem)) {
            try store.save(.mute, from: state)
        }
        #expect(!fileSystem.log.contains { $0.hasPrefix("open ") && $0.contains(".tmp") }, "a save was tried: \(fileSystem.log)")
        // Without leave to read only, it is refused as before.
        let again = FaultyFileSystem(.init(call: .checkWritableDirectory, path: temporary.path, errno: .readOnlyFileSystem))
        #expect(throws: StateStoreError.directoryNotWritable(path: temporary.path, .readOnlyFileSystem)) {
            _ = try StateStore(directory: temporary.path, fileSystem: again)
        }
    }
}

@Suite("State store: a file that would hold its default", .timeLimit(.minutes(5)))
struct StateStoreDefaultTests {
    @Test(
        "no target, or unmuted, saved while the file cannot be replaced: the file is removed, and loads as the default (issue 30, item 18)",
        arguments: [StateFile.target, .mute])
    func defaultRemovesFile(file: StateFile) throws {
        let temporary = try TemporaryDirectory()
        try saveAll(everything, in: StateStore(directory: temporary.path))
        let probe = try StateStore(directory: temporary.path)
        let fileSystem = FaultyFileSystem(.init(call: .open, path: probe.temporaryPath(of: file), errno: .noSpace))
        let store = try StateStore(directory: temporary.path, fileSystem: fileSystem)
        try store.save(file, from: .initial)
        #expect(fileSystem.faultFired)
        #expect(!FileManager.default.fileExists(atPath: probe.path(of: file)))
        let loaded = try StateStore(directory: temporary.path).load().state
        #expect(loaded.route == (file == .target ? nil : everything.route))
        #expect(loaded.muted == (file == .mute ? false : everything.muted))
    }
}

@Suite("State store: the target's files from an earlier build", .timeLimit(.minutes(5)))
struct StateStoreLegacyTargetTests {
    static let legacyDestination = #"{"destination":{"lat":48.8584,"lon":2.2945,"name":"Eiffel Tower"},"version":1}"#
    static let legacyRoute = #"{"route":{"index":1,"name":"Loop","waypoints":[{"lat":1,"lon":2},{"lat":1,"lon":3}]},"version":1}"#

    @Test("without target.json, destination.json and route.json are read; the first save of the target removes them")
    func migrated() throws {
        let temporary = try TemporaryDirectory()
        try write(Self.legacyDestination, to: temporary.path + "/destination.json")
        try write(#"{"route":null,"version":1}"#, to: temporary.path + "/route.json")
        let store = try StateStore(directory: temporary.path)
        let (state, report) = store.load()
        #expect(state.destination == eiffel)
        #expect(state.route == nil)
        #expect(report.isClean)
        try store.save(.target, from: state)
        #expect(try names(in: temporary.path) == ["target.json"])
        #expect(try StateStore(directory: temporary.path).load().state.destination == eiffel)

        try write(Self.legacyRoute, to: temporary.path + "/route.json")
        try FileManager.default.removeItem(atPath: temporary.path + "/target.json")
        let route = try StateStore(directory: temporary.path).load().state.route
        #expect(route == SavedRoute(name: "Loop", waypoints: [place(1, 2), place(1, 3)], index: 1))
    }

    @Test("target.json, once written, wins over files an earlier build left beside it")
    func targetWins() throws {
        let temporary = try TemporaryDirectory()
        let store = try StateStore(directory: temporary.path)
        try store.save(.target, from: PersistentState(destination: opera))
        try write(Self.legacyDestination, to: temporary.path + "/destination.json")
        #expect(store.load().state.destination == opera)
    }

    @Test("a damaged destination.json is set aside like any state file")
    func damagedLegacy() throws {
        let temporary = try TemporaryDirectory()
        try write(#"{"destination":{"lat":95,"lon":2},"version":1}"#, to: temporary.path + "/destination.json")
        let (state, report) = try StateStore(directory: temporary.path).load()
        #expect(state.destination == nil)
        #expect(report.damagedFiles.map(\.path) == [temporary.path + "/destination.json"])
        #expect(try names(in: temporary.path) == ["destination.json.corrupt"])
    }

    @Test("no target saved while target.json cannot be written: the earlier build's files go too, so none comes back")
    func clearedRemovesLegacy() throws {
        let temporary = try TemporaryDirectory()
        try write(Self.legacyRoute, to: temporary.path + "/route.json")
        let probe = try StateStore(directory: temporary.path)
        let fileSystem = FaultyFileSystem(.init(call: .open, path: probe.temporaryPath(of: .target), errno: .noSpace))
        let store = try StateStore(directory: temporary.path, fileSystem: fileSystem)
        try store.save(.target, from: .initial)
        #expect(fileSystem.faultFired)
        #expect(try names(in: temporary.path).isEmpty)
        #expect(probe.load().state.route == nil)
    }
}
