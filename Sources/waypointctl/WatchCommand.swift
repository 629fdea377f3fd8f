import CommandLineSupport
import ControlProtocol
import DaemonClient
import SystemSupport
@preconcurrency import Glibc

/// `waypointctl watch`: asks the daemon for `STATUS` updates and shows each one, as a compass
/// redrawn in place on a terminal or as one line per update otherwise, until SIGINT or SIGTERM.
enum WatchCommand {
    /// How many update periods may pass in silence before the daemon counts as stuck; plus
    /// ``DaemonSession/replyTimeoutSeconds`` of slack.
    static let missedUpdatesAllowed = 3.0

    /// Runs the watch.
    /// - Parameters:
    ///   - hertz: Updates a second, in the protocol's range.
    ///   - plain: Whether to print lines even on a terminal (for screen readers).
    ///   - socketPath: The control socket.
    /// - Returns: `.success` when ended by a signal; otherwise why the updates stopped.
    static func run(hertz: Double, plain: Bool, socketPath: String) -> ExitStatus {
        let session: DaemonSession
        do throws(DaemonFailure) {
            session = try DaemonSession(path: socketPath)
            let reply = try session.send(.watch(enabled: true, hertz: hertz)).reply
            guard case .ok = reply else { throw .unexpectedReply(request: "watch", reply: reply.messageClass.rawValue) }
            // Between updates the daemon is silent for 1/hertz seconds: wait that long, a few
            // times over, before calling it stuck.
            do throws(ConnectionError) {
                try session.connection.setReceiveTimeout(
                    seconds: missedUpdatesAllowed / hertz + DaemonSession.replyTimeoutSeconds)
            } catch {
                throw .connection(error)
            }
        } catch {
            Console.error("\(error)")
            return error.exitStatus
        }

        let stop = StopSignal(interrupter: session.connection.interrupter)
        defer { stop.cancel() }
        let interactive = !plain && Terminal.isStandardOutputTerminal
        if interactive { Terminal.write(Terminal.hideCursor + Terminal.clearScreen) }
        // Every way out restores the terminal: the last frame stays, the cursor below it.
        defer { if interactive { Terminal.write(Terminal.resetAttributes + Terminal.showCursor) } }

        var plainFilter = PlainWatchFilter()
        let clock = ContinuousClock()
        let start = clock.now
        while true {
            let received: ControlConnection.Received
            do throws(ConnectionError) {
                received = try session.connection.receive()
            } catch {
                if stop.hasFired { return .success }
                Console.error("\(error)")
                return error.exitStatus
            }
            switch received.reply {
            case .status(let status):
                if interactive {
                    let size = Terminal.size()
                    Terminal.write(Terminal.redraw(CompassFrame.render(status, columns: size.columns, rows: size.rows)))
                } else if let line = plainFilter.line(for: status, atSeconds: (clock.now - start).seconds) {
                    Console.output(line)
                    fflush(stdout)
                }
            case .error(let error):
                // E.g. a watcher that fell behind is told so before being dropped.
                Console.error(DaemonFailure.refused(error).description)
                return .failure
            default:
                // Nothing else is expected; a newer daemon may send more, which is not ours to read.
                continue
            }
        }
    }
}
