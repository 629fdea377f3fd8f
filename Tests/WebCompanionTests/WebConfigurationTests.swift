import Testing
import WebCompanion

@Suite(.timeLimit(.minutes(5))) struct WebConfigurationTests {
    @Test func everyKeyIsRead() throws {
        let text = """
            # the hotspot
            listen 192.168.43.20:8740
            host-names waypoint.local,pi
            socket /run/w.sock
            state-dir /tmp/s   # trailing comment
            page-dir /p
            leaflet-dir /l
            tiles /t.mbtiles
            tls-certificate /c.pem
            tls-key /k.pem
            session-days 7
            """
        let configuration = try WebConfiguration.parse(text, fileName: "w.conf")
        #expect(configuration.listen.description == "192.168.43.20:8740" && configuration.hostNames == ["waypoint.local", "pi"])
        #expect(configuration.socketPath == "/run/w.sock" && configuration.stateDirectory == "/tmp/s")
        #expect(configuration.tilesPath == "/t.mbtiles" && configuration.tlsKeyPath == "/k.pem" && configuration.sessionDays == 7)
    }

    @Test func everyProblemIsReportedWithItsLine() {
        let text = "listen waypoint.local:80\nlisen 1\nsession-days 0\nsession-days 3\nhost-names a b\ntls-key /k\nsocket\n"
        #expect {
            try WebConfiguration.parse(text, fileName: "w.conf")
        } throws: { error in
            let lines = (error as? ConfigurationProblems)?.lines ?? []
            return lines.count == 7 && lines[0].hasPrefix("w.conf:1: listen 'waypoint.local:80'")
                && lines[1] == "w.conf:2: unknown key 'lisen'; did you mean 'listen'?" && lines[2].hasPrefix("w.conf:3: session-days '0'")
                && lines[3] == "w.conf:4: 'session-days' was set already on line 3" && lines[4].hasPrefix("w.conf:5: host-names")
                && lines[5] == "w.conf:7: missing value for 'socket'" && lines[6].contains("tls-certificate and tls-key go together")
        }
    }

    @Test func theShippedFileIsTheDefaults() throws {
        let text = try String(contentsOf: TestDataPath.config, encoding: .utf8)
        #expect(try WebConfiguration.parse(text, fileName: "waypoint-web.conf") == WebConfiguration())
    }
}
