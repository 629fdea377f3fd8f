/// What `waypointd check` concluded about one item (the configuration, gpsd, the I2C bus, the
/// IMU, the PWM channel, the state directory): one line a person can act on.
///
/// ```
/// ok    gpsd      127.0.0.1:2947, 3D fix (±4 m)
/// FAIL  i2c       /dev/i2c-1 does not exist — add dtparam=i2c_arm=on to /boot/firmware/config.txt and reboot
/// ```
public struct HealthVerdict: Sendable, Hashable, CustomStringConvertible {
    /// How the item fared.
    public enum Outcome: String, Sendable, Hashable {
        /// Works.
        case ok = "ok"
        /// Works, but the daemon will not guide yet (e.g. gpsd answers without a fix).
        case warning = "warn"
        /// Broken: the daemon will not start or not work until it is fixed.
        case failed = "FAIL"
        /// Not checked, because an item it depends on failed.
        case skipped = "--"
    }

    /// The item's short name: `config`, `state`, `pwm`, `i2c`, `imu`, `gpsd`.
    public var item: String
    /// How it fared.
    public var outcome: Outcome
    /// What was found, e.g. `/dev/i2c-1 does not exist`.
    public var detail: String
    /// What to do about it: the config.txt line, the group, the unit directive. Nil when there
    /// is nothing to do.
    public var fix: String?
    /// Further lines shown under the verdict (every problem of a bad config file, the IMU scan).
    public var notes: [String]

    /// A verdict from its parts.
    public init(item: String, outcome: Outcome, detail: String, fix: String? = nil, notes: [String] = []) {
        self.item = item
        self.outcome = outcome
        self.detail = detail
        self.fix = fix
        self.notes = notes
    }

    /// Width of the outcome column, and of the item column, so the details line up.
    static let outcomeWidth = 6
    static let itemWidth = 10

    /// The verdict line, `outcome item detail — fix`, then each note on a line of its own,
    /// indented to the detail column.
    public var description: String {
        let line =
            Self.padded(outcome.rawValue, Self.outcomeWidth) + Self.padded(item, Self.itemWidth) + detail
            + (fix.map { " — \($0)" } ?? "")
        let indent = String(repeating: " ", count: Self.outcomeWidth + Self.itemWidth)
        return ([line] + notes.map { indent + $0 }).joined(separator: "\n")
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
