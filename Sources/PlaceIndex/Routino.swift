@preconcurrency import Glibc
import SystemSupport

/// Debian's Routino (`apt install routino`), for walking routes over the imported extract. It
/// is AGPL-3.0 and waypointd MIT: it runs as separate programs (`SpawnedProcess`), never
/// linked. `planetsplitter` builds its database beside the place index at import, with
/// Routino's own tagging rules for walking (`tagging-walk.xml`), which keep footways, steps,
/// pedestrian areas and the roads a person may walk along.
public enum Routino {
    /// Where Debian's package keeps its tagging rules and profiles.
    static let dataDirectory = "/usr/share/routino"
    /// The database's file names start with this, in the routes directory.
    static let prefix = "walk"

    /// Whether `stateDirectory` holds a routes database (its nodes' file).
    public static func hasRoutes(in stateDirectory: String) -> Bool {
        (try? FileSystem.kind(of: stateDirectory + "/" + MapImport.routesDirectoryName + "/" + prefix + "-nodes.mem")) == .regularFile
    }
    /// planetsplitter's sorting memory, MiB: its slim build's default is 64, and the import's
    /// whole budget is 128 with waypointd's own (osmium has ended by then).
    static let sortMegabytes = 32
    /// A line of planetsplitter's progress longer than this is not read whole (they are short).
    static let maximumLineBytes = 4096

    /// planetsplitter (its slim build, which keeps its data in files, first) and the walking
    /// tagging rules, when both are installed.
    static func splitter() -> (program: String, tagging: String)? {
        let tagging = dataDirectory + "/tagging-walk.xml"
        guard (try? FileSystem.kind(of: tagging)) == .regularFile,
            let program = SpawnedProcess.find("planetsplitter-slim") ?? SpawnedProcess.find("planetsplitter")
        else { return nil }
        return (program, tagging)
    }

    /// Builds the routes' database from `extract` in the new directory `directory` (its
    /// temporary files there too); `interrupted` is asked while planetsplitter works.
    static func build(
        _ splitter: (program: String, tagging: String), extract: String, into directory: String, errors: String, interrupted: () -> Bool
    ) throws(MapImport.Failure) {
        do throws(Errno) {
            try FileSystem.makeDirectory(directory, permissions: 0o755)
        } catch {
            throw .file("cannot make \(directory) for the routes: \(error)")
        }
        let process: SpawnedProcess
        do throws(SpawnedProcess.StartError) {
            process = try SpawnedProcess(
                splitter.program,
                [
                    "--dir=" + directory, "--prefix=" + prefix, "--tmpdir=" + directory, "--tagging=" + splitter.tagging,
                    "--sort-ram-size=\(sortMegabytes)", "--loggable", extract,
                ], standardErrorPath: errors)
        } catch {
            throw .file("\(error)")
        }
        // Its progress lines are read and let go: a full pipe would stop it.
        var last = ""
        _ = process.forEachLine(maximumLineBytes: maximumLineBytes, stopWhen: interrupted) { line in
            last = String(decoding: line.prefix(200), as: UTF8.self)
            return true
        }
        if interrupted() { throw .interrupted }
        let status = process.wait()
        guard status == 0 else {
            if status == 128 + SIGXFSZ || MapImport.isOutOfRoom(directory) { throw .diskFull(directory: directory) }
            throw .routesFailed(path: extract, reason: MapImport.firstLine(errors) ?? (last.isEmpty ? "exit status \(status)" : last))
        }
    }
}
