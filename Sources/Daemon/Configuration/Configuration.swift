import ButtonInput
import Core
import GPSClient
import Guidance
import Haptics
import Heading
import IMU
import SystemSupport

/// Every setting of waypointd, with the defaults compiled in: a missing key means its default,
/// so an empty file (or the shipped `config/waypointd.conf`, whose keys are all commented out)
/// gives exactly `Configuration()`.
///
/// Read from `/etc/waypointd/waypointd.conf` by `load(path:)` (DESIGN.md §4); the file format,
/// the key names and what each accepts are in `ConfigurationParser`. Units are in the names.
/// The accessors at the end turn it into the settings types of the targets that use them.
public struct Configuration: Sendable, Hashable {
    /// Which magnetometer and accelerometer to read.
    public enum IMU: Sendable, Hashable {
        /// Scan the bus and pick what answers (`IMUDetector`).
        case auto
        /// A known board, e.g. `sense-hat`.
        case preset(BoardPreset)
        /// Two chips spelled out, with their addresses; the same chip twice for one that
        /// measures both (LSM303D). The placements carry the chips' default axis maps: the
        /// config changes them with `magnetometerAxisMap` and `accelerometerAxisMap`.
        case chips(magnetometer: IMUChipPlacement, accelerometer: IMUChipPlacement)
    }

    /// Where the declination added to the magnetic heading comes from.
    public enum Declination: Sendable, Hashable {
        /// WMM2025 at the current position and date.
        case model
        /// A fixed value, degrees east (negative west); for a region the model does not suit.
        case fixed(degrees: Double)
    }

    /// What a plain `go` does when walking routes were imported (issue 41).
    public enum Walk: String, Sendable, Hashable, CaseIterable {
        /// Plan a walk over the streets, except to a destination under 150 m away (or without
        /// a fix to plan from), which is guided to straight.
        case auto
        /// Always guide straight to the destination, as the crow flies.
        case never
        /// Always plan a walk when there is a fix to plan from.
        case always
    }

    /// How much the daemon logs: each level includes the ones after it.
    public enum LogLevel: String, Sendable, Hashable, CaseIterable, Comparable {
        case trace, debug, info, notice, warning, error, critical

        /// Ordered from the most verbose (trace) to the least (critical).
        public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    // MARK: GPS

    /// gpsd's address. Default 127.0.0.1:2947.
    public var gpsdAddress: GPSServerAddress = .local
    /// A fix older than this, or this long without any report from gpsd, means no fix,
    /// seconds. Default 3.
    public var fixTimeoutSeconds: Double = 3
    /// A fix whose horizontal error estimate (gpsd's `eph`) exceeds this is not usable, metres.
    /// Default 50.
    public var maximumPositionErrorMeters: Double = 50

    // MARK: IMU and heading

    /// The I2C bus number N of `/dev/i2c-N`. Default 1 (the Pi's header pins 3 and 5).
    public var i2cBus: Int = 1
    /// Which chips to read. Default `.auto`.
    public var imu: IMU = .auto
    /// How often the heading is estimated while it matters, hertz; without a gyroscope the
    /// chips are read up to twice per sample (at most 100 Hz) and the reads averaged. Default 50.
    public var sampleRateHertz: Double = 50
    /// The magnetometer's chip-to-body axis map, replacing the preset's or chip's own; nil keeps
    /// that. Default nil.
    public var magnetometerAxisMap: AxisMap?
    /// The accelerometer's chip-to-body axis map, replacing the preset's or chip's own; nil
    /// keeps that. Default nil.
    public var accelerometerAxisMap: AxisMap?
    /// Board axes to body axes, applied after both chips' maps, for a board worn other than flat
    /// with its accelerometer's +x forward. Default identity (`x,y,z`).
    public var axisRemap: AxisMap = .identity
    /// The device's forward axis relative to the wearer's, degrees clockwise; added to the
    /// heading. Default 0.
    public var mountOffsetDegrees: Double = 0
    /// How long the heading may coast on the gyroscope while the magnetic field is disturbed
    /// before it counts as unreliable, seconds. Default 60 (see
    /// `HeadingEstimator.Settings.maximumCoastingSeconds`).
    public var maximumCoastingSeconds: Double = 60
    /// Where the declination comes from. Default `.model` (WMM2025).
    public var declination: Declination = .model
    /// Whether GPS track while walking trains a heading bias; off for a hand-held device,
    /// which need not point where the wearer walks. Default true.
    public var courseAssistEnabled: Bool = true

