import ControlProtocol

/// Replies of every kind the daemon sends, for the tests that encode and decode them: the
/// JSON writer against Foundation's encoder, and waypointctl's decoding round trip. Each suite
/// adds the status replies its own point needs.
public enum ExampleReplies {
    /// A status with every field filled in, all numbers finite, so that it reads back as the same
    /// value: a wrong wire name for any field, `bias` and `problems` included, fails a round trip.
    public static let guidingStatus: StatusReport = {
        var status = guidingStatusWithoutButton
        status.button = .init(
            devices: [
                .init(device: "/dev/input/by-path/platform-button@11-event", name: "button@11", ready: true),
                .init(device: "name:Headset", ready: false, problem: "unplugged or out of range"),
            ],
            pressed: .init(serial: 3, gesture: "very-long"), testing: true)
        status.said = .init(serial: 2, text: "Eiffel Tower is 430 metres away, at 1 o'clock.")
        return status
    }()

    private static let guidingStatusWithoutButton = StatusReport(
        state: "guiding",
        fix: .init(
            time: "2026-05-01T12:00:00.5Z", mode: 3, latitude: 48.8556, longitude: 2.2986, horizontalErrorMeters: 4.8,
            altitudeMSLMeters: 35.2, altitudeHAEMeters: 80.5, ageSeconds: 0.4, problem: "imprecise"),
        heading: .init(
            trueDegrees: 292.4, magneticDegrees: 290.3, declinationDegrees: 2.09, isReliable: true, biasDegrees: -1.75,
            correction: "coasting", coastingSeconds: 4.5, problem: "pointing-vertical"),
        destination: .init(latitude: 48.8584, longitude: 2.2945, name: "Eiffel Tower"),
        bearingDegrees: 316.03, distanceMeters: 432.1, errorDegrees: 23.65,
        haptic: .init(intensity: 0.55, sharpness: 0.3, duty: 0.48, pattern: "accepted"),
        calibration: "stored", isMuted: false,
        imu: .init(chips: "LSM9DS1 magnetometer at 0x1C, accelerometer at 0x6A", samples: 5200, transferErrors: 3, faults: 1, restarts: 1),
        problems: ["no \"gps\" / fix", "tab\there"])

    /// A version greeting of each form, `OK`, an idle status and ``guidingStatus``, recent lists
    /// empty and full, the three calibration reports, a reply of every other class, and an error
    /// of every code (with text that needs escaping).
    public static let common: [ControlReply] =
        [
            .version(VersionGreeting()), .version(VersionGreeting(release: "9.9.9", protocolVersion: 7)), .ok,
            .status(StatusReport(state: "idle")), .status(guidingStatus),
            .recent([]),
            .recent([
                .init(latitude: 48.8584, longitude: 2.2945, name: "Eiffel Tower"),
                .init(latitude: -33.8568, longitude: 151.2153, name: nil),
            ]),
            .calibration(CalibrationReport(state: "none")),
            .calibration(
                CalibrationReport(
                    state: "running", samples: 412, octants: [60, 48, 51, 50, 55, 49, 47, 52], message: "keep turning")),
            .calibration(
                CalibrationReport(
                    state: "stored",
                    quality: .init(
                        fitErrorPercent: 1.2, coveragePercent: 85, fittedFieldMicrotesla: 48.1,
                        referenceFieldMicrotesla: 47.9, sampleCount: 412),
                    created: "2026-05-01T12:00:00Z", message: "calibration stored")),
            .route(nil),
            .route(
                RouteReport(
                    name: "Loop", waypoint: 2, count: 5, target: .init(latitude: 48.86, longitude: 2.3, name: "Gate"),
                    remainingMeters: 812.5, isFinished: false)),
            .route(
                RouteReport(
                    name: "Bakery", waypoint: 1, count: 3, target: .init(latitude: 43.7383, longitude: 7.4243, radiusMeters: 8),
                    remainingMeters: 240.5, isFinished: false,
                    walk: WalkReport(
                        profile: "foot", next: Self.turn, remainingMeters: 240.5, replans: 1, offPathMeters: 3.2,
                        problem: "routino-router failed: ended by signal 9", steps: [Self.turn, Self.turn]))),
            .plan(
                WalkPlanReport(
                    distanceMeters: 240.5, durationSeconds: 216, profile: "foot", isFollowing: true,
                    shape: [[43.7384, 7.4246], [43.7383, 7.4243], [43.7378, 7.4235]], turns: [Self.turn])),
            .places([.init(latitude: 48.8584, longitude: 2.2945, name: "Tower", radiusMeters: 25)]),
            .placeMarked(PlaceMarkReport(place: .init(latitude: 48.85, longitude: 2.29, name: "Car"), errorMeters: 3.5, fixes: 12)),
            .track(TrackReport(points: [.init(seconds: 1_796_307_322, latitude: 48.1, longitude: 2.1, startsSegment: true)], next: "c1")),
            .search(
                SearchReport(
                    results: [.init(name: "Le Fournil", kind: "bakery", address: "12 Rue X", latitude: 48.86, longitude: 2.3, distanceMeters: 120, bearingDegrees: 45)],
                    map: "monaco")),
            .whereAmI(
                WhereReport(
                    address: "12 Rue X", street: "Rue X", housenumber: "12", place: "Paris", distanceMeters: 8, bearingDegrees: 90,
                    latitude: 48.86, longitude: 2.3)),
        ] + ControlErrorCode.allCases.map { .error(ControlError($0, "what went wrong: \($0.rawValue) é 😀")) }

    /// A walk's turn with every field filled in.
    static let turn = TurnReport(
        latitude: 43.7383, longitude: 7.4243, turnDegrees: -88.5, street: "Rue Grimaldi", distanceMeters: 20.5,
        instruction: "in 20 m turn left onto Rue Grimaldi")
}
