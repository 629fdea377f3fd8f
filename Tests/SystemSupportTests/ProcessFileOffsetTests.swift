import Foundation
import Testing

@testable import SystemSupport

/// How far a process has read a file, from /proc (issue 39: the import's progress while osmium
/// reads the extract). On this process's own descriptor, whose position the test sets.
@Suite("A process's offset in a file", .timeLimit(.minutes(5)))
struct ProcessFileOffsetTests {
    @Test("the offset of an open file, as read so far; none for a file not open, or a process gone")
    func offset() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("offset-\(UUID().uuidString)").path
        try Data(repeating: 7, count: 10_000).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let canonical = try FileSystem.canonicalPath(path)
        #expect(ProcessFileOffset.offset(process: getpid(), canonicalPath: canonical) == nil)
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        _ = try handle.read(upToCount: 4096)
        #expect(ProcessFileOffset.offset(process: getpid(), canonicalPath: canonical) == 4096)
        #expect(ProcessFileOffset.offset(process: Int32.max, canonicalPath: canonical) == nil)
    }

    @Test("fdinfo's pos field, whatever its spacing; none without one")
    func fdinfo() {
        #expect(ProcessFileOffset.position(inFDInfo: Array("pos:\t12345\nflags:\t0100000\nmnt_id:\t29\n".utf8)) == 12345)
        #expect(ProcessFileOffset.position(inFDInfo: Array("flags:\t0\npos: 7\n".utf8)) == 7)
        #expect(ProcessFileOffset.position(inFDInfo: Array("flags:\t0\n".utf8)) == nil)
    }
}
