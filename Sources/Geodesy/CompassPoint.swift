/// One of the 16 points of the compass rose, for naming a bearing in words.
///
/// Each point covers a 22.5° sector centred on its direction. A bearing exactly on a boundary
/// belongs to the sector clockwise of it: 11.24° is north, 11.25° is north-northeast, and 348.75°
/// is north again.
public enum CompassPoint: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// N, centred on 0°.
    case north
    /// NNE, centred on 22.5°.
    case northNortheast
    /// NE, centred on 45°.
    case northeast
    /// ENE, centred on 67.5°.
    case eastNortheast
    /// E, centred on 90°.
    case east
    /// ESE, centred on 112.5°.
    case eastSoutheast
    /// SE, centred on 135°.
    case southeast
    /// SSE, centred on 157.5°.
    case southSoutheast
    /// S, centred on 180°.
    case south
    /// SSW, centred on 202.5°.
    case southSouthwest
    /// SW, centred on 225°.
    case southwest
    /// WSW, centred on 247.5°.
    case westSouthwest
    /// W, centred on 270°.
    case west
    /// WNW, centred on 292.5°.
    case westNorthwest
    /// NW, centred on 315°.
    case northwest
    /// NNW, centred on 337.5°.
    case northNorthwest

    /// The width of each point's sector in degrees: a full turn over 16 points.
    public static let sectorWidthDegrees = Angle.fullTurnDegrees / Double(allCases.count)

    /// The point whose sector contains a bearing.
    ///
    /// - Parameter bearingDegrees: A bearing in degrees clockwise from north, any range; it is
    ///   wrapped into [0, 360) first.
    /// - Returns: `nil` when the bearing is NaN or infinite.
    public init?(bearingDegrees: Double) {
        let bearing = Angle.normalized(bearingDegrees)
        guard bearing.isFinite else {
            return nil
        }
        // Shift by half a sector so that sector k starts at k · width. The boundaries are
        // multiples of 11.25, which are exact in binary, so the sum and quotient are exact there
        // and a boundary bearing lands in the clockwise sector. The shifted bearing reaches up to
        // 371.25, which is sector 16, the same as 0.
        let sector = Int((bearing + Self.sectorWidthDegrees / 2) / Self.sectorWidthDegrees)
        self = Self.allCases[sector % Self.allCases.count]
    }

    /// The bearing at the centre of the sector, in degrees clockwise from north.
    public var centerBearingDegrees: Double {
        Double(Self.allCases.firstIndex(of: self) ?? 0) * Self.sectorWidthDegrees
    }

    /// The usual abbreviation: `N`, `NNE`, `NE`, … `NNW`.
    public var abbreviation: String {
        switch self {
        case .north: "N"
        case .northNortheast: "NNE"
        case .northeast: "NE"
        case .eastNortheast: "ENE"
        case .east: "E"
        case .eastSoutheast: "ESE"
        case .southeast: "SE"
        case .southSoutheast: "SSE"
        case .south: "S"
        case .southSouthwest: "SSW"
        case .southwest: "SW"
        case .westSouthwest: "WSW"
        case .west: "W"
        case .westNorthwest: "WNW"
        case .northwest: "NW"
        case .northNorthwest: "NNW"
        }
    }

    /// The name in words, as spoken: `north`, `north-northeast`, `northeast`, ….
    public var spokenName: String {
        switch self {
        case .north: "north"
        case .northNortheast: "north-northeast"
        case .northeast: "northeast"
        case .eastNortheast: "east-northeast"
        case .east: "east"
        case .eastSoutheast: "east-southeast"
        case .southeast: "southeast"
        case .southSoutheast: "south-southeast"
        case .south: "south"
        case .southSouthwest: "south-southwest"
        case .southwest: "southwest"
        case .westSouthwest: "west-southwest"
        case .west: "west"
        case .westNorthwest: "west-northwest"
        case .northwest: "northwest"
        case .northNorthwest: "north-northwest"
        }
    }

    /// The abbreviation, such as `NNE`.
    public var description: String {
        abbreviation
    }
}
