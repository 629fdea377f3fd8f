/// One sysfs attribute opened once and written (and read back) many times: the motor's
/// `duty_cycle`, written at
/// every pulse edge, where opening the path again for each value (path walk, truncation, close)
/// was most of the motor thread's cost.
///
/// Writes and `close()` may come from any thread, one at a time: a close during a write could
/// take the descriptor away under it, so the owner serialises them (``SysfsPWMChannel`` does,
/// under its lock).
public protocol SysfsAttributeWriter: AnyObject, Sendable {
    /// The attribute's path, relative to the sysfs root, as errors name it.
    var path: String { get }

    /// Replaces the attribute's value with a number in decimal and a newline, in one write, as
    /// ``SysfsFileSystem/write(_:to:)`` would write its text, without allocating.
    ///
    /// Writing after ``close()`` is a programmer error and traps.
    ///
    /// - Parameter value: The number, e.g. a duty cycle in nanoseconds.
    /// - Throws: `SysfsError` naming ``path`` and the kernel's errno, e.g. `EINVAL` for a duty
    ///   above the period, `ENODEV` once the channel has been unexported.
    func write(_ value: UInt64) throws(SysfsError)

    /// The attribute's value read back through the open descriptor, without allocating (the
    /// player reads its channel back about once a second): a number, or nil when what it holds
    /// is not one.
    ///
    /// - Throws: `SysfsError` naming ``path``: `ENOENT` once the attribute has been removed from
    ///   its directory (on a test tree) while open, `ENODEV` once its channel was unexported,
    ///   or what the read failed with.
    func readValue() throws(SysfsError) -> UInt64?

    /// Lets go of the attribute; closing again does nothing. Happens on deinit otherwise.
    ///
    /// - Throws: `SysfsError` naming ``path`` when the kernel reports a failure at close; the
    ///   attribute is let go of all the same.
    func close() throws(SysfsError)
}
