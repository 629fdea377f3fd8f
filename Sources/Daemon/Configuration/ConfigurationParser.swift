import ButtonInput
import CommandLineSupport
import GPSClient
import Guidance
import Haptics
import IMU

/// Reads the config file format into a `Configuration`, strictly: pure, no IO.
///
/// Format (DESIGN.md §4): one `key value` a line; `#` starts a comment on a line of its own or
/// after whitespace (a `#` inside a value, as in `a#b`, is part of it); blank lines are ignored.
/// Keys are lowercase with hyphens and may appear at most once; a key left out keeps its
/// default. The value is the rest of the line, trimmed. Numbers are plain decimals (`12`,
/// `-3.5`, `0.25`): no NaN, infinity, hex or exponent, so a value reads the same to a person
/// and to the daemon.
///
/// Every problem in the file is reported, each as `file:line: message`, not just the first,
/// so one edit fixes them all. `config/waypointd.conf` documents every key.
public enum ConfigurationParser {
    /// Parses a whole config file.
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - fileName: the name problems are reported against, usually the path.
    /// - Returns: the configuration, with the default for every key the text leaves out.
    /// - Throws: `ConfigurationError.invalid` with every problem, in line order.
    public static func parse(_ text: String, fileName: String) throws(ConfigurationError) -> Configuration {
        var configuration = Configuration()
        var problems: [ConfigurationError.Problem] = []
        // The line each key was set on, for duplicates and for placing cross-check problems.
        var lineOfKey: [String: Int] = [:]
        // Keys whose value was rejected: cross-checks against their default would only confuse.
        var rejectedKeys: Set<String> = []

        let body = ConfigurationLine.body(of: text)
        for (index, line) in body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let lineNumber = index + 1
            guard let entry = ConfigurationLine.entry(in: line) else { continue }
            let name = String(entry.key)
            func report(_ kind: ConfigurationError.Kind) {
                problems.append(ConfigurationError.Problem(file: fileName, line: lineNumber, kind: kind))
            }
            guard let key = keysByName[name] else {
                report(.unknownKey(name, suggestion: suggestion(for: name)))
                continue
            }
            if let firstLine = lineOfKey[name] {
                report(.duplicateKey(name, firstLine: firstLine))
                continue
            }
            lineOfKey[name] = lineNumber
            guard let value = entry.value else {
                report(.missingValue(key: name, expected: key.expected))
                rejectedKeys.insert(name)
                continue
            }
            do {
                try key.apply(String(value), &configuration)
            } catch {
                report(error.kind)
                rejectedKeys.insert(name)
            }
        }

        for check in orderChecks where !rejectedKeys.contains(check.lower) && !rejectedKeys.contains(check.upper) {
            guard let lower = keysByName[check.lower], let upper = keysByName[check.upper] else {
                preconditionFailure("cross-check names a key the parser does not know")
            }
            let lowerValue = configuration[keyPath: check.lowerProperty]
            let upperValue = configuration[keyPath: check.upperProperty]
            guard lowerValue > upperValue else { continue }
            func written(_ key: Key) -> String {
                "\(key.name) \(key.format(configuration))" + (lineOfKey[key.name] == nil ? " (default)" : "")
            }
            // The later of the two lines: the one most likely just edited. The defaults satisfy
            // every check, so at least one of the keys was set.
            let line = [lineOfKey[check.lower], lineOfKey[check.upper]].compactMap { $0 }.max() ?? 0
            problems.append(
                ConfigurationError.Problem(
                    file: fileName, line: line,
                    kind: .inconsistent("\(written(lower)) must not exceed \(written(upper))")
                ))
        }

