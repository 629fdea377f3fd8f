import ControlProtocol
import Places
import SystemSupport

@preconcurrency import Glibc
import TextFormats

/// `waypointd map import`: builds the place index from an OpenStreetMap extract with
/// Debian's `osmium` (`export -f geojsonseq`, streamed; only the objects with a name, an
/// address or a kind people ask for by category are kept), written beside the old index and
/// renamed over it, so that the old one stays whole and in use until the new one is complete.
///
/// Not `osmium tags-filter` first: on Monaco's 1.7 MB extract it took 592 MB (its set of
/// referenced ids), more than a Pi Zero 2 W has; `export` with a sparse location index takes
/// 30 MB, and the lines we do not keep are skipped before they are parsed (``mayKeep(_:)``).
public enum MapImport {
    /// The index's file name in the state directory.
    public static let fileName = "places.sqlite"
    /// A feature line longer than this is skipped (and counted): the boundary of a country is
    /// megabytes of coordinates and no place a walker goes to.
    public static let maximumFeatureBytes = 16 << 20

    /// What an import did.
    public struct Summary: Sendable {
        public var info: PlaceIndexInfo
        public var skippedFeatures: Int
        public var indexBytes: Int
        /// Places left out because thousands shared one spot (``SpatialKey``).
        public var crowdedPlaces: Int
        /// Whether the walking routes' database was built beside the index (Routino installed).
        public var routesBuilt: Bool
    }

    /// Why an import failed; the old index is untouched in every case.
    public enum Failure: Error, CustomStringConvertible {
        case osmiumMissing
        /// The extract cannot be read: missing, or not ours to read.
        case noExtract(path: String, error: Errno)
        /// The state directory the index goes to is not there.
        case noStateDirectory(String)
        case notAnExtract(path: String, reason: String)
        case osmiumFailed(path: String, step: String, reason: String)
        case diskFull(directory: String)
        /// Less room than ``roomPerExtractByte`` asks for, found before anything was written.
        case noRoom(directory: String, neededBytes: UInt64, availableBytes: UInt64)
        /// Stopped by a signal (SIGINT, SIGTERM).
        case interrupted
        /// Routino's planetsplitter could not build the routes from the extract.
        case routesFailed(path: String, reason: String)
        case index(SQLiteError)
        case file(String)

        public var description: String {
            switch self {
            case .osmiumMissing:
                "osmium is not installed; it reads the extract: apt install osmium-tool"
            case .noExtract(let path, let error):
                "cannot read \(path): \(error)"
            case .noStateDirectory(let directory):
                "the state directory \(directory) does not exist; make it, or give another with --state-dir"
            case .notAnExtract(let path, let reason):
                "\(path) is not an OpenStreetMap extract osmium can read (\(reason)); the index in use is unchanged"
            case .osmiumFailed(let path, let step, let reason):
                "osmium \(step) could not read \(path) to its end (\(reason)); the index in use is unchanged"
            case .diskFull(let directory):
                "the disk holding \(directory) is full; free some space and import again (the index in use is unchanged)"
            case .noRoom(let directory, let needed, let available):
                "importing this extract needs about \(needed >> 20) MiB free beside \(directory), and \(available >> 20) MiB are; "
                    + "free some space, or import a smaller region (the index in use is unchanged)"
            case .interrupted:
                "interrupted; the index in use is unchanged, and nothing of the new one is left"
            case .routesFailed(let path, let reason):
                "Routino's planetsplitter could not build walking routes from \(path) (\(reason)); the index and routes in use are unchanged"
            case .index(let error):
                "cannot write the new index: \(error); the index in use is unchanged"
            case .file(let message):
                message
            }
        }
    }

    /// Where an import is, for its progress line.
    public struct Progress: Sendable, Equatable {
        /// The steps of an import, in order.
        public enum Phase: Int, Sendable, CaseIterable {
            /// osmium reads the extract (twice: its relations first, then everything) and the
            /// features are staged.
            case reading
            /// The staged places are written in map order.
            case writing
            /// The word indexes are merged and the file is made durable.
            case finishing
            /// Routino's planetsplitter builds the walking routes' database (when installed).
            case routes
        }

