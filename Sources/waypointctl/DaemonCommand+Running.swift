import ControlProtocol
import DaemonClient

extension DaemonCommand {
    /// Talks to the daemon, prints the outcome for people, and says how the program should end.
    /// - Parameter socketPath: The control socket.
    /// - Returns: 0 done, 1 the daemon answered an error, 69 it could not be reached.
    func run(socketPath: String) -> ExitStatus {
        if case .watch(let hertz, let plain) = self {
            return WatchCommand.run(hertz: hertz, plain: plain, socketPath: socketPath)
        }
        do throws(DaemonFailure) {
            let session = try DaemonSession(path: socketPath)
            let received = try session.send(request)
            for line in try output(for: received, session: session) {
                Console.output(line)
            }
            return .success
        } catch {
            Console.error("\(error)")
            return error.exitStatus
        }
    }

    /// What to print for the reply to ``request``.
    private func output(for received: ControlConnection.Received, session: DaemonSession) throws(DaemonFailure)
        -> [String]
    {
        switch (self, received.reply) {
        case (.status(json: true), .status):
            return [String(decoding: received.line, as: UTF8.self)]
        case (.status, .status(let report)):
            return StatusSummary.lines(for: report)
        case (.recent, .recent(let destinations)):
            return RecentList.lines(for: destinations)
        case (.calibrate, .calibration(let report)):
            return CalibrationSummary.lines(for: report)
        case (.go(let coordinate, let name), .ok):
            let place = Presentation.place(
                latitudeDegrees: coordinate.latitudeDegrees, longitudeDegrees: coordinate.longitudeDegrees, name: name)
            return ["destination set: \(place)"]
        case (.goRecent(let index), .ok):
            // The request named a number; ask which place that was, so the wearer hears it.
            let status = try session.send(.status)
            guard case .status(let report) = status.reply, let destination = report.destination else {
                return ["destination set: recent destination \(index)"]
            }
            let place = Presentation.place(
                latitudeDegrees: destination.latitude, longitudeDegrees: destination.longitude, name: destination.name)
            return ["destination set: \(place)"]
        case (.clear, .ok):
            return ["destination cleared; guidance stopped"]
        case (.mute(true), .ok):
            return ["guidance vibration muted; patterns still play"]
        case (.mute(false), .ok):
            return ["guidance vibration on"]
        case (.buzz(let pattern), .ok):
            return ["playing \(pattern.rawValue)"]
        default:
            throw .unexpectedReply(request: request.commandName, reply: received.reply.className)
        }
    }
}
