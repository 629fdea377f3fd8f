import Synchronization

/// A flag one thread sets and another polls, to end a background loop.
public final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)

    /// A flag that is not set.
    public init() {}

    /// Whether `stop()` was called.
    public var isSet: Bool { value.load(ordering: .relaxed) }

    /// Sets the flag.
    public func stop() { value.store(true, ordering: .relaxed) }
}
