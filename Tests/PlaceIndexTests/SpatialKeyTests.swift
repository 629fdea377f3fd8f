import Foundation
import Testing

@testable import PlaceIndex

/// Row ids by position (issue 39): a box's id ranges must hold every place inside it, and few
/// others; the ids of places far apart must not share a range by accident.
@Suite("Spatial keys", .timeLimit(.minutes(5)))
struct SpatialKeyTests {
    /// A small deterministic generator: the same boxes every run.
    struct Numbers {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Double>) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Double(state >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
    }

    @Test("every point of a box, from 1 m to the world, has its id inside one of the box's ranges")
    func coverHoldsEveryPoint() {
        var numbers = Numbers(state: 39)
        for _ in 0..<2000 {
            let side = pow(10, numbers.next(-5...2.2))
            let south = numbers.next(-90...(90 - min(side, 179)))
            let west = numbers.next(-180...(180 - min(side, 359)))
            let north = min(90, south + side)
            let east = min(180, west + side)
            let ranges = SpatialKey.ranges(south: south, north: north, west: west, east: east)
            #expect(ranges.count <= SpatialKey.maximumCoverCells)
            for _ in 0..<20 {
                let key = SpatialKey(latitude: numbers.next(south...north), longitude: numbers.next(west...east))
                for sequence in [0, SpatialKey.placesPerCell - 1] {
                    let id = key.id(sequence: sequence)
                    #expect(ranges.contains { $0.contains(id) }, "box \(south) \(north) \(west) \(east)")
                }
            }
        }
    }

    @Test("a box 80 m across is read as at most 16 cells of at most 64 m: a few hundred places in a dense city, not a district")
    func coverIsTight() {
        // 40 m around a point in Paris: where's address radius.
        let latitude = 48.8566
        let longitude = 2.3522
        let dLatitude = 40.0 / 111_000
        let dLongitude = 40.0 / (111_000 * cos(latitude * .pi / 180))
        let ranges = SpatialKey.ranges(
            south: latitude - dLatitude, north: latitude + dLatitude, west: longitude - dLongitude, east: longitude + dLongitude)
        var cells: Int64 = 0
        for range in ranges { cells += (range.upperBound - range.lowerBound + 1) >> Int64(SpatialKey.sequenceBits) }
        // A finest cell is 4.8 m by 6.3 m here: 16 cells of 8 by 8 of them are 2 450 m² each.
        #expect(cells <= 16 * 64, "\(cells) finest cells")
        #expect(cells >= 64, "\(cells) finest cells: smaller than the box")
    }

    @Test("the world is one range; a point at an edge of the world is in it")
    func edges() {
        let world = SpatialKey.ranges(south: -90, north: 90, west: -180, east: 180)
        #expect(world.count == 1)
        for (latitude, longitude) in [(-90.0, -180.0), (90, 180), (0, 0), (90, -180), (-90, 180)] {
            #expect(world[0].contains(SpatialKey(latitude: latitude, longitude: longitude).id(sequence: SpatialKey.placesPerCell - 1)))
        }
        // Out of range and not a number are clamped, never a crash.
        #expect(SpatialKey(latitude: .nan, longitude: 1000).cell >= 0)
    }

    @Test("neighbouring cells sort near each other; ids in one cell run 0 to 4095 and stay in it")
    func order() {
        let key = SpatialKey(latitude: 48.8566, longitude: 2.3522)
        #expect(key.id(sequence: 4095) < SpatialKey(cell: key.cell + 1).id(sequence: 0))
        // Half the world away, the cell's number differs in its highest bits.
        let far = SpatialKey(latitude: -48.8566, longitude: -177.6478)
        #expect(abs(far.cell - key.cell) > 1 << 40)
    }
}
