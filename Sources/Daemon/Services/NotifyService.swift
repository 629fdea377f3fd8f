import Guidance
import SystemSupport

/// systemd's side of the daemon: the guidance state, each time it changes, as the unit's
/// `STATUS=` line and a line in the log (not on a timer). `READY=1` goes out before the group
/// starts, `STOPPING=1` when it is told to stop; the watchdog is petted by the sampling thread.
struct NotifyService: Service {
    var name: String { "notify" }

    let notifier: SystemdNotifier
    let states: AsyncStream<Navigator.State>
    let initial: Navigator.State
    let logger: Logger

    func run() async throws {
        var last = initial
        notifier.status(last.rawValue)
        logger.info("state", ["state": last.rawValue])
        // The stream may begin with the state just logged: each change once.
        for await state in states where state != last {
            last = state
            notifier.status(state.rawValue)
            logger.info("state", ["state": state.rawValue])
        }
    }
}
