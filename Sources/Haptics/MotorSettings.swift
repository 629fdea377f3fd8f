/// How one coin ERM motor on one PWM pin behaves, and how cues are rendered on it. Duties are
/// fractions of the PWM period, 0…1. Measure the four duties and the stop time once per motor
/// (reference/haptics.md §4.2); the defaults suit a 3 V coin motor on a 5 V rail.
public struct MotorSettings: Sendable, Hashable {
    /// PWM carrier frequency, hertz: above hearing, so the motor does not whine. Default 25 kHz.
    public var carrierFrequencyHertz: Double = 25_000
    /// Lowest duty that starts the motor from rest. Every pulse begins at or above it.
    /// Default 0.56.
    public var startDuty: Double = 0.56
    /// Lowest duty that keeps it spinning and is still felt: the weakest hold. Default 0.40.
    public var floorDuty: Double = 0.40
    /// Duty at the motor's rated voltage: the strongest hold. Default 0.60.
    public var ratedDuty: Double = 0.60
    /// The most the motor is ever driven; kicks use it. Default 1.0.
    public var maximumDuty: Double = 1.0
    /// Kick at `maximumDuty` at the start of the sharpest pulses; scaled by sharpness.
    /// Default 40 ms.
    public var kickLength: Duration = .milliseconds(40)
    /// How long a pulse whose hold is below `startDuty` is driven at `startDuty` first.
    /// Default 20 ms.
    public var startAssistLength: Duration = .milliseconds(20)
    /// Time the motor takes to stop; gaps are never shorter than this plus 50 ms, so pulses
    /// stay apart. Default 100 ms.
    public var stopLength: Duration = .milliseconds(100)
    /// Pulse length at sharpness 0 and 1. Defaults 350 ms and 60 ms.
    public var softPulseLength: Duration = .milliseconds(350)
    /// See `softPulseLength`.
    public var sharpPulseLength: Duration = .milliseconds(60)
    /// Gap after a pulse at intensity 0 and 1. Defaults 600 ms and 150 ms.
    public var weakGapLength: Duration = .milliseconds(600)
    /// See `weakGapLength`.
    public var strongGapLength: Duration = .milliseconds(150)
    /// Longest ramp up (sharpness 0) and down; sharp pulses have none. Defaults 120 and 80 ms.
    public var longestRampUp: Duration = .milliseconds(120)
    /// See `longestRampUp`.
    public var longestRampDown: Duration = .milliseconds(80)
    /// Ramps move in steps this long. Default 20 ms: a coin ERM takes about 116 ms to spin up
    /// (reference/haptics.md §2), so its rotor smooths 20 ms steps into a ramp, and each step
    /// is a wakeup and a sysfs write the battery pays for.
    public var rampStep: Duration = .milliseconds(20)
    /// After this long continuously on target, fall back to a heartbeat. Default 10 s.
    public var heartbeatAfter: Duration = .seconds(10)
    /// One pulse this often while in heartbeat. Default 2.5 s.
    public var heartbeatInterval: Duration = .milliseconds(2500)

    /// The defaults.
    public init() {}

    /// The PWM period, nanoseconds.
    public var periodNanoseconds: UInt64 {
        UInt64((1e9 / max(carrierFrequencyHertz, 1)).rounded())
    }
}
