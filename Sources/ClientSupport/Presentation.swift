import ControlProtocol
import Geodesy

/// How numbers read for a person: rounded to what matters on foot, with units and names.
public enum Presentation {
    /// `812 m` below a kilometre, `3.21 km` below 100 km, `5 837 km` beyond.
    public static func distance(meters: Double) -> String {
        switch meters {
        case ..<1000: return DecimalFormat.fixed(meters, fractionDigits: meters < 10 ? 1 : 0) + " m"
        case ..<100_000: return DecimalFormat.fixed(meters / 1000, fractionDigits: 2) + " km"
        default: return DecimalFormat.fixed(meters / 1000, fractionDigits: 0) + " km"
        }
    }

    /// `83.4° (E, east)`: 0–360 clockwise from true north, with the compass point.
    public static func bearing(degrees: Double) -> String {
        let normalized = Angle.normalized(degrees)
        let shown = DecimalFormat.fixed(normalized, fractionDigits: 1)
        // 359.96° rounds to "360.0": show it as north's 0.0 instead.
        let text = shown == "360.0" ? "0.0" : shown
        guard let point = CompassPoint(bearingDegrees: normalized) else { return text + "°" }
        return "\(text)° (\(point.abbreviation), \(point.spokenName))"
    }

    /// `+1.16°` with an explicit sign, for quantities whose sign means a direction.
    public static func signed(_ value: Double, fractionDigits: Int, unit: String) -> String {
        let text = DecimalFormat.fixed(value, fractionDigits: fractionDigits)
        return (text.hasPrefix("-") ? text : "+" + text) + unit
    }
}

extension Presentation {
    /// `45° (NE, northeast)`: a direction in whole degrees, 0–359, with its compass point.
    public static func direction(degrees: Double) -> String {
        let whole = wholeDegrees(degrees)
        guard let point = CompassPoint(bearingDegrees: Double(whole)) else { return "\(whole)°" }
        return "\(whole)° (\(point.abbreviation), \(point.spokenName))"
    }

    /// `45° NE`: the short form, for the compass display and one-line updates.
    public static func shortDirection(degrees: Double) -> String {
        let whole = wholeDegrees(degrees)
        guard let point = compassPoint(degrees: degrees) else { return "\(whole)°" }
        return "\(whole)° \(point)"
    }

    /// `north`: the side of a street a walker is on, from the direction in which its nearest
    /// point lies (a street due south is one whose north side the walker is on): north, east,
    /// south or west, since a street has two sides and a walker turns by quarters.
    public static func side(streetBearingDegrees: Double) -> String {
        ["north", "east", "south", "west"][Int((Angle.normalized(streetBearingDegrees + 180) + 45) / 90) % 4]
    }

    /// `NE`: the compass point of a direction rounded as ``wholeDegrees(_:)`` rounds it.
    public static func compassPoint(degrees: Double) -> String? {
        CompassPoint(bearingDegrees: Double(wholeDegrees(degrees)))?.abbreviation
    }

    /// A direction rounded to whole degrees in 0…359 (359.6° is north's 0°).
    public static func wholeDegrees(_ degrees: Double) -> Int {
        guard degrees.isFinite else { return 0 }
        return Int(Angle.normalized(degrees).rounded()) % 360
    }

    /// Which way to turn for an alignment error (positive: the destination is to the right):
    /// `17° right`, `4° left`, `on course` when it rounds to 0°, `180°, behind`.
    public static func turn(errorDegrees: Double) -> String {
        let whole = Int(Angle.signedNormalized(errorDegrees).rounded())
        switch whole {
        case 0: return "on course"
        case 180, -180: return "180°, behind"
        case 1...: return "\(whole)° right"
        default: return "\(-whole)° left"
        }
    }

    /// `55%` for 0.55.
    public static func percent(_ fraction: Double) -> String {
        DecimalFormat.fixed(fraction * 100, fractionDigits: 0) + "%"
    }

    /// The guidance state with a few words on what it means, e.g. `no-fix (no usable GPS fix)`.
    public static func state(_ state: String) -> String {
        switch state {
        case "idle": "idle (no destination)"
        case "no-fix": "no-fix (no usable GPS fix)"
        case "no-heading": "no-heading (compass unreliable)"
        case "guiding": "guiding"
        case "arrived": "arrived"
        default: state
        }
    }

    /// Why a heading is not shown, in words: `no IMU`, `not calibrated`, …; nil when it is
    /// shown or nothing is known of it (no sample yet).
    public static func headingProblem(_ heading: StatusReport.Heading) -> String? {
        guard !heading.isReliable else { return nil }
        switch heading.problem {
        case "no-imu": return "no IMU"
        case "not-calibrated": return "not calibrated"
        case "interference": return "magnetic interference"
        case "pointing-vertical": return "pointing up or down"
        case "no-solution": return "no solution"
        case "magnetic-blackout": return "too near a magnetic pole"
        case let problem?: return problem
        case nil: return heading.trueDegrees == nil ? nil : "unreliable"
        }
    }

    /// A GPS mode in words: 1 `no fix`, 2 `2D`, 3 `3D`.
    public static func fixMode(_ mode: Int) -> String {
        switch mode {
        case 2: "2D"
        case 3: "3D"
        default: "no fix"
        }
    }

    /// A destination from a reply as ``place(latitudeDegrees:longitudeDegrees:name:)`` writes
    /// it, with `(arrival within 8 m)` when the reply carries a radius (a place's own; in
    /// `STATUS` always, the one in effect).
    public static func place(_ destination: DestinationReport) -> String {
        let text = place(latitudeDegrees: destination.latitude, longitudeDegrees: destination.longitude, name: destination.name)
        return destination.radiusMeters.map { text + " (arrival within \(distance(meters: $0)))" } ?? text
    }

    /// `5 s`, `2.5 s`.
    public static func seconds(_ value: Double) -> String {
        DecimalFormat.short(value, maximumFractionDigits: 1) + " s"
    }

    /// A place as its name and position, or the position alone: `Eiffel Tower, 48°51'30.2"N 2°17'40.2"E`.
    public static func place(latitudeDegrees: Double, longitudeDegrees: Double, name: String?) -> String {
        let position = Coordinate(uncheckedLatitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees)
            .formattedDegreesMinutesSeconds()
        guard let name, !name.isEmpty else { return position }
        return "\(name), \(position)"
    }
}