        guard problems.isEmpty else {
            let ordered = problems.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
            throw .invalid(ordered.map(\.element))
        }
        return configuration
    }

    /// Every key the parser knows, in the order `printed` lists them.
    public static var keyNames: [String] { keys.map(\.name) }

    /// The configuration as a config file, every key set: what `Configuration.printed` returns.
    static func format(_ configuration: Configuration) -> String {
        var lines = ["# waypointd: the effective configuration (waypointd --print-config)."]
        for section in sections {
            lines.append("")
            lines.append("# \(section.title)")
            for key in section.keys {
                lines.append("\(key.name) \(key.format(configuration))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Keys

    /// One key: its name, what it accepts, how it sets the configuration and how it is written.
    struct Key: Sendable {
        /// The key as written in the file.
        let name: String
        /// What the value should be, for "missing value" messages: `a number from 1 to 179`.
        let expected: String
        /// Parses `text` into the configuration.
        let apply: @Sendable (_ text: String, _ configuration: inout Configuration) throws(ValueError) -> Void
        /// The configuration's value, as the parser reads it back.
        let format: @Sendable (_ configuration: Configuration) -> String
    }

    /// A rejected value.
    struct ValueError: Error {
        let kind: ConfigurationError.Kind
    }

    /// Keys grouped as the example file and `--print-config` show them.
    struct Section: Sendable {
        let title: String
        let keys: [Key]
    }

    /// Two keys whose values must be in order (`lower` ≤ `upper`).
    struct OrderCheck: Sendable {
        let lower: String
        let lowerProperty: KeyPath<Configuration, Double> & Sendable
        let upper: String
        let upperProperty: KeyPath<Configuration, Double> & Sendable
    }

    /// An inclusive range of numbers, or one whose lower bound is excluded.
    struct NumberRange: Sendable, CustomStringConvertible {
        let lower: Double
        let upper: Double
        var excludesLower = false

        func contains(_ value: Double) -> Bool {
            (excludesLower ? value > lower : value >= lower) && value <= upper
        }

        /// `1 to 179`, or `greater than 0 and at most 10`.
        var description: String {
            excludesLower
                ? "greater than \(formatNumber(lower)) and at most \(formatNumber(upper))"
                : "\(formatNumber(lower)) to \(formatNumber(upper))"
        }

        /// `from 1 to 179`, or `greater than 0 and at most 10`.
        var phrase: String { excludesLower ? description : "from \(description)" }
    }

    /// A UNIX socket's path must fit `sun_path` (108 bytes on Linux) with its terminating NUL.
    static let maximumSocketPathBytes = 107
    private static let onOffWords = ["on": true, "off": false]

    static let sections: [Section] = [
        Section(
            title: "GPS",
            keys: [
                key(
                    "gpsd", \.gpsdAddress, expected: "HOST or HOST:PORT, e.g. 127.0.0.1:2947",
                    parse: parseGPSServer, format: \.description),
                decimal("fix-timeout-seconds", \.fixTimeoutSeconds, NumberRange(lower: 1, upper: 60)),
                decimal("max-position-error-meters", \.maximumPositionErrorMeters, NumberRange(lower: 1, upper: 1000)),
            ]),
        Section(
            title: "IMU",
            keys: [
                integer("i2c-bus", \.i2cBus, 0...255),
                key(
                    "imu", \.imu, expected: "auto, a board preset or a magnetometer and an accelerometer chip",
                    parse: parseIMU, format: formatIMU),
                decimal("sample-rate-hz", \.sampleRateHertz, NumberRange(lower: 10, upper: 200)),
                chipAxisMap("magnetometer-axis-map", \.magnetometerAxisMap),
                chipAxisMap("accelerometer-axis-map", \.accelerometerAxisMap),
                key(
                    "axis-remap", \.axisRemap, expected: "an axis map such as x,-y,-z",
                    parse: { text throws(ValueError) in try parseAxisMap(text, key: "axis-remap") },
                    format: \.description),
            ]),
        Section(
            title: "Heading",
            keys: [
                decimal("mount-offset-degrees", \.mountOffsetDegrees, NumberRange(lower: -180, upper: 180)),
                decimal("max-coasting-seconds", \.maximumCoastingSeconds, NumberRange(lower: 0, upper: 3600)),
                key(
                    "declination", \.declination, expected: "auto or degrees east from -180 to 180",
                    parse: parseDeclination, format: formatDeclination),
                onOff("course-assist", \.courseAssistEnabled),
            ]),
        Section(
            title: "Motor",
            keys: [
                key(
                    "pwm-chip", \.pwmChip, expected: "auto, pwmchipN or a device name such as 1f00098000.pwm",
                    parse: parsePWMChip, format: \.description),
                integer("pwm-channel", \.pwmChannel, 0...255),
                decimal("pwm-frequency-hz", \.pwmFrequencyHertz, NumberRange(lower: 100, upper: 100_000)),
                decimal("motor-start-duty", \.motorStartDuty, fraction),
                decimal("motor-floor-duty", \.motorFloorDuty, fraction),
                decimal("motor-rated-duty", \.motorRatedDuty, fraction),
                decimal("motor-maximum-duty", \.motorMaximumDuty, fraction),
                decimal("kick-length-ms", \.kickLengthMilliseconds, NumberRange(lower: 0, upper: 200)),
                decimal("heartbeat-after-seconds", \.heartbeatAfterSeconds, NumberRange(lower: 1, upper: 600)),
                decimal("heartbeat-interval-seconds", \.heartbeatIntervalSeconds, NumberRange(lower: 0.5, upper: 60)),
            ]),
        Section(
            title: "Guidance",
            keys: [
                decimal("zone-degrees", \.zoneDegrees, NumberRange(lower: 1, upper: 179)),
                decimal("intensity-at-center", \.intensityAtCenter, fraction),
                decimal("intensity-at-edge", \.intensityAtEdge, fraction),
                decimal("sharpness-at-center", \.sharpnessAtCenter, fraction),
                decimal("sharpness-at-edge", \.sharpnessAtEdge, fraction),
                decimal("curve-exponent", \.curveExponent, NumberRange(lower: 0, upper: 10, excludesLower: true)),
                choice("feedback-mode", \.feedbackMode),
                decimal("arrival-radius-meters", \.arrivalRadiusMeters, NumberRange(lower: 1, upper: 1000)),
                decimal("warning-interval-seconds", \.warningIntervalSeconds, NumberRange(lower: 1, upper: 3600)),
                choice("walk", \.walk),
            ]),
        Section(
            title: "Button and voice",
            keys: [
                key(
                    "button", \.buttonDevices, expected: "none, or input devices (paths or name:NAME) separated by commas",
                    parse: parseButtonDevices, format: { $0.isEmpty ? "none" : $0.joined(separator: ", ") }),
                key(
                    "button-keys", \.buttonKeys, expected: "key names (KEY_ENTER) or codes separated by commas",
                    parse: parseButtonKeys, format: { $0.map(KeyCode.name).joined(separator: ", ") }),
                onOff("button-grab", \.buttonGrab),
                decimal("button-long-seconds", \.buttonLongSeconds, NumberRange(lower: 0.3, upper: 5)),
                decimal("button-very-long-seconds", \.buttonVeryLongSeconds, NumberRange(lower: 1, upper: 20)),
                decimal("button-gap-seconds", \.buttonGapSeconds, NumberRange(lower: 0.1, upper: 2)),
                decimal("button-debounce-ms", \.buttonDebounceMilliseconds, NumberRange(lower: 0, upper: 200)),
                key(
                    "speech", \.speech, expected: "none, or a command that speaks its standard input",
                    parse: { text throws(ValueError) in text == "none" ? nil : text }, format: { $0 ?? "none" }),
            ]),
        Section(
            title: "Daemon",
            keys: [
                path("socket", \.socketPath, maximumBytes: maximumSocketPathBytes),
                path("state-dir", \.stateDirectory),
                choice("log-level", \.logLevel),
            ]),
    ]

    /// Duties, intensities and sharpnesses.
    private static var fraction: NumberRange { NumberRange(lower: 0, upper: 1) }

    /// The motor's duties must be ordered: floor ≤ rated ≤ maximum, and start ≤ maximum
    /// (MotorSettings; the renderer clamps between them).
    static let orderChecks: [OrderCheck] = [
        OrderCheck(
            lower: "motor-floor-duty", lowerProperty: \.motorFloorDuty, upper: "motor-rated-duty",
            upperProperty: \.motorRatedDuty),
        OrderCheck(
            lower: "motor-rated-duty", lowerProperty: \.motorRatedDuty, upper: "motor-maximum-duty",
            upperProperty: \.motorMaximumDuty),
        OrderCheck(
            lower: "motor-start-duty", lowerProperty: \.motorStartDuty, upper: "motor-maximum-duty",
            upperProperty: \.motorMaximumDuty),
        // A very long press is a long press held on: it cannot end before one.
        OrderCheck(
            lower: "button-long-seconds", lowerProperty: \.buttonLongSeconds, upper: "button-very-long-seconds",
            upperProperty: \.buttonVeryLongSeconds),
    ]

    static let keys: [Key] = sections.flatMap(\.keys)
    private static let keysByName: [String: Key] = Dictionary(uniqueKeysWithValues: keys.map { ($0.name, $0) })

    // MARK: - Key builders

    private static func key<Value>(
        _ name: String, _ property: WritableKeyPath<Configuration, Value> & Sendable, expected: String,
        parse: @escaping @Sendable (_ text: String) throws(ValueError) -> Value,
        format: @escaping @Sendable (_ value: Value) -> String
    ) -> Key {
        Key(
            name: name, expected: expected,
            apply: { text, configuration throws(ValueError) in configuration[keyPath: property] = try parse(text) },
            format: { configuration in format(configuration[keyPath: property]) })
    }

    private static func decimal(
        _ name: String, _ property: WritableKeyPath<Configuration, Double> & Sendable, _ range: NumberRange
    ) -> Key {
        key(
            name, property, expected: "a number \(range.phrase)",
            parse: { text throws(ValueError) in try number(text, key: name, range: range) }, format: formatNumber)
    }

    private static func onOff(_ name: String, _ property: WritableKeyPath<Configuration, Bool> & Sendable) -> Key {
        key(
            name, property, expected: "on or off",
            parse: { text throws(ValueError) in
                guard let value = onOffWords[text] else {
                    throw ValueError(kind: .badValue(key: name, text: text, reason: "expected on or off"))
                }
                return value
            },
            format: { $0 ? "on" : "off" })
    }

    private static func integer(
        _ name: String, _ property: WritableKeyPath<Configuration, Int> & Sendable, _ range: ClosedRange<Int>
    ) -> Key {
        let allowed = "\(range.lowerBound) to \(range.upperBound)"
        return key(
            name, property, expected: "a whole number from \(allowed)",
            parse: { text throws(ValueError) in
                guard isPlainDecimal(text, allowingFraction: false) else {
                    throw ValueError(
                        kind: .notANumber(key: name, text: text, expected: "a whole number", allowed: allowed))
                }
                // Digits too many for an Int are out of range too.
                guard let value = Int(text), range.contains(value) else {
                    throw ValueError(kind: .outOfRange(key: name, text: text, allowed: allowed))
                }
                return value
            },
            format: { String($0) })
    }

    private static func choice<Value: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ property: WritableKeyPath<Configuration, Value> & Sendable
    ) -> Key where Value.RawValue == String {
        let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
        return key(
            name, property, expected: "one of: \(names)",
            parse: { text throws(ValueError) in
                guard let value = Value(rawValue: text) else {
                    let guess = EditDistance.didYouMean(
                        EditDistance.suggestions(for: text, among: Value.allCases.map(\.rawValue)))
                    throw ValueError(
                        kind: .badValue(key: name, text: text, reason: "expected one of: \(names)" + (guess.map { "; \($0)" } ?? "")))
                }
                return value
            },
            format: \.rawValue)
    }

    private static func chipAxisMap(
        _ name: String, _ property: WritableKeyPath<Configuration, AxisMap?> & Sendable
    ) -> Key {
        key(
            name, property, expected: "auto or an axis map such as x,-y,-z",
            parse: { text throws(ValueError) in text == "auto" ? nil : try parseAxisMap(text, key: name) },
            format: { $0?.description ?? "auto" })
    }

    private static func path(
        _ name: String, _ property: WritableKeyPath<Configuration, String> & Sendable, maximumBytes: Int? = nil
    ) -> Key {
        key(
            name, property, expected: "an absolute path",
            parse: { text throws(ValueError) in
                guard text.hasPrefix("/") else {
                    throw ValueError(kind: .badValue(key: name, text: text, reason: "expected an absolute path"))
                }
                if let maximumBytes, text.utf8.count > maximumBytes {
                    throw ValueError(
                        kind: .badValue(
                            key: name, text: text,
                            reason: "longer than the \(maximumBytes) bytes a UNIX socket path can have"))
                }
                return text
            },
            format: { $0 })
    }

    // MARK: - Values

    /// A plain decimal in `range`.
    static func number(_ text: String, key: String, range: NumberRange) throws(ValueError) -> Double {
        // Double(_:) alone would take "nan", "inf", "0x1p3" and "1e3".
        guard isPlainDecimal(text, allowingFraction: true), let value = Double(text), value.isFinite else {
            throw ValueError(
                kind: .notANumber(key: key, text: text, expected: "a plain decimal number", allowed: range.description))
        }
        guard range.contains(value) else {
            throw ValueError(kind: .outOfRange(key: key, text: text, allowed: range.description))
        }
        return value
    }

    /// An optional sign, then digits, with at most one decimal point when `allowingFraction`.
    static func isPlainDecimal(_ text: String, allowingFraction: Bool) -> Bool {
        var rest = Substring(text)
        if let sign = rest.first, sign == "-" || sign == "+" { rest = rest.dropFirst() }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 1 || allowingFraction else { return false }
        let isDigit: (Character) -> Bool = { $0 >= "0" && $0 <= "9" }
        return parts.allSatisfy { $0.allSatisfy(isDigit) } && parts.contains { !$0.isEmpty }
    }

    /// `value` as a plain decimal that reads back to exactly `value`: the shortest round-trip
    /// digits Swift prints, with any exponent written out (1e-05 → 0.00001).
    static func formatNumber(_ value: Double) -> String {
        if value == value.rounded(), value.magnitude < largestPlainInteger {
            return String(Int64(value))
        }
        let text = "\(value)"
        guard let exponentIndex = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
            let exponent = Int(text[text.index(after: exponentIndex)...])
        else { return text }
        var mantissa = Substring(text[..<exponentIndex])
        let sign = mantissa.hasPrefix("-") ? "-" : ""
        if !sign.isEmpty { mantissa = mantissa.dropFirst() }
        let pointOffset = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) }
        let digits = mantissa.filter { $0 != "." }
        let point = (pointOffset ?? digits.count) + exponent
        if point <= 0 {
            return sign + "0." + String(repeating: "0", count: -point) + digits
        } else if point >= digits.count {
            return sign + digits + String(repeating: "0", count: point - digits.count)
        }
        let split = digits.index(digits.startIndex, offsetBy: point)
        return sign + digits[..<split] + "." + digits[split...]
    }

    /// Integral values below this print without a fraction; above it Int64 could overflow.
    private static let largestPlainInteger = 1e15

    /// The most button devices: a GPIO button, a headset, a remote and a keypad, twice over.
    static let maximumButtonDevices = 8

    @Sendable private static func parseButtonDevices(_ text: String) throws(ValueError) -> [String] {
        guard text != "none" else { return [] }
        let devices = text.split(separator: ",").map { String(ConfigurationLine.trimmingWhitespace($0)) }
        for device in devices where !device.hasPrefix("/") && !(device.hasPrefix("name:") && device.count > 5) {
            throw ValueError(kind: .badValue(key: "button", text: text, reason: "'\(device)' is neither an absolute path nor name:NAME"))
        }
        guard !devices.isEmpty, devices.count <= maximumButtonDevices else {
            throw ValueError(kind: .badValue(key: "button", text: text, reason: "expected 1 to \(maximumButtonDevices) devices, or none"))
        }
        return devices
    }

    @Sendable private static func parseButtonKeys(_ text: String) throws(ValueError) -> [UInt16] {
        let words = text.split(separator: ",").map { String(ConfigurationLine.trimmingWhitespace($0)) }
        var codes: [UInt16] = []
        for word in words {
            guard let code = KeyCode.code(word) else {
                let guess = EditDistance.didYouMean(EditDistance.suggestions(for: word.uppercased(), among: KeyCode.names.map(\.name)))
                throw ValueError(
                    kind: .badValue(
                        key: "button-keys", text: text,
                        reason: "'\(word)' is not a key name or a code up to \(KeyCode.maximum)" + (guess.map { "; \($0)" } ?? "")))
            }
            if !codes.contains(code) { codes.append(code) }
        }
        guard !codes.isEmpty, codes.count <= KeyCode.names.count * 2 else {
            throw ValueError(kind: .badValue(key: "button-keys", text: text, reason: "expected 1 to \(KeyCode.names.count * 2) keys"))
        }
        return codes
    }

    @Sendable private static func parseGPSServer(_ text: String) throws(ValueError) -> GPSServerAddress {
        do {
            return try GPSServerAddress(parsing: text)
        } catch {
            switch error {
            case .malformed(_, let reason): throw ValueError(kind: .badValue(key: "gpsd", text: text, reason: reason))
            }
        }
    }

    @Sendable private static func parseAxisMap(_ text: String, key: String) throws(ValueError) -> AxisMap {
        do {
            return try AxisMap(parsing: text)
        } catch {
            let reason =
                switch error {
                case .wrongTermCount(_, let count):
                    "expected three comma-separated terms for body x, y, z (e.g. x,-y,-z), found \(count)"
                case .unknownTerm(_, let term):
                    "'\(term)' is not an axis; use x, y or z, optionally with - or +"
                case .repeatedAxis(_, let axis):
                    "chip axis \(axis) is used more than once; each of x, y, z must appear exactly once"
                }
            throw ValueError(kind: .badValue(key: key, text: text, reason: reason))
        }
    }

    @Sendable private static func parseDeclination(_ text: String) throws(ValueError) -> Configuration.Declination {
        if text == "auto" { return .model }
        let range = NumberRange(lower: -180, upper: 180)
        do {
            return .fixed(degrees: try number(text, key: "declination", range: range))
        } catch {
            guard case .notANumber = error.kind else { throw error }
            throw ValueError(
                kind: .notANumber(
                    key: "declination", text: text, expected: "auto or a plain decimal number",
                    allowed: range.description))
        }
    }

    @Sendable private static func formatDeclination(_ declination: Configuration.Declination) -> String {
        switch declination {
        case .model: "auto"
        case .fixed(let degrees): formatNumber(degrees)
        }
    }

    @Sendable private static func parsePWMChip(_ text: String) throws(ValueError) -> SysfsPWMChannel.Chip {
        func bad(_ reason: String) -> ValueError {
            ValueError(kind: .badValue(key: "pwm-chip", text: text, reason: reason))
        }
        // The name becomes part of a sysfs path, so it must stay one path component.
        guard !text.contains("/"), !text.contains(where: \.isWhitespace), text != ".", text != ".." else {
            throw bad("expected auto, pwmchipN or a device name such as 1f00098000.pwm (one name, no '/')")
        }
        let number = text.dropFirst(numberedChipPrefix.count)
        if text.hasPrefix(numberedChipPrefix), number.isEmpty || !number.allSatisfy({ $0 >= "0" && $0 <= "9" }) {
            throw bad("expected pwmchip followed by the chip's number, e.g. pwmchip0")
        }
        return SysfsPWMChannel.Chip(parsing: text)
    }

    /// How the kernel names PWM controllers in /sys/class/pwm.
    private static let numberedChipPrefix = "pwmchip"

    // MARK: IMU

    @Sendable private static func parseIMU(_ text: String) throws(ValueError) -> Configuration.IMU {
        func bad(_ reason: String) -> ValueError { ValueError(kind: .badValue(key: "imu", text: text, reason: reason)) }
        let example = "e.g. 'lis3mdl lsm6dsl' or 'hmc5883l@0x1E lsm6dsl@0x6B'"
        if text == "auto" { return .auto }
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        if words.count == 1, let preset = BoardPreset.named(text) { return .preset(preset) }
        if words.count == 1, IMUChip(rawValue: chipName(of: text)) == nil {
            let presets = BoardPreset.all.map(\.identifier)
            let guess = EditDistance.didYouMean(
                EditDistance.suggestions(for: text, among: ["auto"] + presets + IMUChip.allCases.map(\.rawValue)))
            throw bad(
                "expected auto, a board preset (\(presets.joined(separator: ", "))) or a magnetometer and an accelerometer "
                    + "chip, \(example)" + (guess.map { "; \($0)" } ?? ""))
        }
        guard words.count <= 2 else {
            throw bad("expected at most two chips, a magnetometer and an accelerometer, \(example)")
        }
        var placements: [IMUChipPlacement] = []
        for word in words {
            guard let chip = IMUChip(rawValue: chipName(of: word)) else {
                let chips = IMUChip.allCases.map(\.rawValue).joined(separator: ", ")
                throw bad("'\(word)' is not a chip waypointd reads (chips: \(chips))")
            }
            placements.append(IMUChipPlacement(chip, at: try address(in: word, of: chip, bad: bad)))
        }
        if placements.count == 1 {
            // One chip that measures both, such as the LSM303D.
            guard placements[0].chip.isMagnetometer, placements[0].chip.isAccelerometer else {
                throw bad(
                    "\(placements[0].chip.rawValue) alone is not enough: name a magnetometer and an accelerometer, \(example)"
                )
            }
            placements.append(placements[0])
        }
        guard placements[0].chip.isMagnetometer else {
            throw bad("\(placements[0].chip.rawValue) has no magnetometer; name the magnetometer first, \(example)")
        }
        guard placements[1].chip.isAccelerometer else {
            throw bad("\(placements[1].chip.rawValue) has no accelerometer; name the accelerometer second, \(example)")
        }
        return .chips(magnetometer: placements[0], accelerometer: placements[1])
    }

    /// `lis3mdl` of `lis3mdl@0x1E`, lowercased (presets and chips are matched ignoring case).
    private static func chipName(of word: String) -> String {
        String(word.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)[0]).lowercased()
    }

    /// The address after `@` (`0x1E`), or the chip's default; one the chip's driver supports.
    private static func address(
        in word: String, of chip: IMUChip, bad: (String) -> ValueError
    ) throws(ValueError) -> UInt8 {
        let parts = word.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let supported = chip.addresses.map(formatAddress).joined(separator: ", ")
        guard parts.count == 2 else {
            guard let first = chip.addresses.first else { preconditionFailure("\(chip) lists no address") }
            return first
        }
        let digits = parts[1].lowercased()
        guard digits.hasPrefix("0x"), (3...4).contains(digits.count), digits.dropFirst(2).allSatisfy(\.isHexDigit),
            let address = UInt8(digits.dropFirst(2), radix: 16)
        else {
            throw bad("'\(parts[1])' is not an I2C address such as 0x1C")
        }
        guard chip.addresses.contains(address) else {
            throw bad("\(chip.rawValue) is not at \(formatAddress(address)) (its addresses: \(supported))")
        }
        return address
    }

    @Sendable private static func formatIMU(_ imu: Configuration.IMU) -> String {
        switch imu {
        case .auto: "auto"
        case .preset(let preset): preset.identifier
        case .chips(let magnetometer, let accelerometer):
            "\(magnetometer.chip.rawValue)@\(formatAddress(magnetometer.address)) "
                + "\(accelerometer.chip.rawValue)@\(formatAddress(accelerometer.address))"
        }
    }

    /// `0x1C`, as i2cdetect and datasheets write addresses.
    private static func formatAddress(_ address: UInt8) -> String {
        let digits = String(address, radix: 16, uppercase: true)
        return "0x" + (digits.count < 2 ? "0" + digits : digits)
    }

    // MARK: - Lines

    // MARK: - Suggestions

    /// The known key closest to a misspelt one, or nil when none is close enough to help.
    static func suggestion(for unknown: String) -> String? {
        EditDistance.suggestions(for: unknown, among: keys.map(\.name)).first
    }
}
