// waypointctl: the client of waypointd, and offline navigation math.
@preconcurrency import Glibc

let socketEnvironment = getenv(SocketPath.environmentVariable).map { String(cString: $0) }
exit(Waypointctl.run(Array(CommandLine.arguments.dropFirst()), socketEnvironment: socketEnvironment).rawValue)
