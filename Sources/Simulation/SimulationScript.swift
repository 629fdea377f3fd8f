import ControlProtocol
/// What happens to a simulated run, and when: the GPS going quiet, a magnet coming close. It
/// lets `make demo` and the end-to-end tests show what the wearer feels when the world
/// misbehaves. One event a line, `#` starts a comment:
///
/// ```
/// 12 gps-off      # the receiver stops reporting, as when gpsd or the antenna is gone
/// 20 gps-on
/// 28 magnet 15    # a magnet next to the device adds 15 µT, fixed to the body (pointing down)
/// 34 magnet 0
/// 40 imu-off      # the IMU board stops answering on the I2C bus (a loose cable)
/// 46 imu-on
/// 50 stall 2      # the sampling thread is held up 2 s, as a stalled SD card or bus would
/// 60 turn -90 45  # the wearer turns 90° anticlockwise at 45 °/s, on the spot
/// ```
///
/// From the first `turn` on, the wearer stands where they are and turns only as scripted (no
/// more scanning for the destination or walking to it): `waypoint-bench latency` times the
/// motor's answer to turns it knows to the step.
///
/// An event at time 0 happens before anything reads the board: `0 imu-off` is a daemon that
/// starts without an IMU.
///
/// Times are seconds since the simulated sensors started.
public struct SimulationScript: Sendable, Hashable {
    /// The largest events file read, in bytes: a script is a few lines, and the bound keeps a
    /// wrong path from filling memory.
    public static let maximumFileBytes = 1 << 20

    /// One change to the simulated world.
    public enum Event: Sendable, Hashable, CustomStringConvertible {
        /// Fixes are reported (true) or not at all (false).
        case gps(on: Bool)
        /// A field fixed to the body frame, along +z, microtesla; 0 removes it.
        case magnet(microtesla: Double)
        /// The IMU board answers on its bus (true) or not at all (false).
        case imu(on: Bool)
        /// The thread that samples (and pets the watchdog) is held up this long, seconds.
        case stall(seconds: Double)
        /// The wearer turns on the spot by this many degrees (clockwise positive) at this rate.
        case turn(degrees: Double, degreesPerSecond: Double)
        /// The walker is pushed this many metres to their right, off the path (a walk is then
        /// planned again).
        case stray(meters: Double)
        /// The wearer presses the button: the gesture's presses and releases, ending now.
        case press(ButtonGesture)

        public var description: String {
            switch self {
            case .gps(let on): "gps-\(on ? "on" : "off")"
            case .magnet(let microtesla): "magnet \(microtesla) µT"
            case .imu(let on): "imu-\(on ? "on" : "off")"
            case .stall(let seconds): "stall \(seconds) s"
            case .turn(let degrees, let rate): "turn \(degrees)° at \(rate) °/s"
            case .stray(let meters): "stray \(meters) m"
            case .press(let gesture): "press \(gesture.rawValue)"
            }
        }
    }

    /// An event and its time.
    public struct Entry: Sendable, Hashable {
        /// Seconds since the start.
        public var seconds: Double
        /// What happens.
        public var event: Event
    }

    /// The events, in time order (lines with the same time keep their order).
    public private(set) var entries: [Entry]

    /// Reads a script.
    ///
    /// - Parameter text: The script's lines.
    /// - Throws: ``SimulationScriptError`` naming the first bad line.
    public init(parsing text: String) throws(SimulationScriptError) {
        entries = []
        // By newline characters, not "\n" alone: to Swift "\r\n" is one character, and a script
        // written on Windows would otherwise be one long line.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let first = words.first else { continue }
            func fail(_ message: String) -> SimulationScriptError { SimulationScriptError(line: index + 1, message: message) }
            guard let seconds = Double(first), seconds.isFinite, seconds >= 0 else {
                throw fail("'\(first)' is not a time in seconds (0 or more)")
            }
            guard words.count >= 2 else { throw fail("an event must follow the time: \(Self.eventSyntax)") }
            let event: Event
            switch (words[1], words.count) {
            case ("gps-off", 2): event = .gps(on: false)
            case ("gps-on", 2): event = .gps(on: true)
            case ("imu-off", 2): event = .imu(on: false)
            case ("imu-on", 2): event = .imu(on: true)
            case ("magnet", 3):
                guard let microtesla = Double(words[2]), microtesla.isFinite, abs(microtesla) <= 1000 else {
                    throw fail("'\(words[2])' is not a field in microtesla (at most 1000)")
                }
                event = .magnet(microtesla: microtesla)
            case ("stall", 3):
                guard let seconds = Double(words[2]), seconds.isFinite, seconds > 0, seconds <= 600 else {
                    throw fail("'\(words[2])' is not a stall in seconds (more than 0, at most 600)")
                }
                event = .stall(seconds: seconds)
            case ("turn", 4):
                guard let degrees = Double(words[2]), degrees.isFinite, abs(degrees) <= 3600 else {
                    throw fail("'\(words[2])' is not a turn in degrees (at most 3600 either way)")
                }
                guard let rate = Double(words[3]), rate.isFinite, rate > 0, rate <= 1000 else {
                    throw fail("'\(words[3])' is not a turn rate in degrees a second (more than 0, at most 1000)")
                }
                event = .turn(degrees: degrees, degreesPerSecond: rate)
            case ("stray", 3):
                guard let meters = Double(words[2]), meters.isFinite, meters > 0, meters <= 1000 else {
                    throw fail("'\(words[2])' is not a distance in metres (more than 0, at most 1000)")
                }
                event = .stray(meters: meters)
            case ("press", 3):
                guard let gesture = ButtonGesture(rawValue: String(words[2])) else {
                    throw fail("'\(words[2])' is not a gesture: \(ButtonGesture.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                event = .press(gesture)
            default:
                throw fail("'\(words[1...].joined(separator: " "))' is not an event: \(Self.eventSyntax)")
            }
            entries.append(Entry(seconds: seconds, event: event))
        }
        // A stable sort: events written for the same second happen in the order written.
        entries = entries.enumerated().sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }.map(\.element)
    }

    /// The events a line may name, for errors.
    private static let eventSyntax =
        "gps-off, gps-on, magnet MICROTESLA, imu-off, imu-on, stall SECONDS, turn DEGREES DEGREES_PER_SECOND, stray METRES or press GESTURE"

    /// The events due after `start` and up to `end`, seconds, in order.
    public func events(after start: Double, through end: Double) -> [Event] {
        entries.filter { $0.seconds > start && $0.seconds <= end }.map(\.event)
    }
}
