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
            case .index(let error):
                "cannot write the new index: \(error); the index in use is unchanged"
            case .file(let message):
                message
            }
        }
    }

    /// Imports `extract` into `stateDirectory`/``fileName``; `progress` is called now and then
    /// with the features read so far.
    public static func run(extract: String, stateDirectory: String, progress: (Int) -> Void = { _ in }) throws(Failure) -> Summary {
        guard let osmium = SpawnedProcess.find("osmium") else { throw .osmiumMissing }
        guard access(extract, R_OK) == 0 else { throw .noExtract(path: extract, error: Errno.current) }
        // Before osmium is started with its error log there: a missing directory would otherwise
        // read as osmium missing (the spawn's redirection fails, not the program).
        guard (try? FileSystem.status(of: stateDirectory))??.kind == .directory else { throw .noStateDirectory(stateDirectory) }
        let scratch = stateDirectory + "/.import-\(getpid())"
        let errors = scratch + ".log"
        let building = scratch + ".sqlite"
        defer {
            for path in [errors, building] { try? FileSystem.removeFile(path) }
        }
        let timestamp = try Self.timestamp(osmium, extract, errors: errors)
        let export: SpawnedProcess
        do throws(SpawnedProcess.StartError) {
            export = try SpawnedProcess(
                osmium, ["export", "-f", "geojsonseq", "-i", "sparse_mem_array", "-o", "-", extract], standardErrorPath: errors)
        } catch {
            throw .file("\(error)")
        }
        let writer: PlaceIndexWriter
        do throws(SQLiteError) {
            writer = try PlaceIndexWriter(path: building)
        } catch {
            throw error.isDiskFull || Self.isOutOfRoom(building) ? .diskFull(directory: stateDirectory) : .index(error)
        }
        var read = 0
        var failure: SQLiteError?
        let (skipped, readError) = export.forEachLine(maximumLineBytes: maximumFeatureBytes) { line in
            // RFC 8142: each record starts with the record separator.
            let json = line.first == 0x1E ? line.dropFirst() : line
            read += 1
            if read % 5000 == 0 { progress(read) }
            guard Self.mayKeep(json), let value = try? JSONParser.parse(json), let feature = MapFeature(geoJSON: value) else { return true }
            do throws(SQLiteError) {
                try writer.add(feature)
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure.isDiskFull || Self.isOutOfRoom(building) ? .diskFull(directory: stateDirectory) : .index(failure) }
        let status = export.wait()
        if let readError { throw .file("reading osmium's output: \(readError)") }
        guard status == 0 else {
            throw .osmiumFailed(path: extract, step: "export", reason: Self.firstLine(errors) ?? "exit status \(status)")
        }
        let name = String(extract.split(separator: "/").last ?? Substring(extract))
        do throws(SQLiteError) {
            try writer.finish(source: name, timestamp: timestamp)
        } catch {
            throw error.isDiskFull || Self.isOutOfRoom(building) ? .diskFull(directory: stateDirectory) : .index(error)
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
            try FileSystem.rename(building, to: stateDirectory + "/" + fileName)
        } catch {
            if error == .noSpace || Self.isOutOfRoom(building) { throw .diskFull(directory: stateDirectory) }
            throw .file("cannot put the new index in place in \(stateDirectory): \(error)")
        }
        return Summary(info: info, skippedFeatures: skipped, indexBytes: bytes)
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
        var volume = statvfs()
        return statvfs(path, &volume) == 0 && UInt64(volume.f_bavail) * UInt64(volume.f_frsize) < 1 << 20
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
    private static func firstLine(_ path: String) -> String? {
        guard let bytes = try? LinuxFileReading().contents(ofRegularFile: path, maximumBytes: 4096, followingLinks: false)
        else { return nil }
        let line = bytes.split(separator: UInt8(ascii: "\n")).first.map { String(decoding: $0.prefix(200), as: UTF8.self) }
        return line?.isEmpty == false ? line : nil
    }
}
