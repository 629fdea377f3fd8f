import GPSClient
import Geodesy
import Synchronization
import SystemSupport

extension HealthCheck {
    /// What watching gpsd for a while showed.
    private enum GPSObservation: Sendable {
        /// A report with a position.
        case fix(Fix)
        /// The first connection failed, or the peer is not gpsd.
        case unreachable(GPSClientError)
        /// The time ran out; whether gpsd ever accepted the connection.
        case timedOut(connected: Bool)
    }

    /// gpsd: reachable at the configured address, and reporting a fix within `fixTimeout`.
    /// Reachable without a fix is a warning, not a failure: indoors, or in the first minute
    /// after a cold start, that is normal, and the daemon waits for one.
    func checkGPS(_ server: GPSServerAddress) async -> HealthVerdict {
        let source = devices.fixSource(server)
        let timeout = fixTimeout
        let observation = await withTaskGroup(of: GPSObservation?.self) { group in
            let connected = ConnectedFlag()
            group.addTask {
                for await event in source.events() {
                    switch event {
                    case .connected: connected.set()
                    case .fix(let fix) where fix.mode != .noFix: return .fix(fix)
                    case .failure(let error):
                        switch error {
                        case .connectFailed where !connected.isSet, .notGPSD: return .unreachable(error)
                        default: break
                        }
                    default: break
                    }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .timedOut(connected: connected.isSet)
            }
            // Either the source decided or the time ran out; cancelling ends the other task (and
            // with it the gpsd connection).
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .timedOut(connected: connected.isSet)
        }
        let seconds = Self.format(seconds: timeout.seconds)
        switch observation {
        case .fix(let fix):
            let kind = fix.mode == .threeDimensional ? "3D fix" : "2D fix"
            let error = fix.horizontalErrorMeters.map { " (±\(Int($0.rounded())) m)" } ?? ""
            return HealthVerdict(item: "gpsd", outcome: .ok, detail: "\(server), \(kind)\(error)")
        case .unreachable(let error):
            if case .notGPSD = error {
                return HealthVerdict(
                    item: "gpsd", outcome: .failed, detail: error.description,
                    fix: "set gpsd in the config to gpsd's address (default 127.0.0.1:2947)")
            }
            return HealthVerdict(
                item: "gpsd", outcome: .failed, detail: error.description,
                fix: "apt install gpsd; set DEVICES=\"/dev/serial0\" (the receiver) in /etc/default/gpsd; "
                    + "systemctl enable --now gpsd.socket")
        case .timedOut(connected: true):
            return HealthVerdict(
                item: "gpsd", outcome: .warning, detail: "\(server) answers, but no fix within \(seconds) s",
                fix: "give the antenna a view of the sky (a cold start takes a minute or more); "
                    + "`gpsmon` shows the receiver; is it in DEVICES= in /etc/default/gpsd?")
        case .timedOut(connected: false):
            return HealthVerdict(
                item: "gpsd", outcome: .failed, detail: "no answer from gpsd at \(server) within \(seconds) s",
                fix: "is gpsd running (systemctl status gpsd)? is the address in the config right?")
        }
    }
}

extension HealthCheck {
    /// `10` or `0.3`: whole seconds without a fraction.
    static func format(seconds: Double) -> String { DecimalFormat.short(seconds, maximumFractionDigits: 1) }
}

/// Set once gpsd has accepted the connection; read by the timeout.
private final class ConnectedFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}