        public var phase: Phase
        /// How much of the phase is done, 0 to 1; nil when unknown.
        public var fraction: Double?
        /// The steps this import has: 4 with routes, 3 without Routino.
        public var steps: Int

        public init(phase: Phase, fraction: Double?, steps: Int = Phase.allCases.count) {
            self.phase = phase
            self.fraction = fraction
            self.steps = steps
        }
    }

    /// Free bytes an import needs beside the extract, as a multiple of the extract's size:
    /// osmium's node index (16 bytes a node; an extract holds 3 to 10 bytes a node), the staged
    /// places and the new index. Less is refused before anything is written.
    public static let roomPerExtractByte: UInt64 = 8

    /// Imports `extract` into `stateDirectory`/``fileName``. `progress` is called now and
    /// then; `interrupted` is asked as often, and when it says yes the import stops and throws
    /// ``Failure/interrupted``, with the old index in use and nothing of the new one left.
    ///
    /// Memory does not grow with the region: osmium keeps its node index in a file (mapped,
    /// pages the kernel may take back), and the places are staged and sorted by SQLite in its
    /// temporary files (unlinked as they are opened), each through a cache of a few MiB.
    public static func run(
        extract: String, stateDirectory: String, progress: (Progress) -> Void = { _ in }, interrupted: () -> Bool = { false }
    ) throws(Failure) -> Summary {
        guard let osmium = SpawnedProcess.find("osmium") else { throw .osmiumMissing }
        guard access(extract, R_OK) == 0 else { throw .noExtract(path: extract, error: Errno.current) }
        // Before osmium is started with its error log there: a missing directory would otherwise
        // read as osmium missing (the spawn's redirection fails, not the program).
        guard (try? FileSystem.status(of: stateDirectory))??.kind == .directory else { throw .noStateDirectory(stateDirectory) }
        removeAbandonedScratch(in: stateDirectory)
        let extractBytes = UInt64((try? FileSystem.status(of: extract))??.bytes ?? 0)
        if let available = try? FileSystem.availableBytes(onVolumeOf: stateDirectory), available < extractBytes * roomPerExtractByte {
            throw .noRoom(directory: stateDirectory, neededBytes: extractBytes * roomPerExtractByte, availableBytes: available)
        }
        let scratch = stateDirectory + "/" + scratchPrefix + "\(getpid())"
        let errors = scratch + ".log"
        let building = scratch + ".sqlite"
        let nodes = scratch + ".nodes"
        let newRoutes = scratch + ".routes"
        let oldRoutes = scratch + ".old-routes"
        defer {
            for path in [errors, building, nodes] { try? FileSystem.removeFile(path) }
            for path in [newRoutes, oldRoutes] { try? FileSystem.removeDirectoryOfFiles(path, maximumFiles: maximumRouteFiles) }
        }
        let splitter = Routino.splitter()
        let steps = Progress.Phase.allCases.count - (splitter == nil ? 1 : 0)
        let timestamp = try Self.timestamp(osmium, extract, errors: errors)
        let export: SpawnedProcess
        do throws(SpawnedProcess.StartError) {
            export = try SpawnedProcess(
                osmium, ["export", "-f", "geojsonseq", "-i", "sparse_file_array," + nodes, "-o", "-", extract], standardErrorPath: errors)
        } catch {
            throw .file("\(error)")
        }
        let writer: PlaceIndexWriter
        do throws(SQLiteError) {
            writer = try PlaceIndexWriter(path: building)
        } catch {
            throw error.isDiskFull || Self.isOutOfRoom(building) ? .diskFull(directory: stateDirectory) : .index(error)
        }
        let canonicalExtract = (try? FileSystem.canonicalPath(extract)) ?? extract
        var read = 0
        var failure: SQLiteError?
        var stopped = false
        let (skipped, readError) = export.forEachLine(maximumLineBytes: maximumFeatureBytes, stopWhen: interrupted) { line in
            // RFC 8142: each record starts with the record separator.
            let json = line.first == 0x1E ? line.dropFirst() : line
            read += 1
            if read % 5000 == 0 {
                if interrupted() {
                    stopped = true
                    return false
                }
                // The pass osmium is in: its relations first (quick), then everything.
                let offset = ProcessFileOffset.offset(process: export.processID, canonicalPath: canonicalExtract)
                progress(Progress(phase: .reading, fraction: offset.map { min(1, Double($0) / Double(max(extractBytes, 1))) }, steps: steps))
            }
            guard Self.mayKeep(json), let value = try? JSONParser.parse(json), let feature = MapFeature(geoJSON: value) else { return true }
            do throws(SQLiteError) {
                try writer.add(feature)
                return true
            } catch {
                failure = error
                return false
            }
        }
        if stopped || interrupted() { throw .interrupted }
        if let failure { throw failure.isDiskFull || Self.isOutOfRoom(building) ? .diskFull(directory: stateDirectory) : .index(failure) }
        let status = export.wait()
        if let readError { throw .file("reading osmium's output: \(readError)") }
        guard status == 0 else {
            // Its node index outgrew the disk or the file size limit (SIGXFSZ ends it then).
            if status == 128 + SIGXFSZ || Self.isOutOfRoom(nodes) { throw .diskFull(directory: stateDirectory) }
            throw .osmiumFailed(path: extract, step: "export", reason: Self.firstLine(errors) ?? "exit status \(status)")
        }
        try? FileSystem.removeFile(nodes)
        let name = String(extract.split(separator: "/").last ?? Substring(extract))
        let finished: Bool
        do throws(SQLiteError) {
            finished = try writer.finish(source: name, timestamp: timestamp) { done, total in
                if interrupted() { return false }
                let writing = done < total
                progress(Progress(phase: writing ? .writing : .finishing, fraction: writing ? Double(done) / Double(max(total, 1)) : nil, steps: steps))
                return true
            }
        } catch {
            throw error.isDiskFull || Self.isOutOfRoom(building) ? .diskFull(directory: stateDirectory) : .index(error)
        }
        guard finished else { throw .interrupted }
        if let splitter {
            progress(Progress(phase: .routes, fraction: nil, steps: steps))
            try Routino.build(splitter, extract: extract, into: newRoutes, errors: errors, interrupted: interrupted)
        }
        let info = PlaceIndexInfo(
            source: name, timestamp: timestamp, places: writer.placeCount, addresses: writer.addressCount,
            streetSegments: writer.segmentCount)
        // Complete on disk before it takes the old one's name.
        let bytes: Int
        do throws(Errno) {
            let descriptor = try FileDescriptor.open(building, .readOnly)
            defer { try? descriptor.close() }
            try descriptor.sync()
            bytes = try descriptor.size()
            if interrupted() { throw Errno(rawValue: EINTR) }
            // The pair together: the old routes aside, the new ones and the index in, the old
            // ones gone. Without Routino the old routes go too (they are another extract's).
            let routes = stateDirectory + "/" + routesDirectoryName
            let hadRoutes = (try? FileSystem.kind(of: routes)) == .directory
            if hadRoutes { try FileSystem.rename(routes, to: oldRoutes) }
            do throws(Errno) {
                if splitter != nil { try FileSystem.rename(newRoutes, to: routes) }
                try FileSystem.rename(building, to: stateDirectory + "/" + fileName)
            } catch {
                // The old pair back as it was.
                if splitter != nil, (try? FileSystem.kind(of: routes)) == .directory { try? FileSystem.rename(routes, to: newRoutes) }
                if hadRoutes { try? FileSystem.rename(oldRoutes, to: routes) }
                throw error
            }
        } catch {
            if error.rawValue == EINTR { throw .interrupted }
            if error == .noSpace || Self.isOutOfRoom(building) { throw .diskFull(directory: stateDirectory) }
            throw .file("cannot put the new index in place in \(stateDirectory): \(error)")
        }
        return Summary(info: info, skippedFeatures: skipped, indexBytes: bytes, crowdedPlaces: writer.crowdedCount, routesBuilt: splitter != nil)
    }

