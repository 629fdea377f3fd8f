import Heading

/// A signed permutation of axes: which chip axis, with which sign, becomes each body axis (x
/// forward, y right, z down; DESIGN.md §3).
///
/// Written as three comma-separated terms, one per body axis in the order x, y, z: `"x,-y,-z"`
/// means body x = chip x, body y = −chip y, body z = −chip z (an ST accelerometer flat and face
/// up with its x forward). Board presets use it to take each chip's raw axes into the body frame,
/// and the config's `axis-remap` key is parsed with `init(parsing:)`.
///
/// A map may be a rotation (determinant +1) or a reflection (−1). Accelerometers and gyroscopes
/// are right-handed, so their maps should be rotations; a reflection is legitimate for a
/// magnetometer whose own axes are mirrored (the LSM9DS1's, sensors.md §3.7).
public struct AxisMap: Sendable, Hashable, CustomStringConvertible {
    /// A chip axis.
    public enum Axis: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case x, y, z

        public var description: String { ["x", "y", "z"][rawValue] }
    }

    /// One term of the map: a chip axis and whether it is negated.
    public struct Term: Sendable, Hashable, CustomStringConvertible {
        /// The chip axis read.
        public var axis: Axis
        /// Whether its value is negated.
        public var isNegated: Bool

        /// A term from its parts.
        public init(_ axis: Axis, negated: Bool = false) {
            self.axis = axis
            self.isNegated = negated
        }

        public var description: String { (isNegated ? "-" : "") + axis.description }

        /// The term's value in `vector` (chip axes).
        func value(in vector: Vector3) -> Double {
            let component: Double
            switch axis {
            case .x: component = vector.x
            case .y: component = vector.y
            case .z: component = vector.z
            }
            return isNegated ? -component : component
        }
    }

    /// Why a text is not an axis map.
    public enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The text does not have exactly three comma-separated terms.
        case wrongTermCount(text: String, count: Int)
        /// A term is not one of `x`, `y`, `z`, optionally signed with `+` or `-`.
        case unknownTerm(text: String, term: String)
        /// A chip axis appears in more than one term, so some chip axis would be lost.
        case repeatedAxis(text: String, axis: Axis)

        public var description: String {
            switch self {
            case .wrongTermCount(let text, let count):
                return "axis map \"\(text)\": expected three comma-separated terms for body x, y, z "
                    + "(e.g. \"x,-y,-z\"), found \(count)"
            case .unknownTerm(let text, let term):
                return "axis map \"\(text)\": \"\(term)\" is not an axis; use x, y or z, optionally with - or +"
            case .repeatedAxis(let text, let axis):
                return "axis map \"\(text)\": chip axis \(axis) is used more than once; each of x, y, z must "
                    + "appear exactly once"
            }
        }
    }

    /// The chip term that becomes body x.
    public let x: Term
    /// The chip term that becomes body y.
    public let y: Term
    /// The chip term that becomes body z.
    public let z: Term

    /// Chip axes are body axes.
    public static let identity = AxisMap(checked: Term(.x), Term(.y), Term(.z))

    /// A map from its three terms.
    /// - Parameters:
    ///   - x: the chip term that becomes body x.
    ///   - y: the chip term that becomes body y.
    ///   - z: the chip term that becomes body z.
    /// - Throws: `ParseError.repeatedAxis` when two terms read the same chip axis.
    public init(x: Term, y: Term, z: Term) throws(ParseError) {
        var seen = Set<Axis>()
        for term in [x, y, z] where !seen.insert(term.axis).inserted {
            throw .repeatedAxis(text: "\(x),\(y),\(z)", axis: term.axis)
        }
        self.init(checked: x, y, z)
    }

    /// A map from text such as `"-y,-x,-z"`: three comma-separated terms for body x, y, z, each
    /// `x`, `y` or `z` with an optional `-` or `+`. Case and spaces around terms are ignored.
    /// - Parameter text: the map as written in a config file.
    /// - Throws: `ParseError` naming the text and what is wrong with it.
    public init(parsing text: String) throws(ParseError) {
        let pieces = text.split(separator: ",", omittingEmptySubsequences: false)
        guard pieces.count == 3 else { throw .wrongTermCount(text: text, count: pieces.count) }
        var terms: [Term] = []
        for piece in pieces {
            let trimmed = piece.trimmingSpaces.lowercased()
            var body = Substring(trimmed)
            var negated = false
            if let sign = body.first, sign == "-" || sign == "+" {
                negated = sign == "-"
                body = body.dropFirst()
            }
            guard let axis = Axis.allCases.first(where: { $0.description == body }) else {
                throw .unknownTerm(text: text, term: String(trimmed))
            }
            terms.append(Term(axis, negated: negated))
        }
        do {
            try self.init(x: terms[0], y: terms[1], z: terms[2])
        } catch {
            // Report the text as written, not as normalised.
            if case .repeatedAxis(_, let axis) = error { throw .repeatedAxis(text: text, axis: axis) }
            throw error
        }
    }

    /// A map written in this module's source, such as a preset's. A malformed one is a
    /// programmer error, caught by the preset tests.
    init(constant text: StaticString) {
        do {
            try self.init(parsing: "\(text)")
        } catch {
            preconditionFailure("a constant axis map in the IMU module is malformed: \(error)")
        }
    }

    private init(checked x: Term, _ y: Term, _ z: Term) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// `vector` (chip axes) in the body frame. Units are unchanged.
    public func apply(_ vector: Vector3) -> Vector3 {
        Vector3(x.value(in: vector), y.value(in: vector), z.value(in: vector))
    }

    /// The map that undoes this one: body axes back to chip axes (what an emulator needs).
    public var inverse: AxisMap {
        var terms = [Term](repeating: Term(.x), count: 3)
        for (bodyAxis, term) in [x, y, z].enumerated() {
            // Body axis `bodyAxis` = ±chip axis `term.axis`, so that chip axis = ±body axis.
            terms[term.axis.rawValue] = Term(Axis.allCases[bodyAxis], negated: term.isNegated)
        }
        return AxisMap(checked: terms[0], terms[1], terms[2])
    }

    /// This map followed by `next`: `next.apply(apply(v))` for every v (a chip-to-board map
    /// followed by a board-to-body remap).
    public func followed(by next: AxisMap) -> AxisMap {
        func compose(_ outer: Term) -> Term {
            let inner = [x, y, z][outer.axis.rawValue]
            return Term(inner.axis, negated: inner.isNegated != outer.isNegated)
        }
        return AxisMap(checked: compose(next.x), compose(next.y), compose(next.z))
    }

    /// The map as a matrix M with body = M · chip.
    public var matrix: Matrix3 {
        func row(_ term: Term) -> Vector3 {
            var unit = [0.0, 0.0, 0.0]
            unit[term.axis.rawValue] = term.isNegated ? -1 : 1
            return Vector3(unit[0], unit[1], unit[2])
        }
        return Matrix3(row(x), row(y), row(z))
    }

    /// Whether the map is a rotation (determinant +1) rather than a reflection (−1).
    public var isRotation: Bool { matrix.determinant > 0 }

    /// The map as `init(parsing:)` reads it, e.g. `x,-y,-z`.
    public var description: String { "\(x),\(y),\(z)" }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
