import IMU
import Simulation
import SystemSupport

/// Finds and opens the IMU, and while there is none, tries again after 1 s, 2 s, 4 s … 30 s, so
/// that a loose cable, the wrong bus or a board that powers up late costs guidance, not the
/// daemon: it stays up, pets its watchdog, serves `status` with the problem, and picks the
/// chips up once they answer.
///
/// The log gets the first failure, the same one again every ``repeatInterval`` with the number
/// of attempts, a changed reason at once, and the chips found.
struct IMUAcquisition {
    /// Where the chips are.
    enum Source {
        /// The simulated board (`--simulate`), behind its simulated bus.
        case simulated(SimulatedBoard)
        /// `/dev/i2c-N`.
        case linux(bus: Int)
    }

    /// How often an unchanged reason is logged again while the IMU stays missing.
    static let repeatInterval = Duration.seconds(300)

    let source: Source
    let configuration: Configuration
    let logger: Logger
    private var backoff = Backoff(first: .seconds(1), longest: .seconds(30))
    /// When to try next.
    private(set) var nextAttempt = ContinuousClock.now
    /// Why the last attempt found no usable IMU; nil before the first and after success.
    private(set) var problem: String?
    /// The chips found, for `status`; nil until they are.
    private(set) var chips: String?
    private var lastLogged: (reason: String, at: ContinuousClock.Instant)?

    init(source: Source, configuration: Configuration, logger: Logger) {
        self.source = source
        self.configuration = configuration
        self.logger = logger
    }

    /// Tries to open the IMU, if an attempt is due.
    ///
    /// - Returns: The reader, configured and answering; nil when none was found (``problem``
    ///   says why, ``nextAttempt`` when to try again) or no attempt was due.
    mutating func attempt(at now: ContinuousClock.Instant = .now) -> IMUReader? {
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
            if lastLogged?.reason != reason || now - (lastLogged?.at ?? now) >= Self.repeatInterval {
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
        let bus: any I2CBus
        let selection: IMUSelection
        switch source {
        case .simulated(let board):
            bus = board.bus
            selection = board.selection
        case .linux(let number):
            let linuxBus = LinuxI2CBus(number: number)
            bus = linuxBus
            let detected: IMUSelection?
            var report = ""
            if case .auto = configuration.imu {
                let result = IMUDetector(bus: linuxBus).detect()
                detected = result.selection
                report = result.problem ?? "no usable pair of chips on \(linuxBus.path)"
            } else {
                detected = nil
            }
            guard let configured = configuration.imuSelection(detected: detected) else {
                return .failure(Missing(reason: report))
            }
            selection = configured
        }
        do throws(I2CError) {
            let reader = try IMUReader(selection: selection, bus: bus)
            try reader.start()
            return .success((reader, selection))
        } catch {
            return .failure(Missing(reason: "\(error)"))
        }
    }
}