    /// The routes' directory beside the index in the state directory.
    public static let routesDirectoryName = "routes"
    /// Files in a routes directory: Routino writes five, and its temporary files while it runs.
    static let maximumRouteFiles = 64

    /// The start of an import's scratch files' names, then its process id.
    static let scratchPrefix = ".import-"

    /// Removes the scratch files of imports whose process is gone (killed, or the machine
    /// lost power): a file named for a live process is another import's, running.
    static func removeAbandonedScratch(in directory: String) {
        guard let names = try? FileSystem.names(inDirectory: directory, maximum: 4096) else { return }
        for name in names where name.hasPrefix(scratchPrefix) {
            let digits = name.dropFirst(scratchPrefix.count).prefix { $0.isNumber }
            guard let process = Int32(digits), process != getpid(), kill(process, 0) == -1, errno == ESRCH else { continue }
            let path = directory + "/" + name
            if (try? FileSystem.kind(of: path)) == .directory {
                try? FileSystem.removeDirectoryOfFiles(path, maximumFiles: maximumRouteFiles)
            } else {
                try? FileSystem.removeFile(path)
            }
        }
    }

    /// Whether a write to `path` failed for want of room: the file system nearly full, or the
    /// file at the process's size limit (`LimitFSIZE=`, `ulimit -f`). SQLite reports the second
    /// as an I/O error whose errno it has lost by the time the statement returns.
    static func isOutOfRoom(_ path: String) -> Bool {
        var status = stat()
        var limit = rlimit()
        if stat(path, &status) == 0, getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,
            UInt64(status.st_size) + 65536 >= UInt64(limit.rlim_cur)
        {
            return true
        }
        return ((try? FileSystem.availableBytes(onVolumeOf: path)) ?? .max) < 1 << 20
    }

