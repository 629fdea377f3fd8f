/// One long-lived part of the daemon (the motor, the sensors, the GPS client, the control socket,
/// the trail, systemd's notifications): it runs until its task is cancelled, then leaves what it
/// drives in a safe state and returns. ``ServiceGroup`` starts them in order and stops them in
/// reverse.
public protocol Service: Sendable {
    /// What the log calls it.
    var name: String { get }
    /// Runs until the task is cancelled.
    /// - Throws: What made it stop early; the group logs it, and the others go on.
    func run() async throws
}

/// A service made of a name and the body of its `run()`: for parts that already have a run
/// loop of their own (the player, the control server, the trail's thread).
public struct NamedService: Service {
    public let name: String
    private let body: @Sendable () async throws -> Void

    /// A service called `name` that runs `body`.
    public init(_ name: String, _ body: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.body = body
    }

    public func run() async throws { try await body() }
}