    // MARK: Motor

    /// The PWM controller. Default `.auto`.
    public var pwmChip: SysfsPWMChannel.Chip = .auto
    /// The channel on that controller. Default 0.
    public var pwmChannel: Int = 0
    /// PWM carrier frequency, hertz. Default 25000.
    public var pwmFrequencyHertz: Double = 25_000
    /// Lowest duty (fraction of the period) that starts the motor from rest. Default 0.56.
    public var motorStartDuty: Double = 0.56
    /// Lowest duty that keeps the motor spinning and is still felt. Default 0.40.
    public var motorFloorDuty: Double = 0.40
    /// Duty at the motor's rated voltage: the strongest hold. Default 0.60.
    public var motorRatedDuty: Double = 0.60
    /// The most the motor is ever driven; kicks use it. Default 1.
    public var motorMaximumDuty: Double = 1
    /// Kick at the maximum duty at the start of the sharpest pulses, milliseconds; 0 turns
    /// kicks off. Default 40.
    public var kickLengthMilliseconds: Double = 40
    /// After this long continuously on target, fall back to a heartbeat, seconds. Default 10.
    public var heartbeatAfterSeconds: Double = 10
    /// One pulse this often while in heartbeat, seconds. Default 2.5.
    public var heartbeatIntervalSeconds: Double = 2.5

    // MARK: Guidance

    /// Half-width of the zone around the destination's bearing, degrees. Default 20.
    public var zoneDegrees: Double = 20
    /// Intensity (0…1) when facing the destination. Default 1.
    public var intensityAtCenter: Double = 1
    /// Intensity (0…1) at the edge of the zone. Default 0.1.
    public var intensityAtEdge: Double = 0.1
    /// Sharpness (0…1) when facing the destination. Default 0.
    public var sharpnessAtCenter: Double = 0
    /// Sharpness (0…1) at the edge of the zone. Default 0.8.
    public var sharpnessAtEdge: Double = 0.8
    /// Exponent of the curve between centre and edge; 1 is linear. Default 1.
    public var curveExponent: Double = 1
    /// Feel the motor when facing the destination (`toward`) or when off course (`away`).
    /// Default `toward`.
    public var feedbackMode: HapticRule.FeedbackMode = .toward
    /// Arrived within this distance of the destination (or twice the position error, if more),
    /// metres. Default 15.
    public var arrivalRadiusMeters: Double = 15
    /// The no-fix and no-heading warnings repeat this often, seconds. Default 10.
    public var warningIntervalSeconds: Double = 10
    /// What a plain `go` does when walking routes were imported. Default `.auto`.
    public var walk: Walk = .auto

    // MARK: Button and voice

