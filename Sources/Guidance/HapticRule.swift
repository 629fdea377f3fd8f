#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the alignment error (bearing to the destination minus heading) into a haptic cue.
///
/// The Waypoint rule (`toward`, the default): silent outside a zone of ±Z around the
/// destination; inside it, with x = (|e| / Z)^p,
/// `intensity = centre + (edge − centre)·x` and `sharpness = centre + (edge − centre)·x`, so
/// with the defaults intensity = 0.1 + 0.9·(1 − |e|/Z) and sharpness = 0.8·|e|/Z: strong and
/// smooth when facing the destination, light and crisp at the edge of the zone.
///
/// The `away` rule (Wayband, feelSpace): silent inside the zone, and outside it a cue that grows
/// from the edge values at |e| = Z to the centre values when facing directly away, with
/// x = ((|e| − Z) / (180 − Z))^p.
public struct HapticRule: Sendable, Hashable {
    /// Feel the motor when facing the destination, or when facing away from it.
    public enum FeedbackMode: String, Sendable, Hashable, CaseIterable {
        /// Vibrate while facing the destination (Waypoint). The default.
        case toward
        /// Vibrate while off course, silent while on it (Wayband, feelSpace).
        case away
    }

    /// Half-width Z of the zone, degrees, in (0, 180). Default 20.
    public var zoneDegrees: Double = 20
    /// Intensity at the centre of the zone (facing the destination). Default 1.
    public var intensityAtCenter: Double = 1
    /// Intensity at the edge of the zone. Default 0.1.
    public var intensityAtEdge: Double = 0.1
    /// Sharpness at the centre of the zone. Default 0.
    public var sharpnessAtCenter: Double = 0
    /// Sharpness at the edge of the zone. Default 0.8.
    public var sharpnessAtEdge: Double = 0.8
    /// Exponent p of the curve between centre and edge; 1 is linear, above 1 keeps the cue
    /// near its centre values longer. Default 1.
    public var curveExponent: Double = 1
    /// Within this fraction of the zone the wearer counts as on target (for the heartbeat).
    /// Default 0.1 (±2° with the default zone).
    public var onTargetFraction: Double = 0.1
    /// Toward or away. Default toward.
    public var mode: FeedbackMode = .toward

    /// The default rule.
    public init() {}

    /// The cue for an alignment error, or nil when the motor should be silent.
    /// - Parameters:
    ///   - alignmentErrorDegrees: bearing minus heading, any angle (it is wrapped); positive
    ///     means the destination is to the right.
    ///   - zoneDegrees: the zone to use instead of `zoneDegrees`, when GPS error widens it.
    public func cue(alignmentErrorDegrees: Double, zoneDegrees zoneOverride: Double? = nil) -> HapticCue? {
        guard alignmentErrorDegrees.isFinite else { return nil }
        let zone = min(max(zoneOverride ?? zoneDegrees, Self.smallestZoneDegrees), Self.largestZoneDegrees)
        let wrapped = remainder(alignmentErrorDegrees, 360)
        let magnitude = abs(wrapped)
        switch mode {
        case .toward:
            guard magnitude <= zone else { return nil }
            let x = pow(magnitude / zone, curveExponent)
            return blend(x, isOnTarget: magnitude <= onTargetFraction * zone)
        case .away:
            guard magnitude > zone else { return nil }
            let x = pow(min(1, (magnitude - zone) / (180 - zone)), curveExponent)
            // Facing directly away (x = 1) gets the centre (strongest) values.
            return blend(1 - x, isOnTarget: false)
        }
    }

    /// Narrowest and widest zones the rule accepts, degrees.
    static let smallestZoneDegrees = 1.0
    static let largestZoneDegrees = 179.0

    private func blend(_ x: Double, isOnTarget: Bool) -> HapticCue {
        HapticCue(
            intensity: intensityAtCenter + (intensityAtEdge - intensityAtCenter) * x,
            sharpness: sharpnessAtCenter + (sharpnessAtEdge - sharpnessAtCenter) * x,
            isOnTarget: isOnTarget)
    }
}
