import ControlProtocol
import SystemSupport

@preconcurrency import Glibc

/// The last `search`'s results, kept for `go --result N`: the daemon's SEARCH line, in
/// `$XDG_RUNTIME_DIR/waypointctl-last-search.json` (else `/tmp/waypointctl-UID-last-search.json`),
/// the user's own, mode 0600, never followed through a link.
enum SearchMemory {
    static var path: String {
        if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty {
            return runtime + "/waypointctl-last-search.json"
        }
        return "/tmp/waypointctl-\(getuid())-last-search.json"
    }

    /// Keeps the line; a failure only means `go --result` cannot use it (said there).
    static func keep(_ line: [UInt8]) {
        do throws(Errno) {
            let descriptor = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .noFollow], permissions: 0o600)
            defer { try? descriptor.close() }
            try FileDescriptor.writeAll(line) { buffer throws(Errno) in try descriptor.write(buffer) }
        } catch {
            Console.error("cannot keep the results for go --result in \(path): \(error)")
        }
    }

    /// The last search's results, or why there are none.
    static func results() throws(DaemonFailure) -> SearchReport {
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try LinuxFileReading().contents(ofRegularFile: path, maximumBytes: ControlReply.maximumLineLength, followingLinks: false)
        } catch {
            throw .input("no search to pick from (\(path): \(error)); run 'waypointctl search QUERY' first", .noInput)
        }
        guard case .search(let report)? = try? ControlReply(line: bytes) else {
            throw .input("\(path) holds no search results; run 'waypointctl search QUERY' again", .dataError)
        }
        return report
    }
}
