/// How far another process has read a file it has open: the position of its descriptor, from
/// `/proc/PID/fd` and `/proc/PID/fdinfo` (Linux). For the progress of a program that reads a
/// file from start to end and says nothing of it (osmium reading an extract).
public enum ProcessFileOffset {
    /// Descriptors looked at: a reader of one file has few open.
    public static let maximumDescriptors = 256

    /// The byte offset of the first descriptor of `process` open on `canonicalPath` (as
    /// ``FileSystem/canonicalPath(_:)`` gives it); nil when none is, or the process is gone.
    public static func offset(process: Int32, canonicalPath: String) -> Int? {
        let directory = "/proc/\(process)/fd"
        guard let descriptors = try? FileSystem.names(inDirectory: directory, maximum: maximumDescriptors) else { return nil }
        for descriptor in descriptors where (try? FileSystem.linkTarget(of: directory + "/" + descriptor)) == canonicalPath {
            guard
                let info = try? LinuxFileReading().contents(
                    ofRegularFile: "/proc/\(process)/fdinfo/\(descriptor)", maximumBytes: 4096, followingLinks: false)
            else { return nil }
            return position(inFDInfo: info)
        }
        return nil
    }

    /// The `pos:` field of an fdinfo file's text.
    static func position(inFDInfo bytes: [UInt8]) -> Int? {
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.starts(with: Array("pos:".utf8)) {
            return Int(String(decoding: line.dropFirst(4).filter { $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: " ") }, as: UTF8.self))
        }
        return nil
    }
}
