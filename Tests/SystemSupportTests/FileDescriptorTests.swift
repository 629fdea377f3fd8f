import Foundation
@preconcurrency import Glibc
import Testing

@testable import SystemSupport

@Suite("File descriptors and file system calls", .timeLimit(.minutes(5)))
struct FileDescriptorTests {
    @Test("EINTR is retried until the call does something")
    func retriesInterruptedCalls() {
        var calls = 0
        let result = SystemCall.valueOrErrno { () -> Int32 in
            calls += 1
            guard calls > 2 else {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == .success(7))
        #expect(calls == 3)
    }

    @Test("EINTR is passed on when retrying is off, as for close")
    func passesInterruptionOnWhenAsked() {
        var calls = 0
        let result = SystemCall.valueOrErrno(retryOnInterrupt: false) { () -> Int32 in
            calls += 1
            errno = EINTR
            return -1
        }
        #expect(result == .failure(.interrupted))
        #expect(calls == 1)
    }

    @Test("other errors come back as their Errno, read right after the call")
    func reportsErrno() {
        let result = SystemCall.valueOrErrno { () -> Int in
            errno = ENOSPC
            return -1
        }
        #expect(result == .failure(.noSpace))
    }

    @Test("open, write, fsync, close, rename, stat and unlink on a real directory")
    func realCalls() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fd-\(UUID().uuidString)").path
        try FileSystem.makeDirectory(directory, permissions: 0o700)
        defer {
            do { try FileManager.default.removeItem(atPath: directory) } catch { Issue.record("cleanup: \(error)") }
        }
        #expect(try FileSystem.kind(of: directory) == .directory)
        try FileSystem.checkWritableDirectory(directory)

        let path = directory + "/file"
        let bytes = Array("hello\n".utf8)
        let output = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive], permissions: 0o600)
        let written = try bytes.withUnsafeBytes { buffer throws(Errno) in try output.write(buffer) }
        #expect(written == bytes.count)
        try output.sync()
        try output.close()
        #expect(throws: Errno.fileExists) {
            _ = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive])
        }
        #expect(try FileSystem.kind(of: path) == .regularFile)

        try FileSystem.rename(path, to: path + ".renamed")
        #expect(try FileSystem.kind(of: path) == nil)
        let input = try FileDescriptor.open(path + ".renamed", .readOnly)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = try buffer.withUnsafeMutableBytes { buffer throws(Errno) in try input.read(into: buffer) }
        #expect(Array(buffer[0..<count]) == bytes)
        try input.close()

        let directoryDescriptor = try FileDescriptor.open(directory, .readOnly, options: [.directory])
        try directoryDescriptor.sync()
        try directoryDescriptor.close()

        #expect(throws: Errno.notDirectory) {
            _ = try FileDescriptor.open(path + ".renamed", .readOnly, options: [.directory])
        }
        try FileSystem.removeFile(path + ".renamed")
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileSystem.removeFile(path + ".renamed") }
        #expect(throws: Errno.noSuchFileOrDirectory) { _ = try FileDescriptor.open(path, .readOnly) }
    }

    @Test("a whole file is written and read back across several read calls, up to a limit")
    func wholeFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fd-\(UUID().uuidString)").path
        try FileSystem.makeDirectory(directory, permissions: 0o700)
        defer {
            do { try FileManager.default.removeItem(atPath: directory) } catch { Issue.record("cleanup: \(error)") }
        }
        let path = directory + "/big"
        let bytes = (0..<(FileDescriptor.readChunkBytes * 2 + 123)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let output = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive])
        try output.writeAll(bytes)
        try output.close()

        func contents(_ path: String, maximumBytes: Int = 1 << 20) throws(FileReadError) -> [UInt8] {
            try LinuxFileReading().contents(ofRegularFile: path, maximumBytes: maximumBytes, followingLinks: false)
        }
        #expect(try contents(path) == bytes)
        #expect(try contents(path, maximumBytes: bytes.count) == bytes)
        #expect(throws: FileReadError.tooLarge(limitBytes: 10)) { _ = try contents(path, maximumBytes: 10) }
        #expect(throws: FileReadError.tooLarge(limitBytes: 0)) { _ = try contents(path, maximumBytes: 0) }
        #expect(throws: FileReadError.notRegularFile(.directory)) { _ = try contents(directory) }
        #expect(throws: FileReadError.missing) { _ = try contents(directory + "/absent") }
        #expect(Errno.isDirectory.message == "Is a directory")
    }

    @Test("a FIFO, a device, a symbolic link and a huge file are refused without blocking or reading them whole")
    func onlyRegularFilesAreRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fd-\(UUID().uuidString)").path
        try FileSystem.makeDirectory(directory, permissions: 0o700)
        defer {
            do { try FileManager.default.removeItem(atPath: directory) } catch { Issue.record("cleanup: \(error)") }
        }
        let reading = LinuxFileReading()
        func contents(_ path: String, followingLinks: Bool = false) throws(FileReadError) -> [UInt8] {
            try reading.contents(ofRegularFile: path, maximumBytes: 4096, followingLinks: followingLinks)
        }
        // A FIFO nobody writes to: a blocking open would wait here for ever.
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FileReadError.notRegularFile(.other)) { _ = try contents(fifo) }
        // A device that never ends.
        #expect(throws: FileReadError.notRegularFile(.other)) { _ = try contents("/dev/zero", followingLinks: true) }

        let target = directory + "/target"
        let file = try FileDescriptor.open(target, .writeOnly, options: [.create, .exclusive])
        try file.writeAll(Array("elsewhere".utf8))
        // 8 GiB, sparse: far past the limit, and only the limit and one byte are read.
        try file.resize(to: 8 << 30)
        try file.close()
        #expect(throws: FileReadError.tooLarge(limitBytes: 4096)) { _ = try contents(target) }
        try FileDescriptor.open(target, .writeOnly, options: [.truncate]).close()

        let link = directory + "/link"
        #expect(symlink(target, link) == 0)
        #expect(throws: FileReadError.symbolicLink) { _ = try contents(link) }
        #expect(try contents(link, followingLinks: true) == [])
        #expect(FileReadError.symbolicLink.description.contains("symbolic link"))
        #expect(FileReadError.notRegularFile(.other).description.contains("FIFO"))
    }

    @Test("pwrite rewrites in place without moving the offset, ftruncate cuts, errors are their Errno")
    func positionedWritesAndResizing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fd-\(UUID().uuidString)").path
        try FileSystem.makeDirectory(directory, permissions: 0o700)
        defer {
            do { try FileManager.default.removeItem(atPath: directory) } catch { Issue.record("cleanup: \(error)") }
        }
        let path = directory + "/attribute"
        let file = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive])
        defer {
            do throws(Errno) { try file.close() } catch { Issue.record("close: \(error)") }
        }
        func positioned(_ text: String, at offset: Int64) throws -> Int {
            let bytes = Array(text.utf8)
            return try bytes.withUnsafeBytes { buffer throws(Errno) in
                try file.write(toAbsoluteOffset: offset, buffer)
            }
        }
        func bytes() throws -> [UInt8] {
            try LinuxFileReading().contents(ofRegularFile: path, maximumBytes: 100, followingLinks: false)
        }
        func contents() throws -> String { String(decoding: try bytes(), as: UTF8.self) }

        #expect(try positioned("1000000\n", at: 0) == 8)
        #expect(try positioned("7\n", at: 0) == 2)
        #expect(try contents() == "7\n00000\n", "pwrite alone leaves the tail of a longer value")
        try file.resize(to: 0)
        #expect(try contents() == "")
        #expect(try positioned("7\n", at: 0) == 2)
        #expect(try contents() == "7\n")
        // The descriptor's own offset never moved: a plain write still lands at 0.
        #expect(try Array("9".utf8).withUnsafeBytes { buffer throws(Errno) in try file.write(buffer) } == 1)
        #expect(try contents() == "9\n")
        try file.resize(to: 4)
        #expect(try bytes() == Array("9\n".utf8) + [0, 0])

        let reader = try FileDescriptor.open(path, .readOnly)
        defer {
            do throws(Errno) { try reader.close() } catch { Issue.record("close: \(error)") }
        }
        #expect(throws: Errno.invalidArgument) { try reader.resize(to: 0) }
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let (pipeReader, pipeWriter) = (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
        defer {
            do throws(Errno) {
                try pipeReader.close()
                try pipeWriter.close()
            } catch {
                Issue.record("close: \(error)")
            }
        }
        #expect(throws: Errno(rawValue: ESPIPE)) {
            _ = try [UInt8(1)].withUnsafeBytes { buffer throws(Errno) in
                try pipeWriter.write(toAbsoluteOffset: 0, buffer)
            }
        }
    }

    /// The motor's duty_cycle is cut before each value (LinuxSysfsAttribute), which must be a
    /// harmless no-op on sysfs: kernfs ignores size changes.
    @Test(
        "ftruncate of a sysfs attribute succeeds and leaves its value alone",
        .enabled(if: access("/sys/module/printk/parameters/time", W_OK) == 0, "needs a writable sysfs on /sys"))
    func truncateOnSysfs() throws {
        let path = "/sys/module/printk/parameters/time"
        let before = try String(contentsOfFile: path, encoding: .utf8)
        let descriptor = try FileDescriptor.open(path, .writeOnly)
        defer {
            do throws(Errno) { try descriptor.close() } catch { Issue.record("close: \(error)") }
        }
        try descriptor.resize(to: 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
        #expect(!before.isEmpty)
    }
}
