import SystemSupport

/// The real system calls, through SystemSupport's wrappers.
public struct LinuxStateFileSystem: StateFileSystem {
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

    public func open(
        _ path: String, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions, permissions: UInt32
    ) throws(Errno) -> FileDescriptor {
        try FileDescriptor.open(path, mode, options: options, permissions: permissions)
    }

    public func kind(of descriptor: FileDescriptor) throws(Errno) -> FileSystem.Kind { try descriptor.kind() }

    public func read(_ descriptor: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try descriptor.read(into: buffer)
    }

    public func write(_ descriptor: FileDescriptor, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try descriptor.write(buffer)
    }

    public func sync(_ descriptor: FileDescriptor) throws(Errno) {
        try descriptor.sync()
    }

    public func close(_ descriptor: FileDescriptor) throws(Errno) {
        try descriptor.close()
    }

    public func rename(_ source: String, to destination: String) throws(Errno) {
        try FileSystem.rename(source, to: destination)
    }

    public func removeFile(_ path: String) throws(Errno) {
        try FileSystem.removeFile(path)
    }
}
