import Daemon
import Foundation
@preconcurrency import Glibc
import GPSClient
import Guidance
import Haptics
import Heading
import IMU
import TestSupport
import Testing

/// The name problems are reported against in these tests.
private let file = "waypointd.conf"

/// Parses `text`, expecting it to be valid.
private func parse(_ text: String) throws -> Configuration {
    try ConfigurationParser.parse(text, fileName: file)
}

/// The `file:line: message` lines for `text`, which must be invalid.
private func problems(_ text: String) -> [String] {
    do {
        _ = try ConfigurationParser.parse(text, fileName: file)
        Issue.record("expected problems in: \(text)")
        return []
    } catch {
        guard case .invalid(let problems) = error else {
            Issue.record("expected .invalid, got \(error)")
            return []
        }
        return problems.map(\.description)
    }
}

/// Every key set to a value other than its default.
private let everyKeyChanged = """
    gpsd [::1]:2948
    fix-timeout-seconds 5
    max-position-error-meters 25.5
    i2c-bus 3
    imu lis3mdl@0x1E lsm6dsl@0x6B
    sample-rate-hz 100
    magnetometer-axis-map -x,-y,-z
    accelerometer-axis-map x,-y,-z
    axis-remap y,-x,z
    mount-offset-degrees -12.5
    max-coasting-seconds 20
    declination 2.25
    course-assist off
    pwm-chip 1f00098000.pwm
    pwm-channel 2
    pwm-frequency-hz 20000
    motor-start-duty 0.5
    motor-floor-duty 0.3
    motor-rated-duty 0.7
    motor-maximum-duty 0.9
    kick-length-ms 0
    heartbeat-after-seconds 20
    heartbeat-interval-seconds 3
    zone-degrees 30
    intensity-at-center 0.9
    intensity-at-edge 0.2
    sharpness-at-center 0.1
    sharpness-at-edge 0.7
    curve-exponent 2
    feedback-mode away
    arrival-radius-meters 20
    warning-interval-seconds 30
    walk never
    button /dev/input/by-path/platform-button@11-event, name:Headset
    button-keys KEY_VOLUMEUP, 164
    button-grab off
    button-long-seconds 1.2
    button-very-long-seconds 4
    button-gap-seconds 0.5
    button-debounce-ms 10
    speech festival --tts
    socket /tmp/waypointd.sock
    state-dir /srv/waypointd
    log-level debug
    """

@Suite("Configuration", .timeLimit(.minutes(5)))
struct ConfigurationTests {
    // MARK: Defaults

    @Test("empty text, blank lines and comments give the defaults")
    func emptyGivesDefaults() throws {
        #expect(try parse("") == Configuration())
        #expect(try parse("\n\n   \n\t\n") == Configuration())
        #expect(try parse("# a comment\n   # an indented comment\n\n#zone-degrees 30\n") == Configuration())
    }

    @Test("the defaults are those of the settings types they feed")
    func defaultsMatchTheSettingsTypes() {
        let defaults = Configuration()
        #expect(defaults.motorSettings == MotorSettings())
        #expect(defaults.hapticRule == HapticRule())
        #expect(defaults.headingSettings == HeadingEstimator.Settings())
        #expect(defaults.gpsClientSettings == GPSClientSettings())
        #expect(defaults.gpsdAddress == .local)
        #expect(defaults.pwmChip == .auto)
        #expect(defaults.fixedDeclinationDegrees == nil)
        #expect(defaults.imu == .auto)
        #expect(defaults.imuSelection() == nil)
    }

    @Test("the compiled-in defaults are the documented ones")
    func documentedDefaults() {
        let defaults = Configuration()
        #expect(defaults.gpsdAddress.description == "127.0.0.1:2947")
        #expect(defaults.fixTimeoutSeconds == 3)
        #expect(defaults.maximumPositionErrorMeters == 50)
        #expect(defaults.i2cBus == 1)
        #expect(defaults.sampleRateHertz == 50)
        #expect(defaults.magnetometerAxisMap == nil && defaults.accelerometerAxisMap == nil)
        #expect(defaults.axisRemap == .identity)
        #expect(defaults.mountOffsetDegrees == 0)
        #expect(defaults.maximumCoastingSeconds == 60)
        #expect(defaults.declination == .model)
        #expect(defaults.courseAssistEnabled)
        #expect(defaults.pwmChannel == 0)
        #expect(defaults.pwmFrequencyHertz == 25_000)
        #expect(defaults.zoneDegrees == 20)
        #expect(defaults.curveExponent == 1)
        #expect(defaults.feedbackMode == .toward)
        #expect(defaults.arrivalRadiusMeters == 15)
        #expect(defaults.warningIntervalSeconds == 10)
        #expect(defaults.walk == .auto)
        #expect(defaults.socketPath == "/run/waypointd/control.sock")
        #expect(defaults.stateDirectory == "/var/lib/waypointd")
        #expect(defaults.logLevel == .info)
    }

    // MARK: Every key

