#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// A walk planned over the streets (issue 41): the line to follow, the turns a person is told
/// of, and the points the motor points at one after the other. Made from the nodes a router
/// gives (Routino's, in the daemon); pure.
///
/// A **turn** is where the way changes direction by ``Settings/junctionTurnDegrees`` or more at
/// a junction (a choice of ways), or by ``Settings/bendTurnDegrees`` where the way only bends;
/// the direction in and out is measured over ``Settings/directionSpanMeters`` of the line on
/// either side, so that a corner drawn as three short kinks counts once. The motor's
/// **waypoints** are the turns and the points where the line bends away from a straight leg by
/// more than ``Settings/bendToleranceMeters`` (a long curve), so that the straight line to the
/// next waypoint never leaves the way by more than that.
public struct WalkPlan: Sendable, Hashable {
    /// One node of the router's line.
    public struct Node: Sendable, Hashable {
        /// Where it is.
        public var coordinate: Coordinate
        /// The way that leads to it: its name, or what it is when it has none (`path`, `steps`).
        public var way: String
        /// Whether ways meet here, so that the walker has a choice.
        public var isJunction: Bool

        /// A node from its parts.
        public init(coordinate: Coordinate, way: String, isJunction: Bool) {
            self.coordinate = coordinate
            self.way = way
            self.isJunction = isJunction
        }
    }

    /// A turn the walker is told of.
    public struct Turn: Sendable, Hashable {
        /// Where it is.
        public var coordinate: Coordinate
        /// How much the way turns, degrees: positive to the right, negative to the left.
        public var turnDegrees: Double
        /// The name of the way taken from here, or nil when it has none.
        public var street: String?
        /// What the way taken is when it has no name (`path`, `steps`, `residential road`).
        public var way: String
        /// Whether the way taken has the name of the way come by: the street turns.
        public var staysOnStreet = false
        /// Metres along the line from the turn before (or the start) to this one.
        public var distanceMeters: Double
        /// Metres along the line from the start.
        public var alongMeters: Double

        /// A turn from its parts.
        public init(
            coordinate: Coordinate, turnDegrees: Double, street: String?, way: String, distanceMeters: Double, alongMeters: Double
        ) {
            self.coordinate = coordinate
            self.turnDegrees = turnDegrees
            self.street = street
            self.way = way
            self.distanceMeters = distanceMeters
            self.alongMeters = alongMeters
        }

        /// What to do here, as a person says it: `turn left onto Rue Grimaldi`, `bear right
        /// onto the steps`.
        public var action: String {
            let magnitude = abs(turnDegrees)
            let side = turnDegrees < 0 ? "left" : "right"
            let verb =
                switch magnitude {
                case ..<20: "go straight on"
                case ..<50: "bear \(side)"
                case ..<135: "turn \(side)"
                case ..<170: "turn sharply \(side)"
                default: "turn back"
                }
            if staysOnStreet, let street { return verb + ", still on " + street }
            return verb + " onto " + (street ?? "the " + way)
        }

        /// The step as said `meters` before it: `in 120 m turn left onto Landstrasse`.
        public func instruction(inMeters meters: Double) -> String {
            "in \(Self.spoken(meters: meters)) \(action)"
        }

        /// A distance as a walker is told it: 5 m steps under 50 m, 10 m steps under a
        /// kilometre, then tenths of a kilometre.
        public static func spoken(meters: Double) -> String {
            let meters = max(meters, 0)
            switch meters {
            case ..<50: return "\(Int((meters / 5).rounded()) * 5) m"
            case ..<995: return "\(Int((meters / 10).rounded()) * 10) m"
            default: return DecimalFormat.fixed(meters / 1000, fractionDigits: 1) + " km"
            }
        }
    }

    /// Settings, with documented defaults.
    public struct Settings: Sendable, Hashable {
        /// A change of direction at a junction that counts as a turn, degrees. Default 30: less
        /// is walking on.
        public var junctionTurnDegrees = 30.0
        /// A change of direction where the way only bends that counts as a turn, degrees.
        /// Default 60.
        public var bendTurnDegrees = 60.0
        /// How much of the line on either side of a node gives its directions in and out,
        /// metres. Default 12: a street corner's rounding.
        public var directionSpanMeters = 12.0
        /// How far the straight leg to the next waypoint may leave the line, metres. Default 8:
        /// a pavement's width and a fix's error.
        public var bendToleranceMeters = 8.0

        /// The defaults.
        public init() {}
    }

    /// The line to follow, from the start (on the nearest way) to the end.
    public private(set) var shape: [Coordinate]
    /// The turns, in order.
    public private(set) var turns: [Turn]
    /// The motor's waypoints: indices into ``shape``, in order, the last the line's end. Each
    /// turn's index is among them (``turnWaypoints``).
    public private(set) var waypoints: [Int]
    /// For each of ``waypoints``, the index of its turn in ``turns``, or nil for a bend.
    public private(set) var turnWaypoints: [Int?]
    /// For each point of ``shape``, metres along the line from the start.
    public private(set) var alongMeters: [Double]
    /// The line's length, metres.
    public var distanceMeters: Double { alongMeters.last ?? 0 }
    /// How long it takes at the router's walking speed, seconds.
    public var durationSeconds: Double

