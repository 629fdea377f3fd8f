import Geodesy
import Guidance

/// The latest fixes with a position, for `place mark`: a ring of ``capacity``, filled in place
/// so that a fix costs no allocation.
struct RecentFixes: Sendable {
    /// Fixes kept: a minute at 1 Hz, twice what `place mark` may average over
    /// (``ControlProtocol/PlaceAction/maximumMarkSeconds``); at faster rates, the newest 64.
    static let capacity = 64

    private var ring: [PositionAverage.Sample]
    private var next = 0
    private(set) var count = 0

    init() {
        ring = Array(
            repeating: PositionAverage.Sample(
                coordinate: Coordinate(uncheckedLatitudeDegrees: 0, longitudeDegrees: 0), errorMeters: nil, seconds: 0),
            count: Self.capacity)
    }

    /// Keeps a fix.
    mutating func add(_ sample: PositionAverage.Sample) {
        ring[next] = sample
        next = (next + 1) % Self.capacity
        count = min(count + 1, Self.capacity)
    }

    /// The fixes no older than `seconds` before `now`, oldest first.
    func since(_ seconds: Double, before now: Double) -> [PositionAverage.Sample] {
        (0..<count).map { ring[(next - count + $0 + Self.capacity) % Self.capacity] }.filter { now - $0.seconds <= seconds }
    }
}