    /// The extract's replication timestamp from its header (`osmium fileinfo`), or "unknown";
    /// a file osmium cannot read is no extract.
    private static func timestamp(_ osmium: String, _ extract: String, errors: String) throws(Failure) -> String {
        let info: SpawnedProcess
        do throws(SpawnedProcess.StartError) {
            info = try SpawnedProcess(osmium, ["fileinfo", "-g", "header.option.timestamp", extract], standardErrorPath: errors)
        } catch {
            throw .file("\(error)")
        }
        var value = ""
        _ = info.forEachLine(maximumLineBytes: 4096) { line in
            value = String(decoding: line, as: UTF8.self)
            return true
        }
        guard info.wait() == 0 else {
            throw .notAnExtract(path: extract, reason: firstLine(errors) ?? "osmium fileinfo failed")
        }
        return value.isEmpty ? "unknown" : value
    }

    /// What a feature must hold to be kept (``MapFeature``), from the tables that decide it: a
    /// name's key (`"name` also starts every `name:xx`), a house number (an address needs one),
    /// or a value a kind asked for by category comes from (`"bakery"`, under whatever key). A line
    /// holding none is skipped without being parsed. A quoted word may be a key, a value or
    /// part of a name: a false "maybe" costs a parse, never a lost place (ImportFilterTests).
    static let keptKeys: [[UInt8]] = (["\"name", "\"addr:housenumber\""] + MapFeature.otherNameKeys.map { "\"\($0)\"" }
        + PlaceKind.askedTagValues.sorted().map { "\"\($0)\"" }).map { Array($0.utf8) }

    /// Whether a GeoJSON line may hold a feature the index keeps: one pass over the line, each
    /// quote compared with the keys (a big area's line is coordinates, which hold no quote).
    static func mayKeep(_ line: ArraySlice<UInt8>) -> Bool {
        // Plain loops: this runs over every byte of every line (tens of megabytes), in debug
        // builds too, where generic algorithms cost a metadata look-up a call.
        line.withContiguousStorageIfAvailable { bytes in
            var index = 0
            let count = bytes.count
            while index < count {
                if bytes[index] == UInt8(ascii: "\"") {
                    var keyIndex = 0
                    while keyIndex < keptKeys.count {
                        let key = keptKeys[keyIndex]
                        if index + key.count <= count {
                            var offset = 1
                            while offset < key.count, bytes[index + offset] == key[offset] { offset += 1 }
                            if offset == key.count { return true }
                        }
                        keyIndex += 1
                    }
                }
                index += 1
            }
            return false
        } ?? true
    }

    /// The first line osmium wrote on its standard error, at most 200 bytes.
    static func firstLine(_ path: String) -> String? {
        guard let bytes = try? LinuxFileReading().contents(ofRegularFile: path, maximumBytes: 4096, followingLinks: false)
        else { return nil }
        let line = bytes.split(separator: UInt8(ascii: "\n")).first.map { String(decoding: $0.prefix(200), as: UTF8.self) }
        return line?.isEmpty == false ? line : nil
    }
}
