import SystemSupport

/// The daemon's supervisor (chrony's `main.c`, swift-service-lifecycle's group): starts its
/// services in order, waits until it is told to stop, then stops them in reverse order, each
/// only once every later one has returned. The first is the motor, so it is the last to stop,
/// and what stops it leaves it off.
public struct ServiceGroup: Sendable {
    /// The services, in the order they start.
    public let services: [any Service]
    let logger: Logger

    /// A group of services, started in this order.
    public init(_ services: [any Service], logger: Logger) {
        self.services = services
        self.logger = logger
    }

    /// Runs every service until `stopped` returns, then stops them, last first.
    public func run(until stopped: @Sendable () async -> Void) async {
        await run(services[...], until: stopped)
    }

    /// Each level runs one service beside the rest of the list, and cancels it only when the
    /// rest has returned: the nesting is the order.
    private func run(_ services: ArraySlice<any Service>, until stopped: @Sendable () async -> Void) async {
        guard let first = services.first else {
            await stopped()
            return
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await first.run()
                } catch {
                    logger.error("a service stopped", ["service": first.name, "error": "\(error)"])
                }
            }
            await run(services.dropFirst(), until: stopped)
            group.cancelAll()
        }
    }
}
