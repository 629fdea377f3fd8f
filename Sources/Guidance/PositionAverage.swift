import Geodesy

/// Where the wearer stands, from the fixes of a few seconds (`place mark`), and an error radius
/// that does not flatter: pure.
///
/// The position is the mean of the fixes weighted by 1/eph². The error is what the fixes'
/// eph (gpsd's 95 % radius) allows for their mean, and no less than the distance of the
/// farthest fix from it (the wearer may have moved: the radius covers every place they stood). A receiver's error is mostly an offset that drifts over about
/// a minute (multipath, the atmosphere), not noise that averages away: consecutive fixes share
/// it. So the fixes count as ``errorCorrelationSeconds``-spaced independent ones, and a few
/// seconds of them are worth barely more than one: averaging removes the jitter, the reported
/// error stays near one fix's eph.
public enum PositionAverage {
    /// How long a receiver's error stays correlated, seconds: the fixes of this span count as
    /// one independent one. A minute is typical of consumer receivers and is what the simulated
    /// receiver uses.
    public static let errorCorrelationSeconds = 60.0
    /// A fix without eph counts as this uncertain, metres: the largest error the navigator
    /// guides with.
    public static let unknownErrorMeters = 50.0

    /// One fix to average.
    public struct Sample: Sendable, Hashable {
        public var coordinate: Coordinate
        /// Its eph, metres, if known.
        public var errorMeters: Double?
        /// When it came, seconds.
        public var seconds: Double

        /// A sample from its parts.
        public init(coordinate: Coordinate, errorMeters: Double?, seconds: Double) {
            self.coordinate = coordinate
            self.errorMeters = errorMeters
            self.seconds = seconds
        }
    }

    /// An average.
    public struct Average: Sendable, Hashable {
        /// The position.
        public var coordinate: Coordinate
        /// Its 95 % error radius, metres.
        public var errorMeters: Double
        /// One typical fix's eph, metres: how far a fix may stray while the wearer stands still.
        public var fixErrorMeters: Double
        /// From the earliest fix to the latest, metres: more than ``fixErrorMeters`` says the
        /// wearer walked, and the average is of a path, not of a place.
        public var movedMeters: Double
    }

    /// The average of `samples`, or nil when there are none.
    public static func of(_ samples: some Collection<Sample>) -> Average? {
        guard let first = samples.first else { return nil }
        let plane = LocalPlane(origin: first.coordinate)
        var weightSum = 0.0
        var east = 0.0
        var north = 0.0
        var earliest = first
        var latest = first
        for sample in samples {
            let eph = max(sample.errorMeters ?? unknownErrorMeters, 0.1)
            let weight = 1 / (eph * eph)
            let offset = plane.offset(of: sample.coordinate)
            east += weight * offset.east
            north += weight * offset.north
            weightSum += weight
            if sample.seconds < earliest.seconds { earliest = sample }
            if sample.seconds > latest.seconds { latest = sample }
        }
        east /= weightSum
        north /= weightSum
        var farthestSquared = 0.0
        for sample in samples {
            let offset = plane.offset(of: sample.coordinate)
            let (de, dn) = (offset.east - east, offset.north - north)
            farthestSquared = max(farthestSquared, de * de + dn * dn)
        }
        let count = Double(samples.count)
        // The eph of one typical fix (1/eph² averaged), then shrunk by the independent fixes
        // the span holds.
        let typicalEph = (count / weightSum).squareRoot()
        let independent = min(count, 1 + (latest.seconds - earliest.seconds) / errorCorrelationSeconds)
        let (start, end) = (plane.offset(of: earliest.coordinate), plane.offset(of: latest.coordinate))
        let moved = ((end.east - start.east) * (end.east - start.east) + (end.north - start.north) * (end.north - start.north))
            .squareRoot()
        return Average(
            coordinate: plane.coordinate(east: east, north: north),
            errorMeters: max(typicalEph / independent.squareRoot(), farthestSquared.squareRoot()), fixErrorMeters: typicalEph,
            movedMeters: moved)
    }
}
