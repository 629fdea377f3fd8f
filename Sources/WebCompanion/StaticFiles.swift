import SystemSupport

/// The page's files (`page-dir`: index.html, app.js, app.css) and Debian's Leaflet
/// (`leaflet-dir`), read once at start: a few hundred kilobytes, served from memory.
public struct StaticFiles: Sendable {
    /// The most files taken from a directory, and the largest file read.
    public static let maximumFiles = 64
    public static let maximumFileBytes = 1024 * 1024

    /// What the page may load, sent with every HTML answer: its own files, OpenStreetMap's
    /// tiles (fetched by the phone itself) and nothing else: no inline script, no frames.
    public static let policy =
        "default-src 'self'; img-src 'self' data: https://tile.openstreetmap.org; style-src 'self'; script-src 'self'; "
        + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

    private var files: [String: (type: String, bytes: [UInt8])] = [:]

    /// Why a directory could not be read.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The files of `pageDirectory` at `/NAME` (index.html at `/` too) and those of
    /// `leafletDirectory` at `/leaflet/NAME` (and its `images/`), if that directory exists.
    public init(pageDirectory: String, leafletDirectory: String?) throws(Failure) {
        try add(directory: pageDirectory, at: "/", required: true)
        guard files["/index.html"] != nil else { throw Failure(description: "\(pageDirectory) holds no index.html") }
        files["/"] = files["/index.html"]
        if let leafletDirectory {
            try add(directory: leafletDirectory, at: "/leaflet/", required: false)
            try add(directory: leafletDirectory + "/images", at: "/leaflet/images/", required: false)
        }
    }

    /// Files from their paths and contents (tests).
    public init(files: [String: (type: String, bytes: [UInt8])]) { self.files = files }

    private mutating func add(directory: String, at prefix: String, required: Bool) throws(Failure) {
        let names: [String]
        do throws(Errno) {
            names = try FileSystem.names(inDirectory: directory, maximum: Self.maximumFiles)
        } catch {
            if !required { return }
            throw Failure(description: "cannot read the page's directory \(directory): \(error)")
        }
        for name in names {
            guard let type = Self.type(of: name) else { continue }
            let path = directory + "/" + name
            do throws(FileReadError) {
                let bytes = try LinuxFileReading().contents(ofRegularFile: path, maximumBytes: Self.maximumFileBytes, followingLinks: true)
                files[prefix + name] = (type, bytes)
            } catch {
                throw Failure(description: "cannot read \(path): \(error)")
            }
        }
    }

    /// The content type served for a file name; nil for files not served.
    static func type(of name: String) -> String? {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "png": "image/png"
        case "svg": "image/svg+xml"
        case "webmanifest": "application/manifest+json"
        default: nil
        }
    }

    /// The answer for a file's path, or nil when there is no such file.
    func response(for path: String) -> HTTPResponse? {
        guard let file = files[path] else { return nil }
        var headers: [(name: String, value: String)] = [("Content-Type", file.type), ("Cache-Control", "no-cache")]
        if file.type.hasPrefix("text/html") { headers.append(("Content-Security-Policy", Self.policy)) }
        return HTTPResponse(status: 200, headers: headers, body: .bytes(file.bytes))
    }
}
