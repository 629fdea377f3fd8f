import SystemSupport

/// The real system calls, through SystemSupport's wrappers.
public struct LinuxStateFileSystem: StateFileSystem, RealFileReading {
    /// The real file system.
    public init() {}

    public func kind(of path: String) throws(Errno) -> FileSystem.Kind? {
        try FileSystem.kind(of: path)
    }

    public func makeDirectory(_ path: String, permissions: UInt32) throws(Errno) {
        try FileSystem.makeDirectory(path, permissions: permissions)
    }

    public func checkWritableDirectory(_ path: String) throws(Errno) {
        try FileSystem.checkWritableDirectory(path)
    }

    public func write(_ descriptor: FileDescriptor, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try descriptor.write(buffer)
    }

    public func sync(_ descriptor: FileDescriptor) throws(Errno) {
        try descriptor.sync()
    }

    public func rename(_ source: String, to destination: String) throws(Errno) {
        try FileSystem.rename(source, to: destination)
    }

    public func removeFile(_ path: String) throws(Errno) {
        try FileSystem.removeFile(path)
    }
}
