@preconcurrency import Glibc
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

    static func run(_ words: [String]) async -> Int32 {
        var server = GPSServerAddress.local
        var count: Int?
        var index = 0
        func fail(_ message: String) -> Int32 {
            fputs("waypointd: \(message)\nTry 'waypointd gps --help'.\n", stderr)
            return 64
        }
        while index < words.count {
            let word = words[index]
            index += 1
            switch word {
            case "--help", "-h":
                print(help)
                return 0
            case "--server", "--count":
                guard index < words.count else { return fail("\(word) needs a value") }
                let value = words[index]
                index += 1
                if word == "--server" {
                    do throws(GPSServerAddressError) {
                        server = try GPSServerAddress(parsing: value)
                    } catch {
                        return fail("\(error)")
                    }
                } else {
                    guard let number = Int(value), number > 0 else {
                        return fail("--count '\(value)' is not a positive whole number")
                    }
                    count = number
                }
            default:
                return fail("unknown argument '\(word)' for 'gps'")
            }
        }
        return await stream(from: server, count: count)
    }

    private static func stream(from server: GPSServerAddress, count: Int?) async -> Int32 {
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
                if let count, printed >= count { return 0 }
            case .noData(let seconds):
                note("no data from gpsd at \(server) for \(Int(seconds.rounded())) s")
            case .failure(let error):
                note("\(error)")
                if !everConnected, case .connectFailed = error { return 69 }
            }
        }
        return 0
    }

    private static func note(_ message: String) {
        fputs("waypointd: \(message)\n", stderr)
    }
}