    /// A plan from the router's nodes (at least two) and the walk's duration.
    public init(nodes: [Node], durationSeconds: Double, settings: Settings = Settings()) {
        shape = nodes.map(\.coordinate)
        self.durationSeconds = durationSeconds
        turns = []
        waypoints = []
        turnWaypoints = []
        alongMeters = []
        guard let origin = shape.first else { return }
        let plane = LocalPlane(origin: origin)
        let flat = shape.map { plane.offset(of: $0) }
        var along = [0.0]
        for index in flat.indices.dropFirst() {
            along.append(along[index - 1] + Self.length(flat[index - 1], flat[index]))
        }
        alongMeters = along
        let turnIndices = Self.turnIndices(nodes, flat: flat, along: along, settings: settings)
        var previousAlong = 0.0
        for (index, degrees) in turnIndices {
            // The way taken is the one that leads to the next node.
            let way = nodes[min(index + 1, nodes.count - 1)].way
            var turn = Turn(
                coordinate: shape[index], turnDegrees: degrees, street: Self.isUnnamed(way) ? nil : way, way: way,
                distanceMeters: along[index] - previousAlong, alongMeters: along[index])
            turn.staysOnStreet = turn.street != nil && nodes[index].way == way
            turns.append(turn)
            previousAlong = along[index]
        }
        // The waypoints: the turns, and the points a long curve needs between them.
        var kept = Set(turnIndices.map(\.index))
        // Turns lie strictly inside the line, so the anchors are in order without repeats.
        let anchors = [0] + turnIndices.map(\.index) + [shape.count - 1]
        for (first, last) in zip(anchors, anchors.dropFirst()) where last - first > 1 {
            let leg = TrackSimplifier.douglasPeucker(Array(flat[first...last]), tolerance: settings.bendToleranceMeters)
            for offset in leg { kept.insert(first + offset) }
        }
        kept.insert(shape.count - 1)
        kept.remove(0)
        if kept.isEmpty { kept.insert(0) }
        waypoints = kept.sorted()
        let turnOrder = Dictionary(uniqueKeysWithValues: turnIndices.enumerated().map { ($0.element.index, $0.offset) })
        turnWaypoints = waypoints.map { turnOrder[$0] }
    }

    /// Names Routino gives a way that has none: what the way is.
    static let unnamedWays: Set<String> = [
        "motorway", "trunk road", "primary road", "secondary road", "tertiary road", "unclassified road", "residential road",
        "service road", "track", "cycleway", "path", "steps", "ferry", "footway", "pedestrian", "bridleway",
    ]

    /// Whether `way` is what a way without a name is called, rather than a name.
    public static func isUnnamed(_ way: String) -> Bool { way.isEmpty || unnamedWays.contains(way) }

    /// The turns' node indices and their angles: each node whose direction changes enough,
    /// and of a run of such nodes within one span, the one that turns most.
    private static func turnIndices(
        _ nodes: [Node], flat: [(east: Double, north: Double)], along: [Double], settings: Settings
    ) -> [(index: Int, degrees: Double)] {
        guard nodes.count > 2 else { return [] }
        var found: [(index: Int, degrees: Double)] = []
        for index in 1..<(nodes.count - 1) {
            let back = point(flat, along: along, at: along[index] - settings.directionSpanMeters)
            let ahead = point(flat, along: along, at: along[index] + settings.directionSpanMeters)
            let into = direction(from: back, to: flat[index])
            let out = direction(from: flat[index], to: ahead)
            guard let into, let out else { continue }
            var degrees = out - into
            if degrees > 180 { degrees -= 360 }
            if degrees <= -180 { degrees += 360 }
            let threshold = nodes[index].isJunction ? settings.junctionTurnDegrees : settings.bendTurnDegrees
            guard abs(degrees) >= threshold else { continue }
            if let last = found.last, along[index] - along[last.index] < settings.directionSpanMeters {
                if abs(degrees) > abs(last.degrees) { found[found.count - 1] = (index, degrees) }
                continue
            }
            found.append((index, degrees))
        }
        return found
    }

    /// The point `meters` along the line (clamped to its ends).
    private static func point(_ flat: [(east: Double, north: Double)], along: [Double], at meters: Double) -> (east: Double, north: Double) {
        if meters <= 0 { return flat[0] }
        guard let last = along.last, meters < last else { return flat[flat.count - 1] }
        var low = 0
        var high = along.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if along[middle] <= meters { low = middle } else { high = middle }
        }
        let span = along[high] - along[low]
        let fraction = span > 0 ? (meters - along[low]) / span : 0
        return (
            flat[low].east + fraction * (flat[high].east - flat[low].east),
            flat[low].north + fraction * (flat[high].north - flat[low].north)
        )
    }

    /// Clockwise from north, degrees; nil for two points at one spot.
    private static func direction(from a: (east: Double, north: Double), to b: (east: Double, north: Double)) -> Double? {
        let east = b.east - a.east
        let north = b.north - a.north
        guard east * east + north * north > 0.01 else { return nil }
        return atan2(east, north) * 180 / Double.pi
    }

    private static func length(_ a: (east: Double, north: Double), _ b: (east: Double, north: Double)) -> Double {
        ((b.east - a.east) * (b.east - a.east) + (b.north - a.north) * (b.north - a.north)).squareRoot()
    }

    /// The shortest distance from `position` to the line, metres, from the segment at
    /// `startIndex` on (the part already walked left out).
    public func distanceFromShape(_ position: Coordinate, fromIndex startIndex: Int = 0) -> Double {
        guard !shape.isEmpty else { return .infinity }
        let plane = LocalPlane(origin: position)
        let start = min(max(startIndex, 0), shape.count - 1)
        var previous = plane.offset(of: shape[start])
        var best = Self.length((0, 0), previous)
        for index in (start + 1)..<max(shape.count, start + 1) {
            let next = plane.offset(of: shape[index])
            best = min(best, TrackSimplifier.distanceFromSegment((0, 0), previous, next))
            previous = next
        }
        return best
    }
}
