import Foundation
import Testing
import TestSupport
import WebCompanion

/// The session book's files, as `pair`, `token`, `sessions`, `revoke` and the server share them.
@Suite(.timeLimit(.minutes(5))) struct SessionBookTests {
    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sessions-\(UUID().uuidString)")
    }

    @Test func aPairingLinkIsRedeemedOnceEvenByTwoBooksAtOnce() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let token = try SessionBook(directory: directory.path).makePairing(now: 100)
        // Two servers' books (two processes in life) race for the same link, many times over.
        let results = await withTaskGroup(of: SessionBook.Redemption.self) { group in
            for _ in 0..<8 { group.addTask { SessionBook(directory: directory.path).redeem(pairing: token, now: 101, days: 30) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let sessions = results.filter { if case .session = $0 { true } else { false } }
        #expect(sessions.count == 1, "\(results)")
        #expect(SessionBook(directory: directory.path).list().count == 1)
    }

    @Test func filesAreTheServicesOwnAndBounded() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let book = SessionBook(directory: directory.path)
        let session = try book.makeSession(kind: "script", name: "backup", now: 100, days: 2)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path + "/sessions/" + session.id)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: directory.path + "/sessions")
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        #expect(book.session(token: session.token, now: 100 + 86_400)?.name == "backup")
        #expect(book.session(token: session.token, now: 100 + 2 * 86_400) == nil, "expired")
        #expect(book.session(token: "../" + session.token, now: 101) == nil)
        for _ in 0..<SessionBook.maximumPairings { _ = try book.makePairing(now: 200) }
        #expect(throws: SessionBook.Failure.self) { try book.makePairing(now: 200) }
        // Expired links make room.
        _ = try book.makePairing(now: 200 + SessionBook.pairingSeconds + 10)
    }

    @Test func aRevokeByAnotherProcessIsSeenAtTheNextRequest() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = SessionBook(directory: directory.path)
        let session = try server.makeSession(kind: "phone", name: nil, now: 100, days: 30)
        #expect(server.session(token: session.token, now: 101) != nil)
        #expect(try SessionBook(directory: directory.path).revoke(id: session.id))
        #expect(server.session(token: session.token, now: 102) == nil)
    }
}

/// Run as root, the commands give what they make to the service's user (CI runs as root).
@Suite(.timeLimit(.minutes(5))) struct SessionOwnershipTests {
    @Test func filesMadeByRootGoToTheStateDirectorysOwner() throws {
        guard geteuid() == 0 else { try skip("only root can give files away") }
        let directory = SessionBookTests.directory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // nobody:nogroup stands for waypoint-web:waypoint-web.
        #expect(chown(directory.path, 65534, 65534) == 0)
        let book = SessionBook(directory: directory.path)
        let token = try book.makePairing(now: 100)
        let session = try book.makeSession(kind: "script", name: nil, now: 100, days: 1)
        for path in ["pairings", "sessions", "pairings/\(token)", "sessions/\(session.id)"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(path).path)
            #expect((attributes[.ownerAccountID] as? Int) == 65534 && (attributes[.groupOwnerAccountID] as? Int) == 65534, "\(path)")
        }
    }
}
