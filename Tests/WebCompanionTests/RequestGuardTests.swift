import Testing
import WebCompanion

@Suite(.timeLimit(.minutes(5))) struct RequestGuardTests {
    static let address: ListenAddress = {
        var reason = ""
        return ListenAddress("192.168.43.20:8740", reason: &reason)!
    }()

    @Test func aForeignHostIsMisdirected() {
        let guardian = RequestGuard(address: Self.address, names: ["waypoint.local"], tls: false)
        for host in ["evil.example", "evil.example:8740", "192.168.43.20", "127.0.0.1:8740", ""] {
            let refusal = guardian.refusal(of: HTTPRequest(method: "GET", path: "/api/status", headers: ["host": host]))
            #expect(refusal?.status == 421, "Host: \(host)")
        }
        #expect(guardian.refusal(of: HTTPRequest(method: "GET", path: "/"))?.status == 421, "no Host at all")
        for host in ["192.168.43.20:8740", "WAYPOINT.local:8740"] {
            #expect(guardian.refusal(of: HTTPRequest(method: "GET", path: "/", headers: ["host": host])) == nil, "Host: \(host)")
        }
    }

    @Test func aForeignOriginMayNotChangeAnything() {
        let guardian = RequestGuard(address: Self.address, names: [], tls: false)
        let host = ["host": "192.168.43.20:8740"]
        func status(_ method: String, _ origin: String?) -> Int? {
            var headers = host
            headers["origin"] = origin
            return guardian.refusal(of: HTTPRequest(method: method, path: "/api/request", headers: headers))?.status
        }
        #expect(status("POST", "http://evil.example") == 403)
        #expect(status("POST", "https://192.168.43.20:8740") == 403, "another scheme is another origin")
        #expect(status("DELETE", "http://evil.example") == 403)
        #expect(status("POST", "http://192.168.43.20:8740") == nil)
        #expect(status("POST", nil) == nil, "scripts send no Origin; they need a token anyway")
        #expect(status("GET", "http://evil.example") == nil, "a GET changes nothing")
    }

    @Test func theSchemesPortMayBeLeftOut() {
        var reason = ""
        let guardian = RequestGuard(address: ListenAddress("[fd00::2]:80", reason: &reason)!, names: ["pi"], tls: false)
        #expect(guardian.hosts == ["[fd00::2]:80", "[fd00::2]", "pi:80", "pi"])
    }

    @Test func listenAddressesAreLiteral() {
        var reason = ""
        #expect(ListenAddress("waypoint.local:8740", reason: &reason) == nil)
        #expect(reason.contains("not an IPv4 address"))
        #expect(ListenAddress("127.0.0.1", reason: &reason) == nil)
        #expect(reason.contains("port is missing"))
        #expect(ListenAddress("127.0.0.1:65536", reason: &reason) == nil)
        #expect(ListenAddress("::1:8740", reason: &reason) == nil)
        #expect(ListenAddress("[::1]:8740", reason: &reason)?.description == "[::1]:8740")
        #expect(ListenAddress("0.0.0.0:8740", reason: &reason)?.isWildcard == true)
    }
}
