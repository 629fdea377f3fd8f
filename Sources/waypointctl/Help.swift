import ControlProtocol

/// The help texts, one per command, kept together so they read as one manual.
enum Help {
    static let overview = """
        usage: waypointctl [--socket PATH] [--help] [--version] COMMAND [ARGUMENTS]

        Guiding (talks to waypointd):
          go LAT LON [--name NAME]     guide to a place
          go --recent N                guide to recent destination N
          go NAME                      guide to a named place (or a recent one of that name)
          clear                        stop guiding
          status [--json]              state, heading, destination, distance, fix, motor
          watch [--hz HZ] [--plain]    live compass until interrupted
          recent                       the recent destinations, numbered for go --recent
          place [list|add|mark|rename|remove]   named places: place mark Car keeps where you are
          route [load FILE.gpx|next|previous|reverse|clear]   follow a GPX route waypoint by waypoint
          back [--minutes N]           guide back along the breadcrumb trail
          track export|clear           the breadcrumb trail as GPX on standard output, or forget it
          mute on|off                  silence or restore guidance vibration
          buzz [PATTERN]               play a pattern on the motor
          calibrate [ACTION]           magnetometer calibration: start, finish, cancel, status, reset

        Offline navigation math:
          bearing FROM TO              bearing and distance between two points (WGS84)
          bearing --batch              stdin "lat1 lon1 lat2 lon2" -> stdout "azi1 azi2 s12"
          declination LAT LON          magnetic declination and field (WMM2025)
          declination --batch          stdin "year height_km lat lon" -> stdout "D I H X Y Z F"

        Coordinates can be written as 48.8584 2.2945, 48.8584,2.2945, 48.8584N 2.2945E,
        48°51'30.2"N 2°17'40.2"E, 48 51.503 N 2 17.670 E or geo:48.8584,2.2945.

        --socket PATH  the daemon's control socket, before or after the command
                       (default: $WAYPOINT_SOCKET if set, else \(SocketPath.defaultPath))

        Run 'waypointctl COMMAND --help' for the details of one command.
        Exit status: 0 ok, 1 the daemon answered an error (or a batch line was bad),
        64 usage error, 65 a file that is not what it should be, 66 a file that is missing,
        69 daemon unreachable.
        """

    /// The line every daemon command's help ends with.
    private static let socketOption = """
        --socket PATH  the daemon's control socket (default: $WAYPOINT_SOCKET if set,
                       else \(SocketPath.defaultPath))
        """

    static let go = """
        usage: waypointctl go LAT LON [--name NAME]
               waypointctl go COORDINATE [--name NAME]
               waypointctl go --recent N
               waypointctl go NAME | go --place NAME

        Guide to a destination. The daemon confirms with the accepted pattern and from then
        on pulses the motor while the wearer faces the destination. COORDINATE is any form
        under Coordinates in 'waypointctl --help'; quote it when it contains spaces:
          waypointctl go 48.8584 2.2945 --name "Eiffel Tower"
          waypointctl go "48°51'30.2\\"N 2°17'40.2\\"E"
          waypointctl go geo:48.8584,2.2945

        --name NAME    what to call it in status and recent: at most \(ControlProtocol.PlaceName.maximumLength) characters,
                       spaces around it trimmed, no control characters
        A latitude past ±90° whose swap is in range is refused with the order spelled out;
        a destination thousands of km away that would be near the current fix swapped gets
        a note on standard error.
        --recent N     guide to destination N of 'waypointctl recent' (1 is the most recent)
        --place NAME   guide to the place of 'waypointctl place list' called NAME, in any
                       case, else the recent destination of that name; a near miss gets a
                       suggestion. A bare NAME (one that no coordinate reading explains) does
                       the same: waypointctl go bakery
        Guiding somewhere drops a route being followed.
        \(socketOption)
        """

