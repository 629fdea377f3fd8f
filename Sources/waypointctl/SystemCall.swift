/// The one place where a libc return value becomes a `Result`: libc returns −1 and sets
/// `errno`, and a call interrupted by a signal before it did anything fails with `EINTR` and may
/// simply be made again.
enum SystemCall {
    /// Runs `call`, again after `EINTR` when `retryOnInterrupt` is set, and turns "−1 and
    /// errno" into a `Result`. `errno` is read right after the call, on the same thread.
    /// - Parameters:
    ///   - retryOnInterrupt: Whether to make the call again after `EINTR`; off for calls that
    ///     must not be repeated, such as `close` and `connect`.
    ///   - call: The libc call; it returns −1 on failure.
    /// - Returns: The call's value, or the `Errno` it failed with.
    static func valueOrErrno<Value: FixedWidthInteger>(
        retryOnInterrupt: Bool = true, _ call: () -> Value
    ) -> Result<Value, Errno> {
        while true {
            let value = call()
            if value != -1 { return .success(value) }
            let error = Errno.current
            if retryOnInterrupt && error == .interrupted { continue }
            return .failure(error)
        }
    }
}
