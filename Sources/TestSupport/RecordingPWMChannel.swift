import Haptics
import Synchronization

/// A PWM channel that records every duty written, with the manual clock's time.
public final class RecordingPWMChannel: PWMChannel, Sendable {
    /// One write.
    public struct Write: Sendable, Equatable {
        public let at: Duration
        public let nanoseconds: UInt64
    }

    public let periodNanoseconds: UInt64
    private let clock: ManualClock
    private let log = Mutex<[Write]>([])
    private let shutDowns = Mutex(0)

    /// A channel with the given period whose writes are stamped with `clock`.
    public init(periodNanoseconds: UInt64 = 40_000, clock: ManualClock) {
        self.periodNanoseconds = periodNanoseconds
        self.clock = clock
    }

    /// Every duty written, in order.
    public var writes: [Write] { log.withLock { $0 } }
    /// How often `shutDown()` ran.
    public var shutDownCount: Int { shutDowns.withLock { $0 } }

    public func setDutyCycle(nanoseconds: UInt64) throws(PWMError) {
        log.withLock { $0.append(Write(at: clock.now.offset, nanoseconds: nanoseconds)) }
    }

    public func shutDown() throws(PWMError) {
        log.withLock { $0.append(Write(at: clock.now.offset, nanoseconds: 0)) }
        shutDowns.withLock { $0 += 1 }
    }
}
