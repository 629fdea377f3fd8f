import ClientSupport
import CommandLineSupport
@preconcurrency import Glibc
import Geodesy
import Geomagnetism

/// `waypointctl declination`: the Earth's magnetic field from the World Magnetic Model 2025 at
/// a place and date, offline. True heading = magnetic heading + declination.
enum DeclinationCommand {
    static let name = "declination"
    /// Its options that take a value, and its flags (the bash completion offers them).
    static let valueOptions = ["--date", "--year", "--height-km", "--near"]
    static let flagOptions = ["--batch"]
    static let model = MagneticModel.wmm2025

    static func run(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(
            words, valueOptions: Set(valueOptions), flagOptions: Set(flagOptions), command: name)
        if arguments.has("--batch") {
            guard arguments.positionals.isEmpty, arguments.value("--date") == nil,
                arguments.value("--year") == nil, arguments.value("--height-km") == nil, arguments.value("--near") == nil
            else {
                throw UsageError(
                    "--batch reads \"year height_km lat lon\" lines from standard input and takes nothing else",
                    command: name)
            }
            return runBatch()
        }
        let place = try self.place(arguments.positionals, near: try PlaceText.near(arguments, command: name))
        let year = try decimalYear(date: arguments.value("--date"), year: arguments.value("--year"))
        let heightKilometers = try number(arguments.value("--height-km") ?? "0", option: "--height-km")
        let field = model.field(
            latitudeDegrees: place.latitudeDegrees, longitudeDegrees: place.longitudeDegrees,
            heightAboveEllipsoidKilometers: heightKilometers, decimalYear: year)
        print(field, place: place, heightKilometers: heightKilometers, year: year)
        return .success
    }

    private static func print(_ field: MagneticField, place: Coordinate, heightKilometers: Double, year: Double) {
        let nanotesla = { (value: Double) in DecimalFormat.fixed(value, fractionDigits: 0) + " nT" }
        let declination = field.declinationDegrees
        let side = declination > 0 ? "east" : declination < 0 ? "west" : "none"
        Console.output(
            "place            \(place.formattedDegreesMinutesSeconds()), "
                + "\(DecimalFormat.fixed(heightKilometers, fractionDigits: 3)) km above the WGS84 ellipsoid")
        Console.output(
            "date             \(DecimalFormat.fixed(year, fractionDigits: 3)) "
                + "(\(model.name), valid \(DecimalFormat.fixed(model.validFromYear, fractionDigits: 1))"
                + "–\(DecimalFormat.fixed(model.validUntilYear, fractionDigits: 1)))")
        Console.output(
            "declination      \(Presentation.signed(declination, fractionDigits: 2, unit: "°")) (\(side))"
                + " ± \(DecimalFormat.fixed(field.declinationUncertaintyDegrees, fractionDigits: 2))°, "
                + "changing \(Presentation.signed(field.secularVariation.declinationDegreesPerYear, fractionDigits: 2, unit: "°/yr"))")
        Console.output("inclination      \(Presentation.signed(field.inclinationDegrees, fractionDigits: 2, unit: "°"))")
        Console.output(
            "field            total \(nanotesla(field.totalIntensityNanotesla)), "
                + "horizontal \(nanotesla(field.horizontalIntensityNanotesla))")
        Console.output(
            "components       north \(nanotesla(field.northNanotesla)), east \(nanotesla(field.eastNanotesla)), "
                + "down \(nanotesla(field.downNanotesla))")
        if let grid = field.gridVariationDegrees {
            Console.output("grid variation   \(Presentation.signed(grid, fractionDigits: 2, unit: "°"))")
        }
        Console.output("true heading = magnetic heading \(declination < 0 ? "-" : "+") \(DecimalFormat.fixed(abs(declination), fractionDigits: 2))°")
        switch field.zone {
        case .blackout:
            Console.output(
                "warning          blackout zone (horizontal field under 2000 nT): a compass is unreliable here")
        case .caution:
            Console.output(
                "warning          caution zone (horizontal field under 6000 nT): compass accuracy may be degraded")
        case .normal:
            break
        }
        if !field.isWithinValidity {
            Console.output(
                "warning          \(DecimalFormat.fixed(year, fractionDigits: 3)) is outside the model's validity; "
                    + "the field is extrapolated")
        }
    }

    /// The place: `LAT LON` as two arguments, or any one form `PlaceText` reads.
    private static func place(_ positionals: [String], near: Coordinate?) throws(UsageError) -> Coordinate {
        guard !positionals.isEmpty else {
            throw UsageError("declination needs a place (LAT LON, or any form under Places in --help)", command: name)
        }
        let text = positionals.joined(separator: " ")
        guard case .location(let location) = try PlaceText.read(text, near: near, fixMayHelp: false, command: name) else {
            throw UsageError("'\(text)' needs --near", command: name)
        }
        return location.coordinate
    }

    /// The decimal year from `--date YYYY-MM-DD` or `--year Y`, else today's date (UTC).
    private static func decimalYear(date: String?, year: String?) throws(UsageError) -> Double {
        switch (date, year) {
        case (.some, .some):
            throw UsageError("give --date or --year, not both", command: name)
        case (.some(let date), nil):
            let parts = date.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
            else {
                throw UsageError("--date '\(date)' is not a date in the form YYYY-MM-DD", command: name)
            }
            do throws(DecimalYearError) {
                return try DecimalYear.from(year: y, month: m, day: d)
            } catch {
                throw UsageError("--date '\(date)': \(error)", command: name)
            }
        case (nil, .some(let year)):
            return try number(year, option: "--year")
        case (nil, nil):
            var now = time(nil)
            var calendar = tm()
            gmtime_r(&now, &calendar)
            // The day is enough: the field changes by well under 0.01° a day.
            return (try? DecimalYear.from(
                year: Int(calendar.tm_year) + 1900, month: Int(calendar.tm_mon) + 1, day: Int(calendar.tm_mday)))
                ?? model.epochYear
        }
    }

    private static func number(_ text: String, option: String) throws(UsageError) -> Double {
        guard let value = Double(text), value.isFinite, text.allSatisfy({ $0.isNumber || "+-.".contains($0) }) else {
            throw UsageError("\(option) '\(text)' is not a plain decimal number", command: name)
        }
        return value
    }

    /// stdin `year height_km lat lon` → stdout `D I H X Y Z F`, the column order of NOAA's
    /// test-value file.
    private static func runBatch() -> ExitStatus {
        BatchInput.run(
            fields: [.number("year"), .number("height_km"), .latitude("lat"), .number("lon")], outputFieldCount: 7
        ) { numbers in
            let field = model.field(
                latitudeDegrees: numbers[2], longitudeDegrees: numbers[3],
                heightAboveEllipsoidKilometers: numbers[1], decimalYear: numbers[0])
            return [
                field.declinationDegrees, field.inclinationDegrees, field.horizontalIntensityNanotesla,
                field.northNanotesla, field.eastNanotesla, field.downNanotesla, field.totalIntensityNanotesla,
            ].map { "\($0)" }.joined(separator: " ")
        }
    }
}
