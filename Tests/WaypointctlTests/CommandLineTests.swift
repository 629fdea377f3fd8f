import Foundation
import Testing
import TestSupport

/// The built `waypointctl` as a person uses it: help, exit statuses, human output, mistakes.
@Suite("waypointctl command line", .timeLimit(.minutes(5)))
struct CommandLineTests {
    private func run(_ arguments: [String], input: String = "") throws -> ExternalTool.Output {
        let waypointctl = try ExternalTool.built("waypointctl")
        return try ExternalTool.run(waypointctl, arguments, input: input)
    }

    @Test("help and version exit 0; no command and unknown commands exit 64 with a hint")
    func helpAndUsage() throws {
        let help = try run(["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.hasPrefix("usage: waypointctl [--socket PATH] [--help] [--version] COMMAND [ARGUMENTS]\n"))
        #expect(help.standardOutput.contains("bearing FROM TO") && help.standardOutput.contains("declination PLACE")
            && help.standardOutput.contains("locate PLACE") && help.standardOutput.contains("V75V+8Q"))
        for arguments in [["bearing", "--help"], ["help", "bearing"]] {
            let bearingHelp = try run(arguments)
            #expect(bearingHelp.status == 0)
            #expect(bearingHelp.standardOutput.hasPrefix("usage: waypointctl bearing FROM TO [--near COORDINATE]\n"))
        }
        let declinationHelp = try run(["declination", "-h"])
        #expect(declinationHelp.standardOutput.hasPrefix("usage: waypointctl declination PLACE"))
        let version = try run(["--version"])
        #expect(version.status == 0)
        #expect(version.standardOutput == "waypointctl 0.1.0\n")

        let none = try run([])
        #expect(none.status == 64)
        #expect(none.standardError == "waypointctl: no command given\nwaypointctl: Try 'waypointctl --help'.\n")
        let unknown = try run(["frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.hasPrefix("waypointctl: unknown command 'frobnicate'\n"))
        let badOption = try run(["bearing", "--fast", "1", "2", "3", "4"])
        #expect(badOption.status == 64)
        #expect(badOption.standardError.contains("unknown option '--fast' for 'bearing'"))
        #expect(badOption.standardError.contains("Try 'waypointctl bearing --help'."))
    }

    @Test("bearing prints distance, bearings and compass points for any coordinate form")
    func bearing() throws {
        // Eiffel Tower to Notre-Dame de Paris; GeodSolve -i gives 98.38174987 98.42346911 4109.528.
        let forms: [[String]] = [
            ["48.8584 2.2945", "48.8530 2.3499"],
            ["48.8584", "2.2945", "48.8530", "2.3499"],
            ["geo:48.8584,2.2945", "48°51'10.8\"N 2°20'59.64\"E"],
        ]
        for arguments in forms {
            let output = try run(["bearing"] + arguments)
            #expect(output.status == 0, "\(output.standardError)")
            let lines = output.standardOutput.split(separator: "\n")
            #expect(lines.count == 5)
            #expect(lines[0] == "from             48°51'30.2\"N 2°17'40.2\"E")
            #expect(lines[2] == "distance         4.11 km")
            #expect(lines[3] == "initial bearing  98.4° (E, east)")
        }
        // Sydney Opera House to the Harbour Bridge; GeodSolve -i: -39.83998044 -39.83747355 650.047.
        let southern = try run(["bearing", "-33.8568", "151.2153", "-33.8523", "151.2108"])
        #expect(southern.status == 0)
        #expect(southern.standardOutput.contains("distance         650 m"))
        #expect(southern.standardOutput.contains("initial bearing  320.2° (NW, northwest)"))
        let same = try run(["bearing", "1 2", "1 2"])
        #expect(same.standardOutput.contains("distance         0.0 m"))
        #expect(same.standardOutput.contains("bearing          none: the two points are the same"))
    }

    @Test("bearing rejects bad coordinates with the parser's reason and exit 64")
    func bearingErrors() throws {
        let cases: [([String], String)] = [
            (["91 0", "0 0"], "FROM '91 0': latitude 91 is out of range"),
            (["0 0", "0 181"], "TO '0 181': longitude 181 is out of range"),
            (["0 0", "geo:1,2;crs=nad27"], "TO 'geo:1,2;crs=nad27'"),
            (["1", "2", "3"], "got 3 arguments"),
            (["--batch", "1 2"], "takes no coordinates"),
        ]
        for (arguments, message) in cases {
            let output = try run(["bearing"] + arguments)
            #expect(output.status == 64, "\(arguments)")
            #expect(output.standardError.contains(message), "\(arguments): \(output.standardError)")
            #expect(output.standardOutput.isEmpty)
        }
    }

    @Test("declination prints the field with warnings for the caution zone and dates outside the model")
    func declination() throws {
        // NOAA's test point 4: 2025.0, 65 km, 43°N 93°E → D 0.50°, I 64.10°, F 55626.6 nT,
        // dD/dt −0.019813°/yr.
        let point = try run(["declination", "43", "93", "--year", "2025", "--height-km", "65"])
        #expect(point.status == 0, "\(point.standardError)")
        #expect(point.standardOutput.contains("declination      +0.50° (east) ± "))
        #expect(point.standardOutput.contains(", changing -0.02°/yr"))
        #expect(point.standardOutput.contains("inclination      +64.10°"))
        #expect(point.standardOutput.contains("field            total 55627 nT"))
        #expect(point.standardOutput.contains("true heading = magnetic heading + 0.50°"))
        #expect(!point.standardOutput.contains("warning"))
        // 2026-07-02 is day 183 of 365: 2026 + 182/365 = 2026.4986 (NOAA's convention).
        let dated = try run(["declination", "47.6062", "-122.3321", "--date", "2026-07-02"])
        #expect(dated.standardOutput.contains("date             2026.499 (WMM-2025, valid 2025.0–2030.0)"))

        let resolute = try run(["declination", "74.6973 -94.8297", "--year", "2026.5"])
        #expect(resolute.standardOutput.contains("warning          caution zone"))
        #expect(resolute.standardOutput.contains("grid variation"))
        let north = try run(["declination", "89 -121", "--year", "2025"])
        #expect(north.standardOutput.contains("warning          blackout zone"))
        let future = try run(["declination", "0", "0", "--year", "2031"])
        #expect(future.status == 0)
        #expect(future.standardOutput.contains("warning          2031.000 is outside the model's validity"))
    }

    @Test("declination rejects bad dates, years, heights and places with exit 64")
    func declinationErrors() throws {
        let cases: [([String], String)] = [
            (["48", "2", "--date", "2026-02-30"], "--date '2026-02-30': day 30"),
            (["48", "2", "--date", "July 4"], "--date 'July 4' is not a date in the form YYYY-MM-DD"),
            (["48", "2", "--year", "nan"], "--year 'nan' is not a plain decimal number"),
            (["48", "2", "--year", "2026", "--date", "2026-01-01"], "give --date or --year, not both"),
            (["48", "2", "--height-km", "1e999"], "--height-km '1e999' is not a plain decimal number"),
            (["48", "2", "--date"], "--date needs a value"),
            (["95", "2"], "latitude 95 is out of range"),
            ([], "declination needs a place"),
        ]
        for (arguments, message) in cases {
            let output = try run(["declination"] + arguments)
            #expect(output.status == 64, "\(arguments)")
            #expect(output.standardError.contains(message), "\(arguments): \(output.standardError)")
        }
    }
}
