@preconcurrency import Glibc
import ControlProtocol
import Synchronization
import SystemSupport
import TextFormats

/// The phones and scripts that may use the companion, kept as files in the state directory so
/// that `waypoint-web pair`, `token`, `sessions` and `revoke` (other processes) and the server
/// agree without talking:
/// - `pairings/TOKEN`: an unused pairing link, made by `pair`; its age is its file's. Redeeming
///   it removes the file first, and only the process whose unlink(2) succeeds makes a session:
///   a link works once, even when two phones open it at the same instant.
/// - `sessions/ID`: one session, a small JSON object (its secret token, kind, name, created,
///   expires); the file's modification time is when it was last used. `revoke` removes it; the
///   server sees the directory change and reads the sessions again.
///
/// Tokens are 256 random bits in hex. The directory is the service's own (0700, its user only).
public final class SessionBook: Sendable {
    /// How long a pairing link may wait to be opened, seconds.
    public static let pairingSeconds = 600.0
    /// The most unused pairing links at once: `pair` refuses more.
    public static let maximumPairings = 16
    /// The most sessions at once: pairing refuses more until one is revoked.
    public static let maximumSessions = 64
    /// The largest session file read.
    static let maximumSessionFileBytes = 4096
    /// A session's last use is written at most this often, seconds: a page's requests do not
    /// each touch the disk.
    static let touchIntervalSeconds = 60.0

    /// One session.
    public struct Session: Sendable, Equatable {
        /// Its public name: what `sessions` lists and `revoke` takes.
        public var id: String
        /// The secret the cookie or the `Authorization` header carries.
        public var token: String
        /// `phone` (paired through a link) or `script` (a bearer token).
        public var kind: String
        /// What the user called it, if anything.
        public var name: String?
        /// When it was made and when it ends, POSIX seconds.
        public var createdSeconds: Double
        public var expiresSeconds: Double
        /// When it was last used, POSIX seconds (its file's modification time).
        public var usedSeconds: Double
    }

