/// The real calls of ``FileReading``, through ``FileDescriptor``'s wrappers.
public struct LinuxFileReading: RealFileReading {
    /// The real file system.
    public init() {}
}

/// A ``FileReading`` whose four calls are the real ones, written once here for every type that
/// makes them (``LinuxFileReading``, and the state store's file system, which adds its own).
public protocol RealFileReading: FileReading {}

extension RealFileReading {
    public func open(
        _ path: String, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions, permissions: UInt32
    ) throws(Errno) -> FileDescriptor {
        try FileDescriptor.open(path, mode, options: options, permissions: permissions)
    }

    public func kind(of descriptor: FileDescriptor) throws(Errno) -> FileSystem.Kind { try descriptor.kind() }

    public func read(_ descriptor: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try descriptor.read(into: buffer)
    }

    public func close(_ descriptor: FileDescriptor) throws(Errno) { try descriptor.close() }
}
