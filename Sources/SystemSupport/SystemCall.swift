@preconcurrency import Glibc

/// The one place where a libc return value becomes a `Result`: libc returns −1 and sets `errno`,
/// and a call interrupted by a signal before it did anything fails with `EINTR` and may simply be
/// made again.
package enum SystemCall {
    /// Runs `call` until it does not fail with `EINTR` (when `retryOnInterrupt` is set) and turns
    /// libc's "−1 and errno" convention into a `Result`.
    ///
    /// `errno` is read right after the call, on the same thread, before anything else can
    /// overwrite it.
    ///
    /// - Parameters:
    ///   - retryOnInterrupt: Whether to make the call again after `EINTR`. Off only for calls that
    ///     must not be repeated, such as `close`.
    ///   - call: The libc call; it returns −1 on failure and any other value on success.
    /// - Returns: The call's value, or the `Errno` it failed with.
    package static func valueOrErrno<Value: FixedWidthInteger>(
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

    /// Runs `call` until it does not fail with `EINTR` and turns the convention of libraries
    /// that return the negated errno (libi2c's SMBus calls) into a `Result`.
    ///
    /// - Parameter call: The call; it returns a non-negative value on success, −errno on failure.
    /// - Returns: The call's value, or the `Errno` it failed with.
    package static func valueOrNegatedErrno(_ call: () -> Int32) -> Result<Int32, Errno> {
        while true {
            let value = call()
            if value >= 0 { return .success(value) }
            let error = Errno(rawValue: -value)
            if error == .interrupted { continue }
            return .failure(error)
        }
    }
}
