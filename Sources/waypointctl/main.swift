// waypointctl: the client of waypointd, and offline navigation math.
@preconcurrency import Glibc

exit(Waypointctl.run(Array(CommandLine.arguments.dropFirst())).rawValue)
