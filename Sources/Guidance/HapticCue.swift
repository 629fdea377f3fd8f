/// What the wearer should feel right now, before it is turned into motor drive: how strong and
/// how crisp. Both are in [0, 1], as in Core Haptics.
public struct HapticCue: Sendable, Hashable {
    /// Strength: 0 barely felt, 1 the strongest guidance.
    public var intensity: Double
    /// Crispness: 0 soft, long and smooth, 1 short sharp ticks.
    public var sharpness: Double
    /// Whether the wearer faces the destination closely enough that steady reassurance, not
    /// correction, is what they need (the motor then falls back to a slow heartbeat).
    public var isOnTarget: Bool

    /// A cue from its parts; intensity and sharpness are clamped to [0, 1].
    public init(intensity: Double, sharpness: Double, isOnTarget: Bool = false) {
        self.intensity = min(max(intensity, 0), 1)
        self.sharpness = min(max(sharpness, 0), 1)
        self.isOnTarget = isOnTarget
    }
}
