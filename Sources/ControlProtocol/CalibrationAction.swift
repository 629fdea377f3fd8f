/// The `action` of a `calibrate` request.
public enum CalibrationAction: String, Sendable, Hashable, CaseIterable {
    /// Start collecting magnetometer samples while the wearer turns the device through a
    /// figure-eight; guidance vibration pauses meanwhile.
    case start
    /// Fit the collected samples; store and use the result, or refuse saying what is missing
    /// (collection then goes on, so the wearer can keep turning).
    case finish
    /// Stop collecting and keep the calibration in use.
    case cancel
    /// Report progress or the stored calibration.
    case status
    /// Forget the stored calibration; the heading is unreliable until a new one is made.
    case reset
}
