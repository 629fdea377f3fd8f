/// A place's row id in the index, chosen so that places near each other have ids near each
/// other: the Morton (Z-order) number of the place's cell, in the high bits, and a running
/// number within the cell in the low bits.
///
/// A box on the map is then a few ranges of ids (``ranges(south:north:west:east:)``), which
/// the places table (a B-tree on its id) and the full-text index (whose lists are sorted by
/// id, and which seek to an id range) both read directly: no R*Tree of every place is needed,
/// and a name search can be held to the neighbourhood of the wearer (issue 39).
///
/// Cells are 2^22 across each axis: 4.3 m of latitude by 9.5 m of longitude at the equator.
/// 4 096 places fit in one cell; more (only seen when thousands of objects share a point) are
/// left out of the index and counted.
public struct SpatialKey: Sendable, Equatable {
    /// The cell's Morton number, 44 bits.
    public var cell: Int64

    /// Bits a cell has on each axis.
    public static let axisBits = 22
    /// Bits of the running number within a cell.
    public static let sequenceBits = 12
    /// Places a cell can hold.
    public static let placesPerCell = 1 << sequenceBits

    /// The cell holding `latitude`, `longitude` (degrees; clamped to the world).
    public init(latitude: Double, longitude: Double) {
        cell = Self.interleave(Self.axis(latitude, span: 180, offset: 90), Self.axis(longitude, span: 360, offset: 180))
    }

    init(cell: Int64) {
        self.cell = cell
    }

    /// The row id of the `sequence`th place of this cell.
    public func id(sequence: Int) -> Int64 {
        cell << Int64(Self.sequenceBits) | Int64(sequence)
    }

    /// The cell's index along one axis.
    static func axis(_ degrees: Double, span: Double, offset: Double) -> Int64 {
        let cells = Double(1 << axisBits)
        let scaled = ((degrees + offset) / span * cells).rounded(.down)
        guard scaled.isFinite else { return 0 }
        return Int64(min(max(scaled, 0), cells - 1))
    }

    /// Latitude's bits at the odd places, longitude's at the even ones.
    static func interleave(_ y: Int64, _ x: Int64) -> Int64 {
        spread(y) << 1 | spread(x)
    }

    /// The 22 low bits of `value`, one bit apart.
    static func spread(_ value: Int64) -> Int64 {
        var bits = UInt64(value) & 0x3F_FFFF
        bits = (bits | bits << 16) & 0x0000_FFFF_0000_FFFF
        bits = (bits | bits << 8) & 0x00FF_00FF_00FF_00FF
        bits = (bits | bits << 4) & 0x0F0F_0F0F_0F0F_0F0F
        bits = (bits | bits << 2) & 0x3333_3333_3333_3333
        bits = (bits | bits << 1) & 0x5555_5555_5555_5555
        return Int64(bits)
    }

    /// Cells of the level `shift` above the finest from `first` to `last`.
    private static func cells(_ first: Int64, _ last: Int64, _ shift: Int64) -> Int64 {
        (last >> shift) - (first >> shift) + 1
    }

    /// The most cells a box is covered with: few ranges to ask for, each read whole.
    public static let maximumCoverCells = 16

    /// Row id ranges (inclusive) that hold every place in the box, and few others: the box is
    /// covered by at most ``maximumCoverCells`` square cells of the finest level that allows
    /// it, whose id ranges are merged where they touch. Degrees; west ≤ east (a box across
    /// the antimeridian is asked for as two).
    public static func ranges(south: Double, north: Double, west: Double, east: Double) -> [ClosedRange<Int64>] {
        let south = axis(south, span: 180, offset: 90)
        let north = axis(north, span: 180, offset: 90)
        let west = axis(west, span: 360, offset: 180)
        let east = axis(east, span: 360, offset: 180)
        // From the finest level up: each level's cells are twice as wide as the one below's.
        var shift: Int64 = 0
        while shift < axisBits, cells(south, north, shift) * cells(west, east, shift) > maximumCoverCells {
            shift += 1
        }
        var ranges: [ClosedRange<Int64>] = []
        for y in (south >> shift)...(north >> shift) {
            for x in (west >> shift)...(east >> shift) {
                // A cell of this level is every finer cell sharing its high bits: one run of ids.
                let first = interleave(y << shift, x << shift) << Int64(sequenceBits)
                let count = Int64(1) << (2 * shift + Int64(sequenceBits))
                ranges.append(first...(first + count - 1))
            }
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<Int64>] = []
        for range in ranges {
            if let last = merged.last, last.upperBound + 1 >= range.lowerBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
