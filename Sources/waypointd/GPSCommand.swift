@preconcurrency import Glibc
import CommandLineSupport
import Daemon
import GPSClient

/// `waypointd gps`: prints the fixes gpsd reports, one JSON object a line, as the daemon sees
/// them (one per epoch, a lost fix once). Progress and problems go to standard error.
enum GPSCommand {
    static let help = """
        usage: waypointd gps [--server HOST:PORT] [--count N]

        Connects to gpsd and prints one JSON object per fix epoch on standard output:
        {"time":…,"mode":…,"lat":…,"lon":…,"altHAE":…,"altMSL":…,"speed":…,"track":…,"eph":…,"epd":…}
        time is ISO 8601 UTC, mode 1 no fix, 2 2D, 3 3D; null marks what is unknown. speed and
        track are the receiver's own, from the sentence that carries its course.

        --server HOST:PORT  gpsd's address (default 127.0.0.1:2947; [::1]:2947 for IPv6)
        --count N           stop after N reports (default: run until interrupted)

        Exit status: 0 after N reports; 69 when gpsd cannot be reached at all; 64 usage error.
        Once connected, a lost connection or silence is reported and retried, not fatal.
        """

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, valueOptions: ["--server", "--count"], command: "gps")
        if arguments.wantsHelp {
            print(help)
            return .success
        }
        try arguments.expectNoPositionals()
        var server = GPSServerAddress.local
        if let text = arguments.value("--server") {
            do throws(GPSServerAddressError) {
                server = try GPSServerAddress(parsing: text)
            } catch {
                throw UsageError("\(error)", command: "gps")
            }
        }
        var count: Int?
        if let text = arguments.value("--count") {
            guard let number = Int(text), number > 0 else {
                throw UsageError("--count '\(text)' is not a positive whole number", command: "gps")
            }
            count = number
        }
        return await stream(from: server, count: count)
    }

    private static func stream(from server: GPSServerAddress, count: Int?) async -> ExitStatus {
        var printed = 0
        var everConnected = false
        for await event in LibGPSSource(server: server).events() {
            switch event {
            case .connected(let server):
                everConnected = true
                note("connected to gpsd at \(server)")
            case .fix(let fix):
                print(FixJSON.encode(fix))
                // A reader on a pipe wants each fix as it comes, not when a buffer fills.
                fflush(stdout)
                printed += 1
                if let count, printed >= count { return .success }
            case .noData(let seconds):
                note("no data from gpsd at \(server) for \(Int(seconds.rounded())) s")
            case .failure(let error):
                note("\(error)")
                if !everConnected, case .connectFailed = error { return .unavailable }
            }
        }
        return .success
    }

    private static func note(_ message: String) {
        fputs("waypointd: \(message)\n", stderr)
    }
}