    /// The input devices read as the button: paths (`/dev/input/by-path/…`) or `name:NAME`.
    /// Default none.
    public var buttonDevices: [String] = []
    /// The key codes taken as the button. Default `KEY_ENTER` (the gpio-key overlay's keycode
    /// 28), `KEY_PLAYPAUSE`, `KEY_PLAYCD`, `KEY_PAUSECD`, `KEY_MEDIA` (headsets) and `BTN_0`.
    public var buttonKeys: [UInt16] = [28, 164, 200, 201, 226, 256]
    /// Whether the devices are grabbed while read, so that no other program sees the keys.
    /// Default true.
    public var buttonGrab = true
    /// A press held this long is a long press, seconds. Default 0.8.
    public var buttonLongSeconds = 0.8
    /// A press held this long is a very long press, seconds. Default 3.
    public var buttonVeryLongSeconds = 3.0
    /// The longest wait for the next tap of a double or triple press, seconds. Default 0.4.
    public var buttonGapSeconds = 0.4
    /// Edges this soon after the last are the contact bouncing, milliseconds. Default 30.
    public var buttonDebounceMilliseconds = 30.0
    /// The command that speaks a sentence given on its standard input (`/bin/sh -c`), or nil
    /// for no voice. Default `espeak-ng -v en --stdout | aplay -q`.
    public var speech: String? = Self.defaultSpeech
    /// The default `speech`: Debian's espeak-ng, played by ALSA's aplay.
    public static let defaultSpeech = "espeak-ng -v en --stdout | aplay -q"

    /// The button's reader settings.
    public var buttonSettings: ButtonReader.Settings {
        var settings = ButtonReader.Settings()
        settings.devices = buttonDevices
        settings.keys = Set(buttonKeys)
        settings.grab = buttonGrab
        settings.gestures.longSeconds = buttonLongSeconds
        settings.gestures.veryLongSeconds = buttonVeryLongSeconds
        settings.gestures.gapSeconds = buttonGapSeconds
        settings.gestures.debounceSeconds = buttonDebounceMilliseconds / 1000
        return settings
    }

    // MARK: Daemon

    /// The control socket's path. Default `/run/waypointd/control.sock`.
    public var socketPath: String = "/run/waypointd/control.sock"
    /// Where the destination, recent destinations, mute state and calibration are kept.
    /// Default `/var/lib/waypointd`.
    public var stateDirectory: String = "/var/lib/waypointd"
    /// The least severe level logged. Default `info`.
    public var logLevel: LogLevel = .info

    /// The defaults.
    public init() {}

    /// Reads and parses the file at `path`; problems name `path` and the line.
    /// - Parameter path: the config file, e.g. `/etc/waypointd/waypointd.conf`.
    /// - Throws: `ConfigurationError.missing` when there is no file (the caller decides whether
    ///   defaults will do), `.unreadable` when it cannot be read as UTF-8 text, `.invalid` with
    ///   every problem in it.
    public static func load(path: String) throws(ConfigurationError) -> Configuration {
        try ConfigurationParser.parse(try readText(path: path), fileName: path)
    }

    /// The effective configuration in the file format, every key with its value, as
    /// `--print-config` shows it; parses back to an equal configuration.
    public var printed: String { ConfigurationParser.format(self) }

    /// A config file larger than this is refused unread: the real one is a few kilobytes, and
    /// the bound keeps a path such as /dev/zero from filling memory.
    static let maximumFileBytes = 1 << 20

    private static func readText(path: String) throws(ConfigurationError) -> String {
        let bytes: [UInt8]
        do throws(FileReadError) {
            // Followed: the path is the administrator's choice, and /etc is often links.
            bytes = try LinuxFileReading().contents(ofRegularFile: path, maximumBytes: maximumFileBytes, followingLinks: true)
        } catch where error == .missing {
            throw .missing(path: path)
        } catch {
            // The system's words (`Permission denied`, `is a directory`); the message names the path.
            throw .unreadable(path: path, reason: "\(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .unreadable(path: path, reason: "not UTF-8 text")
        }
        return text
    }
}

// MARK: - Settings of the other targets

extension Configuration {
    /// The motor's settings: carrier, duties, kick and heartbeat from the config, the pulse
    /// shapes at `MotorSettings`' defaults.
    public var motorSettings: MotorSettings {
        var settings = MotorSettings()
        settings.carrierFrequencyHertz = pwmFrequencyHertz
        settings.startDuty = motorStartDuty
        settings.floorDuty = motorFloorDuty
        settings.ratedDuty = motorRatedDuty
        settings.maximumDuty = motorMaximumDuty
        settings.kickLength = Self.duration(seconds: kickLengthMilliseconds / 1000)
        settings.heartbeatAfter = Self.duration(seconds: heartbeatAfterSeconds)
        settings.heartbeatInterval = Self.duration(seconds: heartbeatIntervalSeconds)
        return settings
    }

