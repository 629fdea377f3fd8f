@preconcurrency import Glibc
import CommandLineSupport
import ControlProtocol
import DaemonClient
import Synchronization
import SystemSupport
import WebCompanion

/// `waypoint-web` itself: serves the page until SIGTERM or SIGINT.
enum ServeCommand {
    /// SIGTERM and SIGINT, which stop the server; `main` blocks them before any thread starts
    /// (``SignalStream/block(_:)``), so that none sent in its first instant is lost.
    static let signalsTaken = SignalStream.stopping

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(
            words, valueOptions: ["--config", "--listen", "--socket", "--state-dir", "--page-dir", "--log-level"], command: nil)
        try arguments.expectNoPositionals()
        guard var configuration = CommonOptions.configuration(arguments) else { return .configuration }
        if let text = arguments.value("--listen") {
            var reason = ""
            guard let address = ListenAddress(text, reason: &reason) else { throw UsageError("--listen '\(text)': \(reason)") }
            configuration.listen = address
        }
        if let path = arguments.value("--socket") { configuration.socketPath = path }
        if let path = arguments.value("--page-dir") { configuration.pageDirectory = path }
        var logger = Logger(label: "waypoint-web", handler: StandardErrorLogHandler())
        if let level = arguments.value("--log-level") {
            guard let parsed = Logger.Level(name: level) else { throw UsageError("--log-level '\(level)': debug, info, notice, warning or error") }
            logger.level = parsed
        }

        let stopSignals: AsyncStream<Int32>
        do throws(Errno) {
            stopSignals = try SignalStream.make(signalsTaken)
        } catch {
            CommonOptions.fail("cannot start the thread that takes signals: \(error)")
            return .software
        }

        let files: StaticFiles
        let tiles: TileSource?
        var tls: (certificate: String, key: String)?
        do {
            files = try StaticFiles(
                pageDirectory: configuration.pageDirectory ?? installedPageDirectory(), leafletDirectory: configuration.leafletDirectory)
            tiles = try configuration.tilesPath.map { path throws(TileSource.Failure) in try TileSource(path: path) }
            if let certificate = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath {
                tls = (try pem(certificate), try pem(key))
            }
        } catch {
            CommonOptions.fail("\(error)")
            return .noInput
        }
        let sessions = SessionBook(directory: configuration.stateDirectory)
        do throws(SessionBook.Failure) {
            try sessions.prepare()
        } catch {
            CommonOptions.fail(error.description)
            return .cannotCreate
        }

        let link = SocketDaemonLink(path: configuration.socketPath)
        let events = EventHub(logger: logger) { () throws(ConnectionError) in try link.open() }
        // The router needs the port listened on (the Host check), known once the server started:
        // the handler reads it through this box, set before any request can come.
        let routerBox = RouterBox()
        let server = HTTPServer(logger: logger, preflight: { request in
            guard let router = routerBox.router else { return .refused(.error(503, "starting; try again in a moment")) }
            return router.admit(request)
        }) { request in routerBox.router?.answer(request) ?? .error(503, "starting; try again in a moment") }
        let port: UInt16
        do throws(HTTPServer.StartError) {
            port = try server.start(address: configuration.listen, tls: tls)
        } catch {
            CommonOptions.fail(error.description)
            return .unavailable
        }
        let address = configuration.listen.with(port: port)
        routerBox.router = CompanionRouter(
            .init(
                daemon: link, sessions: sessions, events: events, files: files, tiles: tiles,
                guardian: RequestGuard(address: address, names: configuration.hostNames, tls: tls != nil),
                sessionDays: configuration.sessionDays, tls: tls != nil, wallSeconds: CommonOptions.wallSeconds,
                monotonicSeconds: CommonOptions.monotonicSeconds))
        do throws(Errno) {
            try events.start()
        } catch {
            CommonOptions.fail("cannot start the event thread: \(error)")
            return .software
        }
        let scheme = tls == nil ? "http" : "https"
        logger.notice("serving \(scheme)://\(address)/ for the daemon at \(configuration.socketPath)")
        let notifier = SystemdNotifier()
        notifier.ready(status: "serving \(scheme)://\(address)/")
        for await _ in stopSignals { break }
        notifier.stopping()
        events.close()
        server.stop()
        logger.notice("stopped")
        return .success
    }

    /// `../share/waypoint-web` beside this program, where `make install` and the package put the page.
    private static func installedPageDirectory() -> String {
        var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &path, path.count - 1)
        let program = count > 0 ? String(decoding: path[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "/usr/bin/waypoint-web"
        let bin = program.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let prefix = bin.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return prefix + "/share/waypoint-web"
    }

    private static func pem(_ path: String) throws(FileReadError) -> String {
        String(decoding: try LinuxFileReading().contents(ofRegularFile: path, maximumBytes: 64 * 1024, followingLinks: true), as: UTF8.self)
    }
}

/// The router, set once the server's port is known; a request in the instant before is told
/// to come again.
private final class RouterBox: Sendable {
    private let value = Mutex<CompanionRouter?>(nil)
    var router: CompanionRouter? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