    static let place = """
        usage: waypointctl place [list]
               waypointctl place add NAME COORDINATE [--radius M] [--replace]
               waypointctl place mark NAME [--seconds S] [--radius M] [--replace]
               waypointctl place rename NAME NEW_NAME
               waypointctl place remove NAME

        Named places, kept by the daemon across restarts (at most 500); names keep the
        rules of go --name and match in any case. 'waypointctl go NAME' guides to one.

        list           every place, in the order they were made
        add            a place at COORDINATE (any form under Coordinates in --help)
        mark           a place where you stand: the daemon averages the GPS fixes of the S
                       seconds this command waits (default \(Int(ControlProtocol.PlaceAction.defaultMarkSeconds)), at most \(Int(ControlProtocol.PlaceAction.maximumMarkSeconds))) and prints the
                       place with its error, the radius holding the truth with about 95 %
                       confidence (a receiver's error drifts over a minute, so a few seconds
                       of averaging improve on one fix only a little, and the error says so)
        --radius M     this place's own arrival distance, \(Int(ControlProtocol.ControlRequest.arrivalRadiusRangeMeters.lowerBound)) to \(Int(ControlProtocol.ControlRequest.arrivalRadiusRangeMeters.upperBound)) metres (default: the config's)
        --replace      replace the place of that name instead of refusing
        \(socketOption)
        """

    static let back = """
        usage: waypointctl back [--minutes N]

        Guide back the way you came: the breadcrumb trail since the daemon started (or of the
        last N minutes), in reverse, simplified to waypoints about 20 m apart, followed as a
        route (see 'waypointctl route --help'); the last waypoint is the start of the trail.

        --minutes N    the trail of the last N minutes, 1 to \(Int(ControlProtocol.ControlRequest.maximumBackMinutes))
        \(socketOption)
        """

    static let track = """
        usage: waypointctl track export [--since TIME] [--until TIME] > walk.gpx
               waypointctl track clear

        While it has a fix the daemon keeps a breadcrumb trail in its state directory: a
        point every 5 m walked, or every 30 s standing, written once a minute (a power cut
        loses at most the last minute), at most two files of 4 MiB (days of walking; the
        oldest goes first). export writes it as GPX 1.1 on standard output: one track, a new
        segment after a gap or a lost fix, with times, elevation, hdop and satellites; the
        count of points goes to standard error. clear forgets it.

        --since TIME   from this time: UTC such as 2026-12-02T08:00:00Z, or a time ago
                       such as 90s, 30m, 2h or 1d
        --until TIME   up to this time, the same way
        \(socketOption)
        """

    static let route = """
        usage: waypointctl route [show]
               waypointctl route load FILE.gpx [--name NAME]
               waypointctl route next|previous|reverse|clear

        Follow a route waypoint by waypoint. load reads a GPX 1.1 or 1.0 file (from OsmAnd,
        Komoot, gpx.studio, gpsbabel…): its first route (rte), else its first track
        simplified to waypoints about 20 m or more apart, else its waypoints (wpt) in order. The
        daemon guides to each waypoint in turn and moves on when you reach it or clearly pass
        it, with the waypoint-reached pattern (long, short); arrived plays only at the last.
        The route and how far you are survive a restart of the daemon.

        show           the route, the waypoint being walked to and the distance left
        next, previous skip a waypoint, or go back to the one before
        reverse        walk the route the other way, back to the waypoint last passed
        clear          drop the route and stop guiding
        --name NAME    the route's name (default: the file's)
        \(socketOption)
        """

    static let clear = """
        usage: waypointctl clear

        Stop guiding and forget the destination (it stays in the recent list). The motor
        goes silent.

        \(socketOption)
        """

    static let status = """
        usage: waypointctl status [--json]

        What the daemon knows now, one "label: value" line each: state, heading (true, with
        its compass point), destination (name and position), distance, bearing, turn (the
        alignment error: how far and which way to turn to face the destination), GPS fix
        (mode and estimated error), position, motor drive (intensity and PWM duty),
        calibration and mute. States: idle (no destination), no-fix, no-heading, guiding,
        arrived.

        --json         print the daemon's STATUS line as it came, for scripts
        \(socketOption)
        """