    /// The haptic rule: zone, end points, curve and mode from the config.
    public var hapticRule: HapticRule {
        var rule = HapticRule()
        rule.zoneDegrees = zoneDegrees
        rule.intensityAtCenter = intensityAtCenter
        rule.intensityAtEdge = intensityAtEdge
        rule.sharpnessAtCenter = sharpnessAtCenter
        rule.sharpnessAtEdge = sharpnessAtEdge
        rule.curveExponent = curveExponent
        rule.mode = feedbackMode
        return rule
    }

    /// The heading pipeline's settings: the mount offset and the coasting time from the config,
    /// filters at their defaults.
    public var headingSettings: HeadingEstimator.Settings {
        var settings = HeadingEstimator.Settings()
        settings.mountOffsetDegrees = mountOffsetDegrees
        settings.maximumCoastingSeconds = maximumCoastingSeconds
        return settings
    }

    /// The navigator's settings: fix timeout and quality, arrival, warnings and the haptic rule.
    public var navigatorSettings: Navigator.Settings {
        var settings = Navigator.Settings()
        settings.fixTimeoutSeconds = fixTimeoutSeconds
        settings.maximumPositionErrorMeters = maximumPositionErrorMeters
        settings.arrivalRadiusMeters = arrivalRadiusMeters
        settings.warningIntervalSeconds = warningIntervalSeconds
        settings.rule = hapticRule
        return settings
    }

    /// A fresh pipeline as this configuration sets it up: the live daemon's and the replay's.
    public func navigationPipeline(calibration: MagneticCalibration?) -> NavigationPipeline {
        NavigationPipeline(
            heading: headingSettings, navigation: navigatorSettings, calibration: calibration,
            fixedDeclinationDegrees: fixedDeclinationDegrees, courseAssist: CourseAssist(isEnabled: courseAssistEnabled))
    }

    /// The gpsd client's timing: gpsd silent for the fix timeout counts as no data.
    public var gpsClientSettings: GPSClientSettings {
        var settings = GPSClientSettings()
        settings.noDataTimeout = Self.duration(seconds: fixTimeoutSeconds)
        return settings
    }

    /// The declination to use instead of the model's, degrees east; nil for the model's.
    public var fixedDeclinationDegrees: Double? {
        if case .fixed(let degrees) = declination { return degrees }
        return nil
    }

    /// The chips to read with every axis map of the config applied: the preset's or the
    /// config's pair, or the detected pair for `imu auto`; then each chip's map replaced where
    /// the config gives one, then `axisRemap` after both.
    /// - Parameter detected: what `IMUDetector` found, used only for `imu auto`.
    /// - Returns: nil for `imu auto` when nothing was detected.
    public func imuSelection(detected: IMUSelection? = nil) -> IMUSelection? {
        var selection: IMUSelection
        switch imu {
        case .auto:
            guard let detected else { return nil }
            selection = detected
        case .preset(let preset):
            selection = preset.selection
        case .chips(let magnetometer, let accelerometer):
            selection = IMUSelection(magnetometer: magnetometer, accelerometer: accelerometer)
        }
        if let magnetometerAxisMap { selection.magnetometer.axisMap = magnetometerAxisMap }
        if let accelerometerAxisMap { selection.accelerometer.axisMap = accelerometerAxisMap }
        return selection.remapped(by: axisRemap)
    }

    /// Seconds as a `Duration`, rounded to the nanosecond so that 2.5 s equals
    /// `.milliseconds(2500)` exactly.
    static func duration(seconds: Double) -> Duration {
        .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}
