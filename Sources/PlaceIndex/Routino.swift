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
        do throws(Errno) {
            let text = manifest(in: directory, version: version(of: splitter.program, errors: errors))
            let file = try FileDescriptor.open(
                directory + "/" + manifestName, .writeOnly, options: [.create, .exclusive], permissions: 0o644)
            defer { try? file.close() }
            try file.writeAll(Array(text.utf8))
        } catch {
            throw error == .noSpace ? .diskFull(directory: directory) : .file("cannot write the routes' manifest: \(error)")
        }
    }

    /// The file that says which Routino wrote the database and how long each file was, so that
    /// a plan can tell a damaged or foreign database before it runs (Routino reads a truncated
    /// file without a word, and plans nonsense over it).
    static let manifestName = "walk.manifest"
    /// The files of a database.
    static let databaseFiles = ["nodes", "segments", "ways", "relations"].map { prefix + "-" + $0 + ".mem" }

    /// `routino VERSION`, then `FILE BYTES` a line.
    static func manifest(in directory: String, version: String) -> String {
        var lines = ["routino " + version]
        for file in databaseFiles {
            let bytes = (try? FileSystem.status(of: directory + "/" + file))??.bytes ?? 0
            lines.append("\(file) \(bytes)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What `program --version` says (`Routino version 3.3.3 <…>`): the version, or `unknown`.
    static func version(of program: String, errors: String) -> String {
        guard let process = try? SpawnedProcess(program, ["--version"], standardErrorPath: errors) else { return "unknown" }
        var first: String?
        // Within a second: a program that hangs must not hold up a start.
        let deadline = ContinuousClock.now + .seconds(1)
        _ = process.forEachLine(maximumLineBytes: maximumLineBytes, stopWhen: { ContinuousClock.now >= deadline }) { line in
            if first == nil { first = String(decoding: line.prefix(200), as: UTF8.self) }
            return ContinuousClock.now < deadline
        }
        process.kill()
        _ = process.wait()
        // Routino prints its version on standard error.
        let line = first ?? MapImport.firstLine(errors) ?? ""
        try? FileSystem.removeFile(errors)
        let words = line.split(separator: " ")
        guard let index = words.firstIndex(of: "version"), index + 1 < words.count else { return "unknown" }
        return String(words[index + 1])
    }
}
