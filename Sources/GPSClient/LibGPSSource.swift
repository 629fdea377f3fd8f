import SystemSupport

/// Fixes from gpsd through libgps: connects, asks for reports, reads them on the thread it runs
/// on, merges each epoch's reports, watches for silence and reconnects with capped exponential
/// backoff, until stopped.
public struct LibGPSSource: GPSFixSource {
    /// Where gpsd listens.
    public let server: GPSServerAddress
    /// Timeouts and backoff.
    public let settings: GPSClientSettings

    /// A source for gpsd at `server`.
    public init(server: GPSServerAddress = .local, settings: GPSClientSettings = GPSClientSettings()) {
        self.server = server
        self.settings = settings
    }

    public func run(until stop: GPSStop, deliver: (GPSEvent) -> Void) {
        Reader(server: server, settings: settings, stop: stop).run(deliver)
    }

    /// The loop on the reader thread.
    private struct Reader: Sendable {
        let server: GPSServerAddress
        let settings: GPSClientSettings
        let stop: GPSStop

        /// Longest single sleep, so a departed consumer is noticed within a second.
        static let longestWait = Duration.seconds(1)
        /// How long to let more bytes arrive after a partial line.
        static let partialLineWait = Duration.milliseconds(50)
        /// A peer that has not acknowledged WATCH by then is not a working gpsd. gpsd itself
        /// answers within about a second, even while it opens a device.
        static let watchReplyTimeout = Duration.seconds(5)

        func run(_ deliver: (GPSEvent) -> Void) {
            let clock = ContinuousClock()
            let origin = clock.now
            func now() -> Duration { clock.now - origin }
            var assembler = FixAssembler(settings: settings, now: now())
            var connection: LibGPSConnection?
            var watching = false
            var connectedAt = Duration.zero
            var nextAttempt = Duration.zero
            var backoff = Backoff(first: settings.reconnectMinimum, longest: settings.reconnectMaximum)

            func emit(_ events: [GPSEvent]) {
                for event in events { deliver(event) }
            }
            func disconnect(_ error: GPSClientError) {
                emit(assembler.connectionLost())
                emit([.failure(error)])
                connection = nil
                watching = false
                nextAttempt = now() + backoff.failed()
            }

            while !stop.isStopped {
                emit(assembler.tick(now: now()))
                let wakeUp = min(assembler.nextDeadline() ?? .seconds(Int64.max / 2), now() + Self.longestWait)
                guard let open = connection else {
                    if now() < nextAttempt {
                        stop.sleep(for: min(wakeUp, nextAttempt) - now())
                        continue
                    }
                    do throws(GPSClientError) {
                        let opened = try LibGPSConnection.open(server)
                        try opened.watch()
                        connection = opened
                        connectedAt = now()
                    } catch {
                        emit([.failure(error)])
                        nextAttempt = now() + backoff.failed()
                    }
                    continue
                }
                if !watching && now() - connectedAt >= Self.watchReplyTimeout {
                    disconnect(.notGPSD(server, "nothing, in reply to WATCH"))
                    continue
                }
                let waitUntil = watching ? wakeUp : min(wakeUp, connectedAt + Self.watchReplyTimeout)
                switch open.waitForInput(timeout: max(.zero, waitUntil - now())) {
                case .readable: break
                case .timedOut: continue
                case .failed(let error):
                    disconnect(.connectionLost(server, error))
                    continue
                }
                switch open.read() {
                case .report(let fix, let hasCourse):
                    backoff.succeeded()
                    emit(assembler.receive(fix, hasCourse: hasCourse, now: now()))
                case .watching:
                    backoff.succeeded()
                    if !watching {
                        watching = true
                        emit([.connected(server)])
                    }
                case .other:
                    break
                case .garbage(let sample):
                    // Not gpsd: hang up and retry later rather than parse noise forever.
                    disconnect(.notGPSD(server, sample))
                case .incomplete:
                    open.waitForMoreBytes(timeout: Self.partialLineWait)
                case .closed(let errno):
                    disconnect(.connectionLost(server, errno))
                }
            }
        }
    }
}
