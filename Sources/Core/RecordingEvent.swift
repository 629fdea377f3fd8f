import ControlProtocol
import Geodesy
import Heading
import TextFormats

/// One line of a recording (DESIGN.md §4): JSON Lines, one event a line, `t` in seconds.
///
/// ```
/// {"t":0.00,"imu":{"mag":[x,y,z],"acc":[x,y,z],"gyro":[x,y,z]}}     body frame, µT, g, °/s; gyro optional
/// {"t":0.50,"fix":{"time":"…","mode":3,"lat":…,"lon":…,"altHAE":…,"speed":…,"track":…,"eph":…,"epd":…}}
/// {"t":0.00,"destination":{"lat":…,"lon":…,"name":"…"}}             or "destination":null to clear
/// {"t":0.00,"calibration":{"offset":[bx,by,bz],"matrix":[[…],[…],[…]]}}   or "calibration":null after a reset
/// {"t":0.00,"muted":true}                                            guidance vibration muted (or paused to calibrate)
/// ```
public struct RecordingEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        case imu(IMUSample)
        case fix(Fix)
        case destination(Coordinate?, name: String?)
        case calibration(MagneticCalibration?)
        case muted(Bool)
    }

    /// Seconds since the start of the recording.
    public var seconds: Double
    /// The event.
    public var kind: Kind

    /// An event from its parts.
    public init(seconds: Double, kind: Kind) {
        self.seconds = seconds
        self.kind = kind
    }
}

/// Why a recording line could not be read: its line number and what was wrong.
public struct RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}

extension RecordingEvent {
    /// Parses one line.
    /// - Throws: `RecordingError` naming the field that is missing or wrong.
    public init(parsing text: String, line: Int) throws(RecordingError) {
        func fail(_ message: String) -> RecordingError { RecordingError(line: line, message: message) }
        let parsed: JSONValue
        do throws(JSONSyntaxError) {
            parsed = try JSONParser.parse(text.utf8)
        } catch {
            // Replay's own message, with the line number; scripts and tests match it.
            throw fail("not a JSON object")
        }
        guard let object = parsed.object else { throw fail("not a JSON object") }
        guard let t = Self.number(object["t"]), t >= 0 else { throw fail("\"t\" must be a non-negative number of seconds") }
        if let imu = object["imu"] {
            guard let imu = imu.object else { throw fail("\"imu\" must be an object") }
            guard let mag = Self.vector(imu["mag"]) else { throw fail("\"imu.mag\" must be three numbers (µT)") }
            guard let acc = Self.vector(imu["acc"]) else { throw fail("\"imu.acc\" must be three numbers (g)") }
            var gyro: Vector3?
            if let value = imu["gyro"], value != .null {
                guard let parsed = Self.vector(value) else { throw fail("\"imu.gyro\" must be three numbers (°/s)") }
                gyro = parsed
            }
            self.init(seconds: t, kind: .imu(IMUSample(magneticMicrotesla: mag, accelerationG: acc, angularRateDegreesPerSecond: gyro)))
        } else if let fix = object["fix"] {
            guard let fix = fix.object else { throw fail("\"fix\" must be an object") }
            self.init(seconds: t, kind: .fix(try Self.fix(fix, fail: fail)))
        } else if let destination = object["destination"] {
            if destination == .null {
                self.init(seconds: t, kind: .destination(nil, name: nil))
            } else {
                guard let destination = destination.object,
                    let lat = Self.number(destination["lat"]), let lon = Self.number(destination["lon"])
                else { throw fail("\"destination\" must have numeric \"lat\" and \"lon\", or be null") }
                do throws(CoordinateParseError) {
                    let coordinate = try Coordinate(latitudeDegrees: lat, longitudeDegrees: lon)
                    self.init(seconds: t, kind: .destination(coordinate, name: destination["name"]?.string))
                } catch {
                    throw fail("destination: \(error)")
                }
            }
        } else if let calibration = object["calibration"], calibration == .null {
            self.init(seconds: t, kind: .calibration(nil))
        } else if let muted = object["muted"] {
            guard let muted = muted.bool else { throw fail("\"muted\" must be true or false") }
            self.init(seconds: t, kind: .muted(muted))
        } else if let calibration = object["calibration"] {
            guard let calibration = calibration.object, let offset = Self.vector(calibration["offset"]),
                let rows = calibration["matrix"]?.array, rows.count == 3,
                let matrix = Matrix3(rows.compactMap { Self.vector($0).map { [$0.x, $0.y, $0.z] } })
            else { throw fail("\"calibration\" needs \"offset\" (three numbers) and \"matrix\" (three rows of three)") }
            self.init(seconds: t, kind: .calibration(MagneticCalibration(offsetMicrotesla: offset, matrix: matrix)))
        } else {
            throw fail("no event: expected one of \"imu\", \"fix\", \"destination\", \"calibration\", \"muted\"")
        }
    }

    private static func number(_ value: JSONValue?) -> Double? {
        guard let number = value?.number, number.isFinite else { return nil }
        return number
    }

    private static func vector(_ value: JSONValue?) -> Vector3? {
        guard let array = value?.array, array.count == 3 else { return nil }
        let numbers = array.compactMap(number)
        return numbers.count == 3 ? Vector3(numbers[0], numbers[1], numbers[2]) : nil
    }

    private static func fix(_ object: [String: JSONValue], fail: (String) -> RecordingError) throws(RecordingError) -> Fix {
        guard let modeNumber = number(object["mode"]).flatMap({ Int(exactly: $0) }), let mode = Fix.Mode(rawValue: max(1, modeNumber)), (0...3).contains(modeNumber)
        else { throw fail("\"fix.mode\" must be 0, 1, 2 or 3") }
        var fix = Fix(mode: mode)
        if let time = object["time"]?.string {
            guard let parsed = UTCTime(iso8601: time) else { throw fail("\"fix.time\" '\(time)' is not ISO 8601 UTC") }
            fix.time = parsed
        }
        if mode != .noFix {
            guard let lat = number(object["lat"]), let lon = number(object["lon"]) else {
                throw fail("a fix with mode \(modeNumber) needs numeric \"lat\" and \"lon\"")
            }
            do throws(CoordinateParseError) {
                fix.coordinate = try Coordinate(latitudeDegrees: lat, longitudeDegrees: lon)
            } catch {
                throw fail("fix: \(error)")
            }
        }
        fix.altitudeHAEMeters = number(object["altHAE"])
        fix.altitudeMSLMeters = number(object["altMSL"])
        fix.speedMetersPerSecond = number(object["speed"])
        fix.trackDegrees = number(object["track"])
        fix.horizontalErrorMeters = number(object["eph"])
        fix.trackErrorDegrees = number(object["epd"])
        return fix
    }
}
