/// One PWM output driving the motor: the smallest surface the player needs.
public protocol PWMChannel: Sendable {
    /// The period set when the channel was opened, nanoseconds.
    var periodNanoseconds: UInt64 { get }
    /// Sets the active time of each period, nanoseconds (0 = motor off, ≤ the period).
    /// - Throws: `PWMError` naming the file and the kernel's reason.
    func setDutyCycle(nanoseconds: UInt64) throws(PWMError)
    /// The safe state: duty 0, output disabled, the channel released if we exported it. Safe to
    /// call more than once.
    /// - Throws: `PWMError`; the caller should still consider the motor's state unknown.
    func shutDown() throws(PWMError)
}

extension PWMChannel {
    /// Sets the duty as a fraction of the period, clamped to [0, 1].
    public func setDuty(_ fraction: Double) throws(PWMError) {
        let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        try setDutyCycle(nanoseconds: UInt64((Double(periodNanoseconds) * clamped).rounded()))
    }
}