    /// Why the state directory could not be used.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ what: String, _ path: String, _ error: Errno) { description = "cannot \(what) \(path): \(error)" }
        init(_ sentence: String) { description = sentence }
    }

    private let directory: String
    private struct Cache {
        var byToken: [String: Session] = [:]
        var directorySeconds = -1.0
        var touched: [String: Double] = [:]
    }
    private let cache = Mutex(Cache())

    /// The sessions kept in `directory` (the state directory).
    public init(directory: String) { self.directory = directory }

    private var sessionsDirectory: String { directory + "/sessions" }
    private var pairingsDirectory: String { directory + "/pairings" }

    /// Makes the two directories if they are missing.
    public func prepare() throws(Failure) {
        for path in [directory, sessionsDirectory, pairingsDirectory] {
            do throws(Errno) {
                try FileSystem.makeDirectory(path, permissions: 0o700)
                try giveToService(path)
            } catch where error == .fileExists {
                continue
            } catch {
                throw Failure("make the directory", path, error)
            }
        }
    }

    /// Run as root (`sudo waypoint-web pair`), what the commands make goes to the state
    /// directory's owner, the service's user: a root-owned 0600 file would be a pairing link the
    /// service cannot read, refused as if mistyped.
    private func giveToService(_ path: String) throws(Errno) {
        guard geteuid() == 0, let owner = try? FileSystem.owner(of: directory), owner.user != 0 else { return }
        try FileSystem.changeOwner(of: path, to: owner)
    }

    /// Whether `text` has the shape of a token (so it is safe as a file name).
    static func isToken(_ text: String) -> Bool { isHex(text, digits: 64) }

    /// Whether `text` is `digits` lower-case hex digits: a token, or a session's id.
    static func isHex(_ text: String, digits: Int) -> Bool {
        text.utf8.count == digits && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    // MARK: - Pairing links

    /// A new pairing link's token, valid ``pairingSeconds`` from `now`.
    public func makePairing(now: Double) throws(Failure) -> String {
        try prepare()
        var waiting = 0
        for name in (try? FileSystem.names(inDirectory: pairingsDirectory, maximum: 4 * Self.maximumPairings)) ?? [] {
            let path = pairingsDirectory + "/" + name
            if let made = try? FileSystem.modificationSeconds(of: path), now - made <= Self.pairingSeconds, Self.isToken(name) {
                waiting += 1
            } else {
                try? FileSystem.removeFile(path)
            }
        }
        guard waiting < Self.maximumPairings else {
            throw Failure("\(waiting) pairing links are waiting to be used; wait until they expire (10 minutes)")
        }
        let token = try Self.newToken()
        let path = pairingsDirectory + "/" + token
        do throws(Errno) {
            try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive], permissions: 0o600).close()
            // Dated by the caller's clock, which the server's check of its age reads too.
            try FileSystem.setModificationTime(of: path, to: now)
            try giveToService(path)
        } catch {
            throw Failure("create", path, error)
        }
        return token
    }

    /// What opening a pairing link gave.
    public enum Redemption: Sendable, Equatable {
        case session(Session)
        /// Unknown, used or expired: the same answer for all three, so a guess learns nothing.
        case invalid
        /// ``maximumSessions`` are in use.
        case full
    }

    /// Uses a pairing link: removes it and makes a phone's session lasting `days`.
    public func redeem(pairing token: String, now: Double, days: Int) -> Redemption {
        guard Self.isToken(token) else { return .invalid }
        let path = pairingsDirectory + "/" + token
        guard let made = try? FileSystem.modificationSeconds(of: path), (try? FileSystem.removeFile(path)) != nil else {
            return .invalid
        }
        guard now - made <= Self.pairingSeconds else { return .invalid }
        guard reload(now: now).count < Self.maximumSessions else { return .full }
        guard let session = try? makeSession(kind: "phone", name: nil, now: now, days: days) else { return .invalid }
        return .session(session)
    }

    // MARK: - Sessions

    /// A new session of `kind`, written to its file.
    public func makeSession(kind: String, name: String?, now: Double, days: Int) throws(Failure) -> Session {
        try prepare()
        let id = String(try Self.newToken().prefix(8))
        let session = Session(
            id: id, token: try Self.newToken(), kind: kind, name: name, createdSeconds: now.rounded(.down),
            expiresSeconds: (now + Double(days) * 86_400).rounded(.down), usedSeconds: now)
        let text = JSONWriter.line([
            ("version", .number(1)), ("token", .string(session.token)), ("kind", .string(kind)), ("name", .string(name)),
            ("created", .number(session.createdSeconds)), ("expires", .number(session.expiresSeconds)),
        ])
        let path = sessionsDirectory + "/" + id
        let temporary = sessionsDirectory + "/." + id + ".new"
        do throws(Errno) {
            let file = try FileDescriptor.open(temporary, .writeOnly, options: [.create, .truncate], permissions: 0o600)
            try file.writeAll(Array((text + "\n").utf8))
            try file.sync()
            try file.close()
            try FileSystem.setModificationTime(of: temporary, to: now)
            try giveToService(temporary)
            try FileSystem.rename(temporary, to: path)
        } catch {
            throw Failure("write", path, error)
        }
        return session
    }

    /// The session a token opens at `now`, or nil: unknown, revoked or expired. Marks it used.
    public func session(token: String, now: Double) -> Session? {
        guard Self.isToken(token), let session = reload(now: now)[token], session.expiresSeconds > now else { return nil }
        let due = cache.withLock { cache in
            guard now - (cache.touched[session.id] ?? -.infinity) >= Self.touchIntervalSeconds else { return false }
            cache.touched[session.id] = now
            return true
        }
        if due { try? FileSystem.setModificationTime(of: sessionsDirectory + "/" + session.id, to: now) }
        return session
    }

    /// Every session on disk, expired ones too, oldest first.
    public func list() -> [Session] {
        readAll().sorted { ($0.createdSeconds, $0.id) < ($1.createdSeconds, $1.id) }
    }

    /// Ends the session `id`.
    /// - Returns: false when there is no such session.
    public func revoke(id: String) throws(Failure) -> Bool {
        guard Self.isHex(id, digits: 8) else { return false }
        let path = sessionsDirectory + "/" + id
        do throws(Errno) {
            try FileSystem.removeFile(path)
            return true
        } catch where error == .noSuchFileOrDirectory {
            return false
        } catch {
            throw Failure("remove", path, error)
        }
    }

    /// The sessions by token, read again when the directory changed (a session made or revoked
    /// by another process): one stat(2) a request otherwise.
    private func reload(now: Double) -> [String: Session] {
        let changed = (try? FileSystem.modificationSeconds(of: sessionsDirectory)) ?? -1
        if let current = cache.withLock({ $0.directorySeconds == changed ? $0.byToken : nil }) { return current }
        var byToken: [String: Session] = [:]
        for session in readAll() { byToken[session.token] = session }
        cache.withLock {
            $0.byToken = byToken
            $0.directorySeconds = changed
        }
        return byToken
    }

    private func readAll() -> [Session] {
        let names = (try? FileSystem.names(inDirectory: sessionsDirectory, maximum: 4 * Self.maximumSessions)) ?? []
        return names.compactMap { name in
            guard !name.hasPrefix(".") else { return nil }
            return read(sessionsDirectory + "/" + name, id: name)
        }
    }

    private func read(_ path: String, id: String) -> Session? {
        guard let file = try? FileDescriptor.open(path, .readOnly, options: [.noFollow]) else { return nil }
        defer { try? file.close() }
        guard let bytes = try? file.read(upToCount: Self.maximumSessionFileBytes),
            let used = try? FileSystem.modificationSeconds(of: path),
            case .object(let fields)? = try? JSONParser.parse(bytes),
            let token = fields["token"]?.string, Self.isToken(token), let kind = fields["kind"]?.string,
            let created = fields["created"]?.number, let expires = fields["expires"]?.number
        else { return nil }
        return Session(
            id: id, token: token, kind: kind, name: fields["name"]?.string, createdSeconds: created, expiresSeconds: expires,
            usedSeconds: used)
    }

    private static func newToken() throws(Failure) -> String {
        do throws(Errno) {
            return try SecureRandom.hexToken(byteCount: 32)
        } catch {
            throw Failure("read random bytes: \(error)")
        }
    }
}
