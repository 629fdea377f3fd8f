import Guidance

/// What the daemon's core asks of the motor: the smallest surface of ``HapticPlayer``, so that
/// the core's executor can be tested against a recording fake. Every call returns at once, from
/// any thread.
public protocol MotorOutput: Sendable {
    /// What to feel from the next pulse on; nil: silent.
    func deliver(cue: HapticCue?)
    /// Plays a pattern ahead of the cue.
    func deliver(pattern: HapticPattern)
    /// Stops the pattern playing and drops the one waiting.
    func silence()
    /// The duty last written to the motor, 0…1.
    var duty: Double { get }
    /// The pattern playing now, if one is.
    var pattern: HapticPattern? { get }
    /// Why the motor cannot be driven now, in words; nil when it works.
    var faultDescription: String? { get }
    /// Whether a pattern is playing or waiting.
    var isPlayingPattern: Bool { get }
}

extension HapticPlayer: MotorOutput {
    public nonisolated var faultDescription: String? { fault.map { "\($0)" } }
}

/// A motor that plays nothing and is never busy: for what runs the daemon's core without a
/// motor (`waypoint-bench`, tests that look only at replies).
public struct SilentMotor: MotorOutput {
    /// A motor that plays nothing.
    public init() {}
    public func deliver(cue: HapticCue?) {}
    public func deliver(pattern: HapticPattern) {}
    public func silence() {}
    public var duty: Double { 0 }
    public var pattern: HapticPattern? { nil }
    public var faultDescription: String? { nil }
    public var isPlayingPattern: Bool { false }
}
