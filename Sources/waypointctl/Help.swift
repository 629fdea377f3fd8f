import ControlProtocol

/// The help texts, one per command, kept together so they read as one manual.
enum Help {
    static var overview: String {
        """
        usage: waypointctl [--socket PATH] [--help] [--version] COMMAND [ARGUMENTS]

        Guiding (talks to waypointd):
        \(DaemonCommand.table.map(\.overview).joined(separator: "\n"))

        Offline navigation math:
          locate PLACE                 what a place's text means: coordinates, name, source
          bearing FROM TO              bearing and distance between two points (WGS84)
          bearing --batch              stdin "lat1 lon1 lat2 lon2" -> stdout "azi1 azi2 s12"
          declination PLACE            magnetic declination and field (WMM2025)
          declination --batch          stdin "year height_km lat lon" -> stdout "D I H X Y Z F"

        Places:
        \(PlaceText.forms)

        --socket PATH  the daemon's control socket, before or after the command
                       (default: $WAYPOINT_SOCKET if set, else \(SocketPath.defaultPath))

        Run 'waypointctl COMMAND --help' for the details of one command.
        Exit status: 0 ok, 1 the daemon answered an error (or a batch line was bad),
        64 usage error, 65 a file or a place that is not what it should be, 66 a file that is missing,
        69 daemon unreachable.
        """
    }

    static let bearing = """
        usage: waypointctl bearing FROM TO [--near COORDINATE]
               waypointctl bearing LAT1 LON1 LAT2 LON2
               waypointctl bearing --batch

        The shortest path on the WGS84 ellipsoid from FROM to TO (Karney's method, accurate
        to nanometres, including nearly antipodal points): distance, the bearing to set off
        on, and the bearing on arrival. Bearings are degrees clockwise from true north.
        FROM and TO are places in any form under Places in 'waypointctl --help'; quote one
        that contains spaces: waypointctl bearing "48.8584 2.2945" "48.8530 2.3499"

        --near C  where a short plus code is completed

        --batch   read "lat1 lon1 lat2 lon2" lines from standard input and write
                  "azi1 azi2 s12" lines (degrees in [-180, 180], metres, full double
                  precision), the order of GeographicLib's GeodSolve -i. A line that cannot
                  be read prints "nan nan nan" and an error on standard error with its line
                  number; the rest are still converted and the exit status is 1.
        """

    static let declination = """
        usage: waypointctl declination PLACE [--date YYYY-MM-DD | --year Y] [--height-km H] [--near COORDINATE]
               waypointctl declination --batch

        The Earth's main magnetic field from the World Magnetic Model 2025 (NOAA/BGS): the
        declination (true heading = magnetic heading + declination), its 1-sigma uncertainty
        and yearly change, the inclination, the intensities and, poleward of 55 degrees, the
        grid variation. Warns in the caution (H < 6000 nT) and blackout (H < 2000 nT) zones
        near the magnetic poles, and outside the model's validity (2025.0 to 2030.0).

        --date D       the date, YYYY-MM-DD (default: today, UTC)
        --year Y       the date as a decimal year, e.g. 2026.5
        --height-km H  height above the WGS84 ellipsoid in kilometres (default 0)
        --near C       where a short plus code is completed
        --batch        read "year height_km lat lon" lines from standard input and write
                       "D I H X Y Z F" lines (degrees, nanotesla, full double precision), the
                       column order of NOAA's test values. A bad line prints seven nans and an
                       error with its line number; the exit status is then 1.
        """

    static var version: String { "waypointctl \(Release.version)" }

    /// The help of one command, or nil when the command has none.
    static func text(for command: String) -> String? {
        switch command {
        case BearingCommand.name: bearing
        case DeclinationCommand.name: declination
        case LocateCommand.name: LocateCommand.help
        default: DaemonCommand.table.first { $0.name == command }?.help
        }
    }
}
