import Testing

@testable import GPSClient

@Suite("gpsd addresses", .timeLimit(.minutes(10)))
struct GPSServerAddressTests {
    @Test(
        "accepted forms",
        arguments: [
            ("127.0.0.1:2948", "127.0.0.1", 2948), ("localhost", "localhost", 2947), ("gps.local:1", "gps.local", 1),
            ("[::1]:3000", "::1", 3000), ("[fe80::1]", "fe80::1", 2947), ("my-pi_2:65535", "my-pi_2", 65535),
        ] as [(String, String, Int)])
    func accepted(text: String, host: String, port: Int) throws {
        let address = try GPSServerAddress(parsing: text)
        #expect(address.host == host)
        #expect(Int(address.port) == port)
        #expect(try GPSServerAddress(parsing: address.description) == address)
    }

    @Test(
        "rejected forms name the problem",
        arguments: [
            ("", "the host is empty"), (":2947", "the host is empty"), ("host:", "the port '' is not a number"),
            ("host:0", "from 1 to 65535"), ("host:65536", "from 1 to 65535"), ("host:http", "the port 'http'"),
            ("::1", "in brackets"), ("[::1", "closing ']'"), ("[::1]x", "expected ':PORT' after ']'"),
            ("a b", "'a b' is not a host name or address"), ("höst", "is not a host name"),
        ])
    func rejected(text: String, message: String) {
        #expect {
            _ = try GPSServerAddress(parsing: text)
        } throws: { error in
            "\(error)".hasPrefix("bad gpsd address '\(text)': ") && "\(error)".contains(message)
        }
    }
}
