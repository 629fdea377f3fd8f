@preconcurrency import Glibc
import CommandLineSupport
import Daemon
import PlaceIndex
import Synchronization
import SystemSupport

/// `waypointd map import|info`: the offline place index that search and "where am I" read.
enum MapCommand {
    static let help = """
        usage: waypointd map import FILE.osm.pbf [--state-dir DIR]
               waypointd map info [--state-dir DIR]

        import builds the place index from an OpenStreetMap extract (a Geofabrik-style .osm.pbf)
        with osmium (apt install osmium-tool): every object with a name or an address, each at a
        point on or inside it, and the lines of named streets; with Routino installed (apt install
        routino), its walking routes' database too, in routes/. Both are written beside the ones
        in use and renamed over them together when complete, so a failed import (a file that is
        no extract, a truncated one, a full disk, ^C) leaves the old pair whole and no scratch
        file behind; a running daemon uses the new one for its next query. Progress (the step,
        a percentage, the time left) is shown on a terminal, else a line a step and every 10 s.
        Memory stays near 40 MB whatever the region (Routino's sorting takes 32 MB more, after
        osmium has ended); the disk needs about 8 times the extract's size free, checked first.
        info says what is loaded: the extract's name and OSM timestamp, the counts, the size,
        whether walking routes are there.
        The index is \(MapImport.fileName) in the state directory (default \(StateStore.defaultDirectory)).
        Map data © OpenStreetMap contributors, under the ODbL (openstreetmap.org/copyright).
        """

    static func run(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, valueOptions: ["--state-dir"], command: "map")
        if arguments.wantsHelp {
            print(help)
            return .success
        }
        let directory = try arguments.nonEmptyValue("--state-dir", what: "a directory") ?? StateStore.defaultDirectory
        switch arguments.positionals.first {
        case "import":
            guard arguments.positionals.count == 2 else { throw UsageError("map import needs one FILE.osm.pbf", command: "map") }
            return importExtract(arguments.positionals[1], directory: directory)
        case "info":
            guard arguments.positionals.count == 1 else { throw UsageError("map info takes nothing more", command: "map") }
            return info(directory: directory)
        default:
            throw UsageError("map takes import FILE or info", command: "map")
        }
    }

    /// Set by the signal thread: the import stops at its next look.
    private static let stopRequested = Atomic<Bool>(false)

    /// ^C, systemd's stop and a closed terminal end an import cleanly (the scratch files
    /// removed, the old index in use), where their default actions would leave files behind;
    /// blocked by main before any thread starts.
    static let signalsTaken = [SIGINT, SIGTERM, SIGHUP]

    private static func importExtract(_ file: String, directory: String) -> ExitStatus {
        do throws(Errno) {
            try SignalStream.receive(signalsTaken) { _ in stopRequested.store(true, ordering: .relaxed) }
        } catch {
            // The signals are unblocked again: their default actions apply.
            fputs("waypointd: map import: no signal thread (\(error)); ^C will leave scratch files behind\n", stderr)
        }
        var shown = ImportProgressLine(onTerminal: isatty(STDERR_FILENO) == 1)
        do throws(MapImport.Failure) {
            let summary = try MapImport.run(
                extract: file, stateDirectory: directory, progress: { shown.update($0, at: .now) },
                interrupted: { stopRequested.load(ordering: .relaxed) })
            shown.end()
            print(lines(summary.info, bytes: summary.indexBytes, path: directory + "/" + MapImport.fileName, routes: summary.routesBuilt).joined(separator: "\n"))
            if summary.skippedFeatures > 0 {
                print("skipped          \(summary.skippedFeatures) objects over \(MapImport.maximumFeatureBytes >> 20) MiB of geometry")
            }
            if summary.crowdedPlaces > 0 {
                print("left out         \(summary.crowdedPlaces) places where over \(SpatialKey.placesPerCell) share one spot")
            }
            return .success
        } catch {
            shown.end()
            fputs("waypointd: map import: \(error)\n", stderr)
            switch error {
            case .osmiumMissing: return .unavailable
            case .noExtract: return .noInput
            case .notAnExtract, .osmiumFailed, .routesFailed: return .dataError
            case .diskFull, .noRoom, .index, .file, .noStateDirectory: return .cannotCreate
            case .interrupted: return .interrupted
            }
        }
    }

    private static func info(directory: String) -> ExitStatus {
        let path = directory + "/" + MapImport.fileName
        guard access(path, F_OK) == 0 else {
            fputs("waypointd: map info: no place index in \(directory); run: waypointd map import FILE.osm.pbf\n", stderr)
            return .noInput
        }
        do throws(PlaceIndexError) {
            let reader = try PlaceIndexReader(path: path)
            let descriptor = try? FileDescriptor.open(path, .readOnly)
            let bytes = (try? descriptor?.size()) ?? 0
            try? descriptor?.close()
            print(lines(reader.info, bytes: bytes, path: path, routes: Routino.hasRoutes(in: directory)).joined(separator: "\n"))
            return .success
        } catch {
            fputs("waypointd: map info: \(error)\n", stderr)
            return .dataError
        }
    }

    static func lines(_ info: PlaceIndexInfo, bytes: Int, path: String, routes: Bool) -> [String] {
        [
            "index            \(path)",
            "source           \(info.source)",
            "osm timestamp    \(info.timestamp)",
            "places           \(info.places) (\(info.addresses) with an address)",
            "street segments  \(info.streetSegments)",
            "size             \(bytes / 1024) KiB",
            routes
                ? "routes           walking (Routino's database in \(MapImport.routesDirectoryName)/)"
                : "routes           none: install Routino (apt install routino), then import again",
        ]
    }
}
