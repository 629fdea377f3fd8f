import Foundation
@preconcurrency import Glibc
import Testing

@testable import SystemSupport

@Suite("Exclusive file locks and their holders", .timeLimit(.minutes(5)))
struct FileLockTests {
    @Test("/proc/locks lines: the FLOCK holder of a device and inode, not a waiter, a POSIX lock or an OFD lock")
    func holderFromText() {
        let identity = FileIdentity(major: 0, minor: 0x19, inode: 5678)
        let locks = """
            1: POSIX  ADVISORY  WRITE 999 00:19:5678 0 EOF
            2: FLOCK  ADVISORY  WRITE 1234 00:19:5678 0 EOF
            2: -> FLOCK  ADVISORY  WRITE 4321 00:19:5678 0 EOF
            3: FLOCK  ADVISORY  WRITE 77 00:1a:5678 0 EOF
            """
        #expect(identity.flockHolder(in: locks) == 1234)
        #expect(identity.flockHolder(in: "3: FLOCK  ADVISORY  WRITE -1 00:19:5678 0 EOF") == nil)
        #expect(FileIdentity(major: 0, minor: 0x1a, inode: 5678).flockHolder(in: locks) == 77)
        #expect(identity.flockHolder(in: "") == nil)
    }

    @Test("a second open of a locked file cannot lock it, and /proc/locks names this process; closing frees it")
    func lockAndHolder() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)").path
        try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive]).close()
        defer { try? FileSystem.removeFile(path) }
        let first = try FileDescriptor.open(path, .readOnly)
        let second = try FileDescriptor.open(path, .readOnly)
        defer { try? second.close() }
        #expect(try first.lockExclusivelyWithoutWaiting())
        #expect(try !second.lockExclusivelyWithoutWaiting())
        let locks = try LinuxFileReading().contents(ofRegularFile: "/proc/locks", maximumBytes: 1 << 20, followingLinks: false)
        #expect(try second.identity().flockHolder(in: String(decoding: locks, as: UTF8.self)) == getpid())
        try first.close()
        #expect(try second.lockExclusivelyWithoutWaiting())
    }
}
