import CommandLineSupport
import ControlProtocol
import Geodesy
import SystemSupport

/// `waypointctl calibrate start --wait`: starts a calibration, then asks how it stands once a
/// second, saying what is still missing whenever that changes, until a fit would be good or
/// the time is up (issue 30, item 14). It never finishes the calibration itself: the wearer
/// decides when to stop turning.
enum CalibrationWait {
    /// How often the daemon is asked.
    static let pollInterval = Duration.seconds(1)

    /// - Returns: 0 once a fit would be good, 1 at the timeout or when the calibration ends
    ///   some other way (cancelled from elsewhere).
    static func run(session: DaemonSession, timeoutSeconds: Double) throws(DaemonFailure) -> ExitStatus {
        let started = try calibration(.start, session)
        for line in CalibrationSummary.lines(for: started) { Console.output(line) }
        var missing = started.missing
        var waited = Duration.zero
        let timeout = Duration.seconds(timeoutSeconds)
        // Already collecting, and enough: nothing to wait for.
        var ready = started.isReady == true
        while !ready {
            let pause = min(pollInterval, timeout - waited)
            ThreadSleep.sleep(for: pause)
            waited += pause
            let report = try calibration(.status, session)
            guard report.state == "running" else {
                Console.error("the calibration is no longer running (\(report.state))")
                return .failure
            }
            ready = report.isReady == true
            if ready { break }
            if report.missing != missing {
                missing = report.missing
                for line in CalibrationSummary.missingLines(report) { Console.output(line) }
            }
            if waited >= timeout {
                let still = (missing ?? []).joined(separator: "; ")
                Console.error(
                    "not ready after \(DecimalFormat.short(timeoutSeconds, maximumFractionDigits: 1)) s"
                        + (still.isEmpty ? "" : "; still missing: \(still)") + "; keep turning, or cancel")
                return .failure
            }
        }
        Console.output("ready: the fit is good; run: waypointctl calibrate finish")
        return .success
    }

    /// The daemon's `CALIBRATION` reply to `action`.
    private static func calibration(_ action: CalibrationAction, _ session: DaemonSession) throws(DaemonFailure)
        -> CalibrationReport
    {
        let reply = try session.send(.calibrate(action)).reply
        guard case .calibration(let report) = reply else {
            throw .unexpectedReply(request: "calibrate", reply: reply.messageClass.rawValue)
        }
        return report
    }
}
