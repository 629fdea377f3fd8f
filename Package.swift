// swift-tools-version:6.0
// The layout follows ../shared/DESIGN.md §2: pure math targets at the centre, hardware and IO at
// the edges, C libraries behind one module map each.
import PackageDescription

/// How the two programs that ship are linked in a release build, for what stays resident on the
/// Pi (issue 31: peak RSS 12.2 → 10.5 MB): lld with packed relative relocations (DT_RELR, glibc ≥
/// 2.36) instead of 0.7 MB of RELA entries the loader reads at start; no symbols exported (the
/// Swift runtime's link flags export every one, and each library's look-ups then search our
/// table); libstdc++ linked in rather than loaded (see Linking/libstdc++.so). Debug builds and
/// the tests link as SwiftPM does by default.
let releaseLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld", "-L", Context.packageDirectory + "/Linking",
            "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
        ],
        .when(platforms: [.linux], configuration: .release))
]

let package = Package(
    name: "waypointd",
    products: [
        .executable(name: "waypointd", targets: ["waypointd"]),
        .executable(name: "waypointctl", targets: ["waypointctl"]),
        .executable(name: "waypoint-web", targets: ["waypoint-web"]),
        .executable(name: "waypoint-bench", targets: ["waypoint-bench"]),
    ],
    targets: [
        // C libraries. libi2c ships no pkg-config file, so CI2C links by name only. libgps is
        // linked from its static archive, and CGPSLink stands in for its D-Bus part, so that
        // libdbus and what it loads stay out of the daemon (see Sources/CGPSLink/dbus.c).
        .systemLibrary(name: "CGPS", providers: [.apt(["libgps-dev"])]),
        .target(name: "CGPSLink"),
        .systemLibrary(name: "CI2C", providers: [.apt(["libi2c-dev"])]),
        // expat reads GPX (Sources/GPX): a real XML parser, no string matching.
        .systemLibrary(name: "CExpat", providers: [.apt(["libexpat1-dev"])]),
        // SQLite (FTS5, R*Tree): the place index (Sources/PlaceIndex).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // libmicrohttpd: the companion's HTTP server, through C wrappers of its variadic calls.
        .target(name: "CMicroHTTPD", linkerSettings: [.linkedLibrary("microhttpd")]),
        // libqrencode: the pairing link's QR code.
        .systemLibrary(name: "CQREncode", providers: [.apt(["libqrencode-dev"])]),
        // glibc's malloc.h, for mallopt(3) (SystemSupport's HeapPolicy).
        .systemLibrary(name: "CMalloc"),
        // The kernel's input devices (linux/input.h): a button's presses (Sources/ButtonInput).
        .systemLibrary(name: "CInput"),

        // The pure core: no Foundation, no clock, no IO.
        .target(name: "Geodesy"),
        .target(name: "Geomagnetism"),
        .target(name: "Heading", dependencies: ["Geodesy"]),
        .target(name: "Guidance", dependencies: ["Geodesy", "Heading"]),
        // The text every program shares: JSON (read, written, coded) and a place's name.
        .target(name: "TextFormats"),
        // The daemon's decisions as one value (DaemonState: events in, effects out) and what it
        // keeps: no IO, no clock, no SystemSupport; the compiler keeps that wall.
        .target(
            name: "Core",
            dependencies: [
                "CommandLineSupport", "ControlProtocol", "Geodesy", "Geomagnetism", "Guidance", "Heading",
                "Places", "TextFormats",
            ]),

        // Wire format shared by the daemon and its client.
        .target(name: "ControlProtocol", dependencies: ["TextFormats"]),
        // Places of the map: folding, kinds, the point standing for a feature (pure).
        .target(name: "Places", dependencies: ["TextFormats"]),
        // Locations from what phones share (links, geo:, plus codes): pure, offline.
        .target(name: "LocationIntake", dependencies: ["Geodesy", "TextFormats"]),
        // A blocking client of the control socket: waypointctl, and waypointd motor-off asking
        // a running daemon.
        .target(name: "DaemonClient", dependencies: ["ControlProtocol", "SystemSupport", "TextFormats"]),

        // What both clients of the daemon share: how numbers read, GPX routes in, the trail out.
        .target(name: "ClientSupport", dependencies: ["ControlProtocol", "Geodesy", "GPX", "Guidance", "TextFormats"]),
        // The phone companion: HTTP, sessions, events, the page's API (waypoint-web).
        .target(
            name: "WebCompanion",
            dependencies: [
                "ClientSupport", "CMicroHTTPD", "CommandLineSupport", "ControlProtocol", "CQREncode", "DaemonClient",
                "Geodesy", "GPX", "LocationIntake", "PlaceIndex", "SystemSupport", "TextFormats",
            ]),

        // The one command-line reader and exit status of both programs (pure).
        .target(name: "CommandLineSupport"),

        // The edges: system calls, devices, services.
        .target(name: "SystemSupport", dependencies: ["CMalloc"]),
        .target(name: "GPX", dependencies: ["CExpat", "Geodesy"]),
        // The offline place index: import from an OSM extract with osmium, search, where am I.
        .target(
            name: "PlaceIndex",
            dependencies: [
                "CommandLineSupport", "ControlProtocol", "CSQLite", "Geodesy", "Guidance", "Places", "SystemSupport",
                "TextFormats",
            ]),
        .target(name: "GPSClient", dependencies: ["Geodesy", "SystemSupport", "CGPS", "CGPSLink"]),
        .target(name: "IMU", dependencies: ["Heading", "SystemSupport", "CI2C"]),
        .target(name: "Haptics", dependencies: ["Guidance", "SystemSupport"]),
        // A button: Linux input devices read as the kernel gives them (struct input_event).
        .target(name: "ButtonInput", dependencies: ["CInput", "SystemSupport"]),
        .target(
            name: "Simulation",
            dependencies: [
                "ButtonInput", "ControlProtocol", "IMU", "GPSClient", "Heading", "Geodesy", "Geomagnetism", "SystemSupport",
            ]),
        .target(
            name: "Daemon",
            dependencies: [
                "ButtonInput", "ClientSupport", "CommandLineSupport", "Core", "Geodesy", "Geomagnetism", "Heading",
                "Guidance", "ControlProtocol", "SystemSupport", "GPSClient", "IMU", "Haptics", "Simulation", "PlaceIndex",
                "TextFormats",
            ]),

        // Programs.
        .executableTarget(
            name: "waypointd",
            dependencies: [
                "ButtonInput", "CommandLineSupport", "Daemon", "ControlProtocol", "DaemonClient", "Geodesy", "GPSClient",
                "Guidance", "Haptics",
                "LocationIntake", "PlaceIndex", "SystemSupport",
            ],
            linkerSettings: releaseLinking),
        .executableTarget(
            name: "waypointctl",
            dependencies: [
                "ClientSupport", "CommandLineSupport", "ControlProtocol", "DaemonClient", "Geodesy", "Geomagnetism",
                "GPX", "Guidance", "LocationIntake", "Places", "SystemSupport", "TextFormats",
            ],
            linkerSettings: releaseLinking),
        .executableTarget(
            name: "waypoint-web",
            dependencies: [
                "CommandLineSupport", "ControlProtocol", "DaemonClient", "Geodesy", "SystemSupport", "TextFormats",
                "WebCompanion",
            ],
            linkerSettings: releaseLinking),
        .executableTarget(
            name: "waypoint-bench",
            dependencies: [
                "ControlProtocol", "Core", "Daemon", "Geodesy", "Geomagnetism", "GPX", "Guidance", "Haptics",
                "Heading", "IMU", "LocationIntake", "Simulation", "SystemSupport",
            ]),

        // Shared test helpers; only test targets may depend on this.
        .target(name: "TestSupport", dependencies: [
            "ControlProtocol", "Geodesy", "Geomagnetism", "Guidance", "Haptics", "Heading", "Simulation", "TextFormats",
        ]),

        .testTarget(name: "GeodesyTests", dependencies: ["Geodesy", "TestSupport"], exclude: ["Data"]),
        .testTarget(name: "TextFormatsTests", dependencies: ["ControlProtocol", "TestSupport", "TextFormats"]),
        .testTarget(name: "ControlProtocolTests", dependencies: ["ControlProtocol", "TestSupport", "TextFormats"]),
        .testTarget(name: "PlacesTests", dependencies: ["Places"]),
        .testTarget(name: "ClientSupportTests", dependencies: ["ClientSupport", "ControlProtocol", "Geodesy", "TestSupport"], exclude: ["Data"]),
        // The core's decisions, read back as the wire would carry them (Daemon's DaemonReplies).
        .testTarget(
            name: "CoreTests",
            dependencies: [
                "ControlProtocol", "Core", "Daemon", "Geodesy", "Geomagnetism", "Guidance", "Haptics", "Heading",
                "TestSupport",
            ]),
        .testTarget(
            name: "GeomagnetismTests", dependencies: ["Geomagnetism", "TestSupport"], exclude: ["Data"]),
        .testTarget(
            name: "GPSClientTests", dependencies: ["GPSClient", "Geodesy", "TestSupport"], exclude: ["Data"]),
        .testTarget(name: "PlaceIndexTests", dependencies: [
            "ControlProtocol", "Geodesy", "Guidance", "PlaceIndex", "Places", "TestSupport", "TextFormats",
        ], exclude: ["Data"]),
        .testTarget(name: "LocationIntakeTests", dependencies: [
            "ControlProtocol", "Geodesy", "LocationIntake", "TextFormats",
        ]),
        .testTarget(name: "CommandLineSupportTests", dependencies: ["CommandLineSupport"]),
        .testTarget(name: "GPXTests", dependencies: ["GPX", "TestSupport"], exclude: ["Data"]),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport", "TestSupport"]),
        .testTarget(name: "ButtonInputTests", dependencies: ["ButtonInput", "SystemSupport", "TestSupport"]),
        .testTarget(name: "HeadingTests", dependencies: [
            "Geodesy", "Geomagnetism", "Heading", "Simulation", "TestSupport",
        ]),
        .testTarget(name: "IMUTests", dependencies: [
            "Geodesy", "GPSClient", "Heading", "IMU", "Simulation", "SystemSupport", "TestSupport",
        ]),
        .testTarget(name: "SimulationTests", dependencies: ["Geodesy", "Simulation", "TestSupport"]),
        .testTarget(name: "GuidanceTests", dependencies: ["Geodesy", "Guidance", "Heading", "Simulation", "TestSupport"]),
        .testTarget(name: "HapticsTests", dependencies: ["Haptics", "Guidance", "TestSupport"]),
        .testTarget(
            name: "DaemonTests",
            dependencies: [
                "ButtonInput", "ClientSupport", "CommandLineSupport", "ControlProtocol", "Core", "Daemon", "Geodesy", "GPSClient", "Guidance",
                "Haptics", "Heading", "IMU", "Simulation", "SystemSupport", "TestSupport", "TextFormats",
            ]),
        .testTarget(name: "WaypointdTests", dependencies: [
            "Geodesy", "Heading", "Simulation", "TestSupport",
        ], exclude: ["Data"]),
        .testTarget(
            name: "WaypointctlTests",
            dependencies: [
                "ClientSupport", "CommandLineSupport", "ControlProtocol", "DaemonClient", "Geodesy", "GPX", "Guidance",
                "TestSupport", "TextFormats", "waypointctl",
            ]),
        .testTarget(
            name: "WebCompanionTests", dependencies: [
                "WebCompanion", "ControlProtocol", "DaemonClient", "PlaceIndex", "SystemSupport", "TestSupport", "TextFormats",
            ],
            exclude: ["Scripts"]),
        .testTarget(name: "InstallTests", dependencies: ["TestSupport", "ControlProtocol"]),

        // The fuzz targets' properties, a library so that make test replays the kept corpus
        // through them (FuzzCorpusTests) and make fuzz runs them under libFuzzer.
        .target(
            name: "FuzzTargets", dependencies: [
                "ControlProtocol", "Core", "Daemon", "Geodesy", "GPX", "LocationIntake", "SystemSupport",
                "TextFormats", "WebCompanion",
            ],
            path: "Fuzz/Targets"),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["FuzzTargets", "TestSupport"]),
    ]
)

// The libFuzzer targets (`make fuzz`): built only when asked, with `-sanitize=fuzzer`; in an
// ordinary build the target would not link (libFuzzer's driver would be missing).
if Context.environment["WAYPOINT_FUZZ"] != nil {
    package.products.append(.executable(name: "waypoint-fuzz", targets: ["waypoint-fuzz"]))
    package.targets.append(
        .executableTarget(
            name: "waypoint-fuzz", dependencies: ["FuzzTargets"], path: "Fuzz/Sources"))
}
