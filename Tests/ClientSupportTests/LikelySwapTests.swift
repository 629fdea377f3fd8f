import ClientSupport
import Geodesy
import Testing

/// The swap check both clients make before `go` (issue 38: the page set a destination 6 792 km
/// away from `2.2945 48.8584` typed in Paris, which waypointctl refused).
@Suite(.timeLimit(.minutes(5))) struct LikelySwapTests {
    static let paris = Coordinate(uncheckedLatitudeDegrees: 48.8566, longitudeDegrees: 2.3522)

    @Test func longitudeFirstNearTheWearerIsALikelySwap() throws {
        let typed = Coordinate(uncheckedLatitudeDegrees: 2.2945, longitudeDegrees: 48.8584)
        let swap = try #require(LikelySwap(destination: typed, fix: Self.paris))
        #expect(swap.meant == Coordinate(uncheckedLatitudeDegrees: 48.8584, longitudeDegrees: 2.2945))
        // Karney's distances, as GeographicLib's GeodSolve gives them for these points.
        #expect(abs(swap.meantMeters - 4_238.773) < 0.01, "\(swap.meantMeters)")
        #expect(abs(swap.typedMeters - 6_790_486.508) < 0.01, "\(swap.typedMeters)")
        
        #expect(swap.finding.hasPrefix("2.2945 48.8584 is "))
        #expect(swap.finding.hasSuffix("but 48.8584 2.2945 (the same numbers, latitude first) is 4.24 km away"), "\(swap.finding)")
    }

    @Test func aFarDestinationWhoseSwapIsFarTooIsNoSwap() {
        // Sydney from Paris: far either way round.
        #expect(LikelySwap(destination: Coordinate(uncheckedLatitudeDegrees: -33.8568, longitudeDegrees: 151.2153), fix: Self.paris) == nil)
        // Near as typed: nothing to ask.
        #expect(LikelySwap(destination: Coordinate(uncheckedLatitudeDegrees: 48.86, longitudeDegrees: 2.29), fix: Self.paris) == nil)
        // A longitude beyond 90° cannot be a latitude.
        #expect(LikelySwap(destination: Coordinate(uncheckedLatitudeDegrees: 2.29, longitudeDegrees: 120.0), fix: Self.paris) == nil)
    }
}
