import IMU
import SystemSupport

/// Finds and opens the IMU on its bus, and while there is none, tries again after 1 s, 2 s, 4 s …
/// 30 s, so that a loose cable, the wrong bus or a board that powers up late costs guidance, not
/// the daemon: it stays up, pets its watchdog, serves `status` with the problem, and picks the
/// chips up once they answer.
///
/// The bus is whatever the daemon was given: `/dev/i2c-N`, or the simulated board's. With
/// `imu auto` the chips are detected on it; otherwise the configured board or chips are used.
///
/// The log gets the first failure, the same one again every ``repeatInterval`` with the number
/// of attempts, a changed reason at once, and the chips found.
struct IMUAcquisition {
    /// How often an unchanged reason is logged again while the IMU stays missing.
    static let repeatInterval = Duration.seconds(300)

    let bus: any I2CBus
    let configuration: Configuration
    let logger: Logger
    private var backoff = Backoff<Duration>(first: .seconds(1), longest: .seconds(30))
    /// When to try next, on the daemon's clock.
    private(set) var nextAttempt: ScaledClock.Instant
    /// Why the last attempt found no usable IMU; nil before the first and after success.
    private(set) var problem: String?
    /// The chips found, for `status`; nil until they are.
    private(set) var chips: String?
    private var lastLogged: (reason: String, at: ScaledClock.Instant)?

    init(bus: any I2CBus, configuration: Configuration, logger: Logger, now: ScaledClock.Instant) {
        self.bus = bus
        self.configuration = configuration
        self.logger = logger
        nextAttempt = now
    }

    /// Tries to open the IMU, if an attempt is due.
    ///
    /// - Returns: The reader, configured and answering; nil when none was found (``problem``
    ///   says why, ``nextAttempt`` when to try again) or no attempt was due.
    mutating func attempt(at now: ScaledClock.Instant) -> IMUReader? {
        guard now >= nextAttempt else { return nil }
        switch open() {
        case .success(let (reader, selection)):
            backoff.succeeded()
            problem = nil
            chips = "\(selection)"
            lastLogged = nil
            logger.notice(
                "imu in use",
                ["magnetometer": "\(selection.magnetometer)", "accelerometer": "\(selection.accelerometer)",
                 "board": selection.boardName ?? "chips as configured"])
            return reader
        case .failure(let missing):
            let reason = missing.reason
            let wait = backoff.failed()
            nextAttempt = now.advanced(by: wait)
            problem = reason
            if lastLogged?.reason != reason || (lastLogged.map { $0.at.duration(to: now) } ?? .zero) >= Self.repeatInterval {
                logger.error(
                    "no usable IMU; trying again", ["reason": reason, "attempts": "\(backoff.failures)",
                     "next.seconds": "\(wait.components.seconds)"])
                lastLogged = (reason, now)
            }
            return nil
        }
    }

    /// Why an attempt found no IMU, in words.
    private struct Missing: Error {
        var reason: String
    }

    /// One attempt: detection where the configuration asks for it, then both chips configured.
    private func open() -> Result<(IMUReader, IMUSelection), Missing> {
        var detected: IMUSelection?
        var report = ""
        if case .auto = configuration.imu {
            let result = IMUDetector(bus: bus).detect()
            detected = result.selection
            report = result.problem ?? "no usable pair of chips on i2c-\(bus.number)"
        }
        guard let selection = configuration.imuSelection(detected: detected) else { return .failure(Missing(reason: report)) }
        do throws(I2CError) {
            let reader = try IMUReader(selection: selection, bus: bus)
            try reader.start()
            return .success((reader, selection))
        } catch {
            return .failure(Missing(reason: "\(error)"))
        }
    }
}
