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
    /// Checks, where the output can be read back, that it still holds what was last written
    /// and is still enabled: a channel removed, replaced or driven by another program fails.
    /// - Throws: `PWMError` saying what is wrong.
    func verify() throws(PWMError)
    /// Sets the channel up again after a failure, as when it was opened: period, duty 0,
    /// enabled.
    /// - Throws: `PWMError` when it still cannot be driven.
    func reopen() throws(PWMError)
}

extension PWMChannel {
    /// A channel that cannot be read back passes: there is nothing to compare.
    public func verify() throws(PWMError) {}
    /// A channel with nothing to set up again.
    public func reopen() throws(PWMError) {}

    /// Sets the duty as a fraction of the period, clamped to [0, 1].
    public func setDuty(_ fraction: Double) throws(PWMError) {
        let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        try setDutyCycle(nanoseconds: UInt64((Double(periodNanoseconds) * clamped).rounded()))
    }
}