    static let watch = """
        usage: waypointctl watch [--hz HZ] [--plain]

        Follow the daemon live until Ctrl-C. On a terminal, a compass redrawn in place: the
        ring turns with the wearer (the top, under v, is where they face), N, E, S and W
        inside it mark the directions, o is the wearer, * on the ring the destination and #
        the zone where the motor answers; below it the state, the destination's distance,
        bearing and the turn to make, and the motor's intensity as a bar. Without a heading,
        or while not guiding, the ring is drawn empty and no turn is shown.

        When standard output is not a terminal, or with --plain, lines instead, for logs and
        screen readers: a line at once when the state, the destination or the pattern
        playing changes; when only the numbers change, at most one line every
        \(Int(PlainWatchFilter.secondsBetweenChanges)) seconds; with nothing new, the line again every \(Int(PlainWatchFilter.repeatSeconds)) seconds.
        Exits 0 when interrupted, 69 if the daemon stops answering.

        --hz HZ        updates a second, \(ControlProtocol.ControlRequest.minimumWatchHertz) to \(Int(ControlProtocol.ControlRequest.maximumWatchHertz)) (default \(Int(ControlProtocol.ControlRequest.defaultWatchHertz)))
        --plain        lines even on a terminal (for screen readers)
        \(socketOption)
        """

    static let recent = """
        usage: waypointctl recent

        The most recent destinations, newest first, numbered for 'waypointctl go --recent N'.

        \(socketOption)
        """

    static let mute = """
        usage: waypointctl mute on|off

        on silences guidance vibration (patterns such as arrived still play); off restores
        it. The setting survives a restart of the daemon.

        \(socketOption)
        """

    static let buzz = """
        usage: waypointctl buzz [PATTERN]

        Play a pattern on the motor now, to learn it or to check the wiring. PATTERN is one of
        accepted, arrived, waypoint-reached, gps-lost, heading-unreliable, calibrated, test (default: test,
        one second at full drive).

        \(socketOption)
        """

    static let calibrate = """
        usage: waypointctl calibrate [start|finish|cancel|status|reset]

        Calibrate the magnetometer: start, then turn the device slowly through a figure
        eight, every way up, until each octant has samples; then finish to fit and store the
        calibration (if coverage is not yet enough, the daemon says what is missing and keeps
        collecting). cancel stops and keeps the calibration in use; reset forgets it. Each
        action prints the state, samples, per-octant counts, the fit's quality and a message.
        Without an action: status.

        \(socketOption)
        """

    static let bearing = """
        usage: waypointctl bearing FROM TO
               waypointctl bearing LAT1 LON1 LAT2 LON2
               waypointctl bearing --batch

        The shortest path on the WGS84 ellipsoid from FROM to TO (Karney's method, accurate
        to nanometres, including nearly antipodal points): distance, the bearing to set off
        on, and the bearing on arrival. Bearings are degrees clockwise from true north.
        Quote a coordinate that contains spaces: waypointctl bearing "48.8584 2.2945" "48.8530 2.3499"

        --batch   read "lat1 lon1 lat2 lon2" lines from standard input and write
                  "azi1 azi2 s12" lines (degrees in [-180, 180], metres, full double
                  precision), the order of GeographicLib's GeodSolve -i. A line that cannot
                  be read prints "nan nan nan" and an error on standard error with its line
                  number; the rest are still converted and the exit status is 1.
        """

    static let declination = """
        usage: waypointctl declination LAT LON [--date YYYY-MM-DD | --year Y] [--height-km H]
               waypointctl declination --batch

        The Earth's main magnetic field from the World Magnetic Model 2025 (NOAA/BGS): the
        declination (true heading = magnetic heading + declination), its 1-sigma uncertainty
        and yearly change, the inclination, the intensities and, poleward of 55 degrees, the
        grid variation. Warns in the caution (H < 6000 nT) and blackout (H < 2000 nT) zones
        near the magnetic poles, and outside the model's validity (2025.0 to 2030.0).

        --date D       the date, YYYY-MM-DD (default: today, UTC)
        --year Y       the date as a decimal year, e.g. 2026.5
        --height-km H  height above the WGS84 ellipsoid in kilometres (default 0)
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
        case "go": go
        case "clear": clear
        case "status": status
        case "watch": watch
        case "recent": recent
        case "mute": mute
        case "buzz": buzz
        case "calibrate": calibrate
        case "place": place
        case "route": route
        case "back": back
        case "track": track
        default: nil
        }
    }
}