    @Test("every key's value is read")
    func everyKey() throws {
        let keysInText = Set(everyKeyChanged.split(separator: "\n").map { String($0.split(separator: " ")[0]) })
        #expect(keysInText == Set(ConfigurationParser.keyNames), "the text must set every key")

        let configuration = try parse(everyKeyChanged)
        #expect(configuration.gpsdAddress == GPSServerAddress(host: "::1", port: 2948))
        #expect(configuration.fixTimeoutSeconds == 5)
        #expect(configuration.maximumPositionErrorMeters == 25.5)
        #expect(configuration.i2cBus == 3)
        #expect(
            configuration.imu
                == .chips(
                    magnetometer: IMUChipPlacement(.lis3mdl, at: 0x1E),
                    accelerometer: IMUChipPlacement(.lsm6dsl, at: 0x6B)))
        #expect(configuration.sampleRateHertz == 100)
        #expect(configuration.magnetometerAxisMap == (try AxisMap(parsing: "-x,-y,-z")))
        #expect(configuration.accelerometerAxisMap == (try AxisMap(parsing: "x,-y,-z")))
        #expect(configuration.axisRemap == (try AxisMap(parsing: "y,-x,z")))
        #expect(configuration.mountOffsetDegrees == -12.5)
        #expect(configuration.maximumCoastingSeconds == 20)
        #expect(configuration.declination == .fixed(degrees: 2.25))
        #expect(!configuration.courseAssistEnabled)
        #expect(configuration.pwmChip == .device("1f00098000.pwm"))
        #expect(configuration.pwmChannel == 2)
        #expect(configuration.pwmFrequencyHertz == 20_000)
        #expect(configuration.motorStartDuty == 0.5)
        #expect(configuration.motorFloorDuty == 0.3)
        #expect(configuration.motorRatedDuty == 0.7)
        #expect(configuration.motorMaximumDuty == 0.9)
        #expect(configuration.kickLengthMilliseconds == 0)
        #expect(configuration.heartbeatAfterSeconds == 20)
        #expect(configuration.heartbeatIntervalSeconds == 3)
        #expect(configuration.zoneDegrees == 30)
        #expect(configuration.intensityAtCenter == 0.9)
        #expect(configuration.intensityAtEdge == 0.2)
        #expect(configuration.sharpnessAtCenter == 0.1)
        #expect(configuration.sharpnessAtEdge == 0.7)
        #expect(configuration.curveExponent == 2)
        #expect(configuration.feedbackMode == .away)
        #expect(configuration.arrivalRadiusMeters == 20)
        #expect(configuration.warningIntervalSeconds == 30)
        #expect(configuration.walk == .never)
        #expect(configuration.buttonDevices == ["/dev/input/by-path/platform-button@11-event", "name:Headset"])
        #expect(configuration.buttonKeys == [115, 164])
        #expect(configuration.buttonGrab == false)
        #expect(configuration.buttonLongSeconds == 1.2)
        #expect(configuration.buttonVeryLongSeconds == 4)
        #expect(configuration.buttonGapSeconds == 0.5)
        #expect(configuration.buttonDebounceMilliseconds == 10)
        #expect(configuration.speech == "festival --tts")
        #expect(configuration.socketPath == "/tmp/waypointd.sock")
        #expect(configuration.stateDirectory == "/srv/waypointd")
        #expect(configuration.logLevel == .debug)
    }

    @Test("the settings types get the configured values")
    func settingsMappings() throws {
        let configuration = try parse(everyKeyChanged)

        let motor = configuration.motorSettings
        #expect(motor.carrierFrequencyHertz == 20_000)
        #expect(motor.periodNanoseconds == 50_000)
        #expect(motor.startDuty == 0.5 && motor.floorDuty == 0.3 && motor.ratedDuty == 0.7 && motor.maximumDuty == 0.9)
        #expect(motor.kickLength == .zero)
        #expect(motor.heartbeatAfter == .seconds(20))
        #expect(motor.heartbeatInterval == .seconds(3))
        #expect(motor.softPulseLength == MotorSettings().softPulseLength, "unconfigured fields keep their defaults")

        let button = configuration.buttonSettings
        #expect(button.devices == ["/dev/input/by-path/platform-button@11-event", "name:Headset"])
        #expect(button.keys == [115, 164] && !button.grab)
        #expect(button.gestures.longSeconds == 1.2 && button.gestures.veryLongSeconds == 4)
        #expect(button.gestures.gapSeconds == 0.5 && button.gestures.debounceSeconds == 0.01)

        var rule = HapticRule()
        rule.zoneDegrees = 30
        rule.intensityAtCenter = 0.9
        rule.intensityAtEdge = 0.2
        rule.sharpnessAtCenter = 0.1
        rule.sharpnessAtEdge = 0.7
        rule.curveExponent = 2
        rule.mode = .away
        #expect(configuration.hapticRule == rule)

        #expect(configuration.headingSettings.mountOffsetDegrees == -12.5)
        #expect(configuration.headingSettings.maximumCoastingSeconds == 20)
        #expect(configuration.gpsClientSettings.noDataTimeout == .seconds(5))
        #expect(configuration.fixedDeclinationDegrees == 2.25)
    }

    @Test("durations are exact: 2.5 s is 2500 ms, 40 ms is 40 ms")
    func exactDurations() {
        let motor = Configuration().motorSettings
        #expect(motor.heartbeatInterval == .milliseconds(2500))
        #expect(motor.kickLength == .milliseconds(40))
    }

    // MARK: IMU

    @Test("imu: auto, presets by name (any case), chip pairs with and without addresses, one chip for both")
    func imuValues() throws {
        #expect(try parse("imu auto").imu == .auto)
        #expect(try parse("imu sense-hat").imu == .preset(.senseHAT))
        #expect(try parse("imu BerryGPS-IMU-v4").imu == .preset(.berryGPSIMUv4))
        #expect(
            try parse("imu hmc5883l lsm6ds33").imu
                == .chips(
                    magnetometer: IMUChipPlacement(.hmc5883l, at: 0x1E),
                    accelerometer: IMUChipPlacement(.lsm6ds33, at: IMUChip.lsm6ds33.addresses[0])))
        #expect(
            try parse("imu lis3mdl@0x1c   lsm6dsl@0x6A").imu
                == .chips(
                    magnetometer: IMUChipPlacement(.lis3mdl, at: 0x1C),
                    accelerometer: IMUChipPlacement(.lsm6dsl, at: 0x6A)))
        #expect(
            try parse("imu lsm303d").imu
                == .chips(
                    magnetometer: IMUChipPlacement(.lsm303d, at: 0x1D),
                    accelerometer: IMUChipPlacement(.lsm303d, at: 0x1D)))
    }

    @Test("the IMU selection applies the preset, each chip's map override, then the remap")
    func imuSelection() throws {
        let preset = try parse("imu berrygps-imu-v4\naxis-remap y,-x,z").imuSelection()
        let remap = try AxisMap(parsing: "y,-x,z")
        #expect(preset?.magnetometer.axisMap == BoardPreset.berryGPSIMUv4.magnetometer.axisMap.followed(by: remap))
        #expect(preset?.accelerometer.axisMap == BoardPreset.berryGPSIMUv4.accelerometer.axisMap.followed(by: remap))
        #expect(preset?.boardName == BoardPreset.berryGPSIMUv4.name)

        let chips = try parse("imu hmc5883l lsm6dsl\nmagnetometer-axis-map y,x,-z").imuSelection()
        #expect(chips?.magnetometer.axisMap == (try AxisMap(parsing: "y,x,-z")))
        #expect(chips?.accelerometer.axisMap == IMUChip.lsm6dsl.defaultAxisMap)

        let detected = BoardPreset.senseHAT.selection
        let auto = try parse("accelerometer-axis-map -x,y,-z").imuSelection(detected: detected)
        #expect(auto?.magnetometer == detected.magnetometer)
        #expect(auto?.accelerometer.axisMap == (try AxisMap(parsing: "-x,y,-z")))
    }

    @Test("imu: what is wrong with a bad value")
    func imuProblems() {
        #expect(
            problems("imu sensehat") == [
                "waypointd.conf:1: imu: bad value 'sensehat': expected auto, a board preset (sense-hat, berrygps-imu-v3, "
                    + "berrygps-imu-v4, waveshare-sense-hat-b, adafruit-lsm303agr, adafruit-lsm303dlhc, enviro-phat) or a "
                    + "magnetometer and an accelerometer chip, e.g. 'lis3mdl lsm6dsl' or 'hmc5883l@0x1E lsm6dsl@0x6B'; "
                    + "did you mean 'sense-hat'?"
            ])
        #expect(
            problems("imu lsm6dsl lis3mdl") == [
                "waypointd.conf:1: imu: bad value 'lsm6dsl lis3mdl': lsm6dsl has no magnetometer; name the magnetometer "
                    + "first, e.g. 'lis3mdl lsm6dsl' or 'hmc5883l@0x1E lsm6dsl@0x6B'"
            ])
        #expect(
            problems("imu lis3mdl hmc5883l") == [
                "waypointd.conf:1: imu: bad value 'lis3mdl hmc5883l': hmc5883l has no accelerometer; name the "
                    + "accelerometer second, e.g. 'lis3mdl lsm6dsl' or 'hmc5883l@0x1E lsm6dsl@0x6B'"
            ])
        #expect(
            problems("imu lis3mdl") == [
                "waypointd.conf:1: imu: bad value 'lis3mdl': lis3mdl alone is not enough: name a magnetometer and an "
                    + "accelerometer, e.g. 'lis3mdl lsm6dsl' or 'hmc5883l@0x1E lsm6dsl@0x6B'"
            ])
        #expect(
            problems("imu lis3mdl@0x1D lsm6dsl") == [
                "waypointd.conf:1: imu: bad value 'lis3mdl@0x1D lsm6dsl': lis3mdl is not at 0x1D (its addresses: 0x1C, 0x1E)"
            ])
        #expect(
            problems("imu lis3mdl@30 lsm6dsl") == [
                "waypointd.conf:1: imu: bad value 'lis3mdl@30 lsm6dsl': '30' is not an I2C address such as 0x1C"
            ])
        #expect(
            problems("imu lis3mdl@0x+e lsm6dsl") == [
                "waypointd.conf:1: imu: bad value 'lis3mdl@0x+e lsm6dsl': '0x+e' is not an I2C address such as 0x1C"
            ])
        #expect(problems("imu lis3mdl lsm6dsl lsm6ds33").first?.contains("expected at most two chips") == true)
        #expect(
            problems("imu lis3mdl foo").first?.contains("'foo' is not a chip waypointd reads (chips: lsm9ds1-m,")
                == true)
    }

    // MARK: Other values with a syntax of their own

    @Test("gpsd: host alone, host and port, IPv6")
    func gpsdValues() throws {
        #expect(try parse("gpsd gps.local").gpsdAddress == GPSServerAddress(host: "gps.local", port: 2947))
        #expect(try parse("gpsd 10.0.0.2:3000").gpsdAddress == GPSServerAddress(host: "10.0.0.2", port: 3000))
        #expect(try parse("gpsd [::1]").gpsdAddress == GPSServerAddress(host: "::1", port: 2947))
        #expect(
            problems("gpsd localhost:99999") == [
                "waypointd.conf:1: gpsd: bad value 'localhost:99999': the port '99999' is not a number from 1 to 65535"
            ])
    }

    @Test("declination: auto or degrees")
    func declinationValues() throws {
        #expect(try parse("declination auto").declination == .model)
        #expect(try parse("declination -3.5").declination == .fixed(degrees: -3.5))
        #expect(
            problems("declination east") == [
                "waypointd.conf:1: declination: 'east' is not auto or a plain decimal number (allowed: -180 to 180)"
            ])
        #expect(
            problems("declination 181") == ["waypointd.conf:1: declination: 181 is out of range (allowed: -180 to 180)"]
        )
    }

    @Test("pwm-chip: auto, pwmchipN, a device name; never a path")
    func pwmChipValues() throws {
        #expect(try parse("pwm-chip auto").pwmChip == .auto)
        #expect(try parse("pwm-chip pwmchip2").pwmChip == .numbered("pwmchip2"))
        #expect(try parse("pwm-chip fe20c000.pwm").pwmChip == .device("fe20c000.pwm"))
        #expect(
            problems("pwm-chip ../../etc") == [
                "waypointd.conf:1: pwm-chip: bad value '../../etc': expected auto, pwmchipN or a device name such as "
                    + "1f00098000.pwm (one name, no '/')"
            ])
        #expect(
            problems("pwm-chip pwmchip-1") == [
                "waypointd.conf:1: pwm-chip: bad value 'pwmchip-1': expected pwmchip followed by the chip's number, e.g. pwmchip0"
            ])
    }

    @Test("axis maps: auto for the chip's own, a map, or a reason")
    func axisMapValues() throws {
        #expect(try parse("magnetometer-axis-map auto").magnetometerAxisMap == nil)
        #expect(try parse("axis-remap X, -Y, -Z").axisRemap == (try AxisMap(parsing: "x,-y,-z")))
        #expect(
            problems("axis-remap x,y") == [
                "waypointd.conf:1: axis-remap: bad value 'x,y': expected three comma-separated terms for body x, y, z "
                    + "(e.g. x,-y,-z), found 2"
            ])
        #expect(
            problems("accelerometer-axis-map x,x,z") == [
                "waypointd.conf:1: accelerometer-axis-map: bad value 'x,x,z': chip axis x is used more than once; each "
                    + "of x, y, z must appear exactly once"
            ])
        #expect(
            problems("magnetometer-axis-map x,w,z") == [
                "waypointd.conf:1: magnetometer-axis-map: bad value 'x,w,z': 'w' is not an axis; use x, y or z, "
                    + "optionally with - or +"
            ])
        #expect(
            problems("axis-remap auto") == [
                "waypointd.conf:1: axis-remap: bad value 'auto': expected three comma-separated terms for body x, y, z "
                    + "(e.g. x,-y,-z), found 1"
            ])
    }

    @Test("choices: on/off, feedback mode, log level; each level is accepted")
    func choiceValues() throws {
        #expect(try parse("course-assist on").courseAssistEnabled)
        #expect(
            problems("course-assist yes") == ["waypointd.conf:1: course-assist: bad value 'yes': expected on or off"])
        #expect(try parse("feedback-mode toward").feedbackMode == .toward)
        #expect(
            problems("feedback-mode towards") == [
                "waypointd.conf:1: feedback-mode: bad value 'towards': expected one of: toward, away; did you mean 'toward'?"
            ])
        #expect(problems("imu berrygps").first?.hasSuffix("; did you mean 'berrygps-imu-v3' or 'berrygps-imu-v4'?") == true, "\(problems("imu berrygps"))")
        for level in Configuration.LogLevel.allCases {
            #expect(try parse("log-level \(level.rawValue)").logLevel == level)
        }
        #expect(
            problems("log-level verbose") == [
                "waypointd.conf:1: log-level: bad value 'verbose': expected one of: trace, debug, info, notice, warning, "
                    + "error, critical"
            ])
        #expect(Configuration.LogLevel.debug < .info && Configuration.LogLevel.error > .warning)
    }

    @Test("paths must be absolute; the socket's must fit sun_path")
    func pathValues() {
        #expect(
            problems("state-dir var/lib/waypointd") == [
                "waypointd.conf:1: state-dir: bad value 'var/lib/waypointd': expected an absolute path"
            ])
        let long = "/" + String(repeating: "s", count: 107)
        #expect(
            problems("socket \(long)") == [
                "waypointd.conf:1: socket: bad value '\(long)': longer than the 107 bytes a UNIX socket path can have"
            ])
        #expect((try? parse("socket /" + String(repeating: "s", count: 106))) != nil)
    }

    // MARK: Numbers

    @Test("numbers: signs, fractions, bounds included; integers for whole-number keys")
    func numberValues() throws {
        #expect(try parse("mount-offset-degrees +45").mountOffsetDegrees == 45)
        #expect(try parse("mount-offset-degrees -180").mountOffsetDegrees == -180)
        #expect(try parse("zone-degrees 179").zoneDegrees == 179)
        #expect(try parse("sample-rate-hz 12.5").sampleRateHertz == 12.5)
        #expect(try parse("intensity-at-edge .5").intensityAtEdge == 0.5)
        #expect(try parse("intensity-at-edge 1.").intensityAtEdge == 1)
        #expect(try parse("curve-exponent 0.01").curveExponent == 0.01)
        #expect(try parse("pwm-channel 007").pwmChannel == 7)
    }

    @Test(
        "not plain decimals: NaN, infinity, hex, exponents, words, lone signs",
        arguments: ["nan", "NaN", "inf", "-infinity", "0x14", "2e1", "20k", "twenty", "-", ".", "1.2.3", "1,5", "--1"])
    func notPlainDecimals(text: String) {
        #expect(
            problems("zone-degrees \(text)") == [
                "waypointd.conf:1: zone-degrees: '\(text)' is not a plain decimal number (allowed: 1 to 179)"
            ])
    }

    @Test("a whole-number key rejects fractions and words")
    func notWholeNumbers() {
        #expect(
            problems("pwm-channel 1.5\ni2c-bus one") == [
                "waypointd.conf:1: pwm-channel: '1.5' is not a whole number (allowed: 0 to 255)",
                "waypointd.conf:2: i2c-bus: 'one' is not a whole number (allowed: 0 to 255)",
            ])
    }

    @Test("out of range, with the range named")
    func outOfRange() {
        #expect(
            problems("zone-degrees 180") == ["waypointd.conf:1: zone-degrees: 180 is out of range (allowed: 1 to 179)"])
        #expect(
            problems("sample-rate-hz 9.99") == [
                "waypointd.conf:1: sample-rate-hz: 9.99 is out of range (allowed: 10 to 200)"
            ])
        #expect(
            problems("curve-exponent 0") == [
                "waypointd.conf:1: curve-exponent: 0 is out of range (allowed: greater than 0 and at most 10)"
            ])
        #expect(
            problems("motor-start-duty 1.01") == [
                "waypointd.conf:1: motor-start-duty: 1.01 is out of range (allowed: 0 to 1)"
            ])
        #expect(problems("pwm-channel -1") == ["waypointd.conf:1: pwm-channel: -1 is out of range (allowed: 0 to 255)"])
        #expect(
            problems("i2c-bus 99999999999999999999999") == [
                "waypointd.conf:1: i2c-bus: 99999999999999999999999 is out of range (allowed: 0 to 255)"
            ])
        #expect(
            problems("heartbeat-interval-seconds 0.25") == [
                "waypointd.conf:1: heartbeat-interval-seconds: 0.25 is out of range (allowed: 0.5 to 60)"
            ])
    }

    // MARK: Keys

    @Test("an unknown key gets the closest known key as a suggestion")
    func unknownKeys() {
        #expect(problems("pwm-chanel 1") == ["waypointd.conf:1: unknown key 'pwm-chanel'; did you mean 'pwm-channel'?"])
        #expect(
            problems("arrival-radius-metres 20") == [
                "waypointd.conf:1: unknown key 'arrival-radius-metres'; did you mean 'arrival-radius-meters'?"
            ])
        #expect(
            problems("PWM-Channel 1") == ["waypointd.conf:1: unknown key 'PWM-Channel'; did you mean 'pwm-channel'?"])
        #expect(
            problems("pwm_channel 1") == ["waypointd.conf:1: unknown key 'pwm_channel'; did you mean 'pwm-channel'?"])
        #expect(
            problems("fix-timeout 5") == [
                "waypointd.conf:1: unknown key 'fix-timeout'; did you mean 'fix-timeout-seconds'?"
            ])
        #expect(
            problems("socket-path /run/x.sock") == [
                "waypointd.conf:1: unknown key 'socket-path'; did you mean 'socket'?"
            ])
        #expect(problems("gps 127.0.0.1") == ["waypointd.conf:1: unknown key 'gps'; did you mean 'gpsd'?"])
        #expect(problems("colour blue") == ["waypointd.conf:1: unknown key 'colour'"])
        #expect(
            problems("pwm-channel=2") == ["waypointd.conf:1: unknown key 'pwm-channel=2'; did you mean 'pwm-channel'?"])
    }

    @Test("a key without a value says what it expects")
    func missingValues() {
        #expect(
            problems("zone-degrees") == [
                "waypointd.conf:1: missing value for 'zone-degrees' (expected a number from 1 to 179)"
            ])
        #expect(
            problems("pwm-channel   # the motor") == [
                "waypointd.conf:1: missing value for 'pwm-channel' (expected a whole number from 0 to 255)"
            ])
        #expect(
            problems("feedback-mode") == [
                "waypointd.conf:1: missing value for 'feedback-mode' (expected one of: toward, away)"
            ])
        #expect(
            problems("curve-exponent") == [
                "waypointd.conf:1: missing value for 'curve-exponent' (expected a number greater than 0 and at most 10)"
            ])
    }

    @Test("a key set twice is reported on the second line, naming the first")
    func duplicateKeys() {
        #expect(
            problems("zone-degrees 30\n\nzone-degrees 40") == [
                "waypointd.conf:3: duplicate key 'zone-degrees' (first set on line 1)"
            ])
        // Even when the first value was bad.
        #expect(
            problems("zone-degrees 300\nzone-degrees 40") == [
                "waypointd.conf:1: zone-degrees: 300 is out of range (allowed: 1 to 179)",
                "waypointd.conf:2: duplicate key 'zone-degrees' (first set on line 1)",
            ])
    }

    // MARK: Cross-checks

    @Test("motor duties must be ordered: floor ≤ rated ≤ maximum, start ≤ maximum")
    func dutyOrder() throws {
        #expect(
            problems("motor-floor-duty 0.7") == [
                "waypointd.conf:1: motor-floor-duty 0.7 must not exceed motor-rated-duty 0.6 (default)"
            ])
        #expect(
            problems("motor-maximum-duty 0.5\nlog-level info\nmotor-rated-duty 0.55") == [
                "waypointd.conf:1: motor-start-duty 0.56 (default) must not exceed motor-maximum-duty 0.5",
                "waypointd.conf:3: motor-rated-duty 0.55 must not exceed motor-maximum-duty 0.5",
            ])
        #expect(
            problems("motor-start-duty 0.8\nmotor-maximum-duty 0.75\nmotor-rated-duty 0.7") == [
                "waypointd.conf:2: motor-start-duty 0.8 must not exceed motor-maximum-duty 0.75"
            ])
        // Equal is fine.
        #expect(
            try parse("motor-floor-duty 0.6\nmotor-rated-duty 0.6\nmotor-maximum-duty 0.6\nmotor-start-duty 0.6")
                .motorFloorDuty == 0.6)
    }

    @Test("button: paths or name:NAME, eight at most; keys by name or code; the long press before the very long one")
    func buttonValues() throws {
        #expect(try parse("button none").buttonDevices == [])
        #expect(try parse("button name:waypoint").buttonDevices == ["name:waypoint"])
        #expect(try parse("button-keys key_enter, 115,28").buttonKeys == [28, 115], "names in any case, codes, once each")
        #expect(problems("button-keys 0x1C") == ["waypointd.conf:1: button-keys: bad value '0x1C': '0x1C' is not a key name or a code up to 767"])
        #expect(
            problems("button event0") == [
                "waypointd.conf:1: button: bad value 'event0': 'event0' is neither an absolute path nor name:NAME"
            ])
        #expect(problems("button name:") == ["waypointd.conf:1: button: bad value 'name:': 'name:' is neither an absolute path nor name:NAME"])
        let nine = (0..<9).map { "/dev/input/event\($0)" }.joined(separator: ",")
        #expect(problems("button \(nine)") == ["waypointd.conf:1: button: bad value '\(nine)': expected 1 to 8 devices, or none"])
        #expect(
            problems("button-keys KEY_ENTR") == [
                "waypointd.conf:1: button-keys: bad value 'KEY_ENTR': 'KEY_ENTR' is not a key name or a code up to 767; did you mean 'KEY_ENTER'?"
            ])
        #expect(
            problems("button-long-seconds 3\nbutton-very-long-seconds 2") == [
                "waypointd.conf:2: button-long-seconds 3 must not exceed button-very-long-seconds 2"
            ])
        #expect(problems("button-debounce-ms 1000") == ["waypointd.conf:1: button-debounce-ms: 1000 is out of range (allowed: 0 to 200)"])
        #expect(try parse("speech none").speech == nil)
        #expect(try parse("speech cat >> /tmp/said").speech == "cat >> /tmp/said")
    }

    @Test("no cross-check against a value that was already rejected")
    func noCascade() {
        #expect(
            problems("motor-rated-duty 2\nmotor-floor-duty 0.7") == [
                "waypointd.conf:1: motor-rated-duty: 2 is out of range (allowed: 0 to 1)"
            ])
    }

    // MARK: Many problems

    @Test("every problem in the file is reported, in line order")
    func everyProblem() {
        let text = """
            # waypointd.conf with five mistakes
            gpsd 127.0.0.1:2947
            pwm-chanel 1
            zone-degrees nan
            motor-floor-duty 0.65      # above the rated duty
            zone-degrees 20
            log-level
            """
        let expected = [
            "waypointd.conf:3: unknown key 'pwm-chanel'; did you mean 'pwm-channel'?",
            "waypointd.conf:4: zone-degrees: 'nan' is not a plain decimal number (allowed: 1 to 179)",
            "waypointd.conf:5: motor-floor-duty 0.65 must not exceed motor-rated-duty 0.6 (default)",
            "waypointd.conf:6: duplicate key 'zone-degrees' (first set on line 4)",
            "waypointd.conf:7: missing value for 'log-level' (expected one of: trace, debug, info, notice, warning, "
                + "error, critical)",
        ]
        #expect(problems(text) == expected)
        do {
            _ = try ConfigurationParser.parse(text, fileName: file)
        } catch {
            #expect(error.description == expected.joined(separator: "\n"))
        }
    }

    // MARK: Lines

    @Test("comments: whole-line, trailing after whitespace; a '#' inside a value is kept")
    func comments() throws {
        let configuration = try parse(
            """
            # heading
              # indented
            zone-degrees 30 # trailing
            arrival-radius-meters 20\t# after a tab
            state-dir /var/lib/way#point
            socket /run/a b.sock # spaces inside a value are kept
            """)
        #expect(configuration.zoneDegrees == 30)
        #expect(configuration.arrivalRadiusMeters == 20)
        #expect(configuration.stateDirectory == "/var/lib/way#point")
        #expect(configuration.socketPath == "/run/a b.sock")
    }

    @Test("tabs, indentation, CRLF line ends and a byte-order mark")
    func whitespace() throws {
        let configuration = try parse("\u{FEFF}zone-degrees\t\t25\r\n   pwm-channel  3   \r\n\r\nlog-level notice\r\n")
        #expect(configuration.zoneDegrees == 25)
        #expect(configuration.pwmChannel == 3)
        #expect(configuration.logLevel == .notice)
        #expect(
            problems("\r\n\r\nzone-degrees 0\r\n") == [
                "waypointd.conf:3: zone-degrees: 0 is out of range (allowed: 1 to 179)"
            ])
    }

    // MARK: --print-config

    @Test("printed lists every key once and parses back to the same configuration")
    func printedRoundTrip() throws {
        let defaults = Configuration()
        let printedKeys = defaults.printed.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            String($0.split(separator: " ")[0])
        }
        #expect(printedKeys == ConfigurationParser.keyNames)
        #expect(try parse(defaults.printed) == defaults)

        let changed = try parse(everyKeyChanged)
        #expect(try parse(changed.printed) == changed)
        #expect(changed.printed.contains("\nimu lis3mdl@0x1E lsm6dsl@0x6B\n"))
        #expect(changed.printed.contains("\ngpsd [::1]:2948\n"))

        for text in [
            "imu sense-hat\ndeclination -0.001", "imu lsm303d\nmagnetometer-axis-map x,y,z", "pwm-chip pwmchip0",
        ] {
            let configuration = try parse(text)
            #expect(try parse(configuration.printed) == configuration, "\(text)")
        }
    }

    @Test(
        "printed numbers are plain decimals that read back exactly",
        arguments: [0.00001, 0.1, 0.56, 1e-9, 0.3333333333333333])
    func printedNumbers(duty: Double) throws {
        var configuration = Configuration()
        configuration.motorFloorDuty = duty
        configuration.motorStartDuty = duty
        let printed = configuration.printed
        let line = printed.split(separator: "\n").first { $0.hasPrefix("motor-floor-duty ") }
        #expect(line?.contains("e") == false, "no exponent: \(line ?? "")")
        #expect(try parse(printed) == configuration)
    }

    @Test("printed defaults")
    func printedDefaults() {
        #expect(
            Configuration().printed == """
                # waypointd: the effective configuration (waypointd --print-config).

                # GPS
                gpsd 127.0.0.1:2947
                fix-timeout-seconds 3
                max-position-error-meters 50

                # IMU
                i2c-bus 1
                imu auto
                sample-rate-hz 50
                magnetometer-axis-map auto
                accelerometer-axis-map auto
                axis-remap x,y,z

                # Heading
                mount-offset-degrees 0
                max-coasting-seconds 60
                declination auto
                course-assist on

                # Motor
                pwm-chip auto
                pwm-channel 0
                pwm-frequency-hz 25000
                motor-start-duty 0.56
                motor-floor-duty 0.4
                motor-rated-duty 0.6
                motor-maximum-duty 1
                kick-length-ms 40
                heartbeat-after-seconds 10
                heartbeat-interval-seconds 2.5

                # Guidance
                zone-degrees 20
                intensity-at-center 1
                intensity-at-edge 0.1
                sharpness-at-center 0
                sharpness-at-edge 0.8
                curve-exponent 1
                feedback-mode toward
                arrival-radius-meters 15
                warning-interval-seconds 10
                walk auto

                # Button and voice
                button none
                button-keys KEY_ENTER, KEY_PLAYPAUSE, KEY_PLAYCD, KEY_PAUSECD, KEY_MEDIA, BTN_0
                button-grab on
                button-long-seconds 0.8
                button-very-long-seconds 3
                button-gap-seconds 0.4
                button-debounce-ms 30
                speech espeak-ng -v en --stdout | aplay -q

                # Daemon
                socket /run/waypointd/control.sock
                state-dir /var/lib/waypointd
                log-level info

                """)
    }

    // MARK: The shipped example

    /// `#key value` lines of the shipped file: settings commented out, sshd_config style
    /// (prose comments have a space after the '#').
    private static func documentedSettings(_ text: String) -> [(key: String, line: String)] {
        text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("#"), let first = line.dropFirst().first, first.isLowercase else { return nil }
            let setting = String(line.dropFirst())
            return (String(setting.split(separator: " ")[0]), setting)
        }
    }

    @Test("config/waypointd.conf as shipped gives exactly the defaults")
    func shippedFileGivesDefaults() throws {
        let url = TestData.url("config/waypointd.conf")
        #expect(try Configuration.load(path: url.path) == Configuration())
    }

    @Test("config/waypointd.conf documents every key once, at its default, and no other")
    func shippedFileDocumentsEveryKey() throws {
        let text = try TestData.text("config/waypointd.conf")
        let settings = Self.documentedSettings(text)
        #expect(settings.map(\.key).sorted() == ConfigurationParser.keyNames.sorted())
        // Uncommented, every documented value must be the compiled-in default.
        let uncommented = settings.map(\.line).joined(separator: "\n")
        #expect(try parse(uncommented) == Configuration())
        #expect(!text.split(separator: "\n").contains { !$0.hasPrefix("#") && !$0.isEmpty }, "nothing is set")
    }

    // MARK: Loading a file

    @Test("load reads a file and names its path in problems")
    func loadFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("waypointd-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let good = directory.appendingPathComponent("good.conf")
        try "zone-degrees 25\n".write(to: good, atomically: true, encoding: .utf8)
        #expect(try Configuration.load(path: good.path).zoneDegrees == 25)

        let bad = directory.appendingPathComponent("bad.conf")
        try "\nzone-degrees 250\n".write(to: bad, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.self) { try Configuration.load(path: bad.path) }
        do {
            _ = try Configuration.load(path: bad.path)
        } catch {
            #expect(error.description == "\(bad.path):2: zone-degrees: 250 is out of range (allowed: 1 to 179)")
        }
    }

    @Test("load: a missing file, a directory and non-UTF-8 bytes are clear errors naming the path")
    func loadFailures() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("waypointd-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let missing = directory.appendingPathComponent("absent.conf").path
        #expect(throws: ConfigurationError.missing(path: missing)) { try Configuration.load(path: missing) }
        #expect(
            ConfigurationError.missing(path: missing).description
                == "\(missing): cannot read the configuration: no such file")

        #expect(throws: ConfigurationError.unreadable(path: directory.path, reason: "is a directory, not a regular file")) {
            try Configuration.load(path: directory.path)
        }
        // Neither a FIFO with no writer nor an endless device holds the reader up.
        let fifo = directory.appendingPathComponent("fifo.conf").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: ConfigurationError.unreadable(path: fifo, reason: "is not a regular file (a FIFO, socket or device)")) {
            try Configuration.load(path: fifo)
        }
        #expect(throws: ConfigurationError.unreadable(path: "/dev/zero", reason: "is not a regular file (a FIFO, socket or device)")) {
            try Configuration.load(path: "/dev/zero")
        }

        let binary = directory.appendingPathComponent("binary.conf")
        try Data([0x7A, 0xFF, 0xFE, 0x0A]).write(to: binary)
        #expect(throws: ConfigurationError.unreadable(path: binary.path, reason: "not UTF-8 text")) {
            try Configuration.load(path: binary.path)
        }
        #expect(
            ConfigurationError.unreadable(path: binary.path, reason: "not UTF-8 text").description
                == "\(binary.path): cannot read the configuration: not UTF-8 text")
    }
}
