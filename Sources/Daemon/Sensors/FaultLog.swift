@preconcurrency import Glibc
import Geodesy
import GPSClient
import Guidance
import Haptics
import Heading
import IMU
import Simulation
import Synchronization
import SystemSupport

/// IMU faults in the log without flooding it: a board cut off fails every read, ten to a hundred
/// times a second, for as long as it lasts, and a loaded bus can fail every other read. One
/// ``FaultSpell``: the first fault, a count every five minutes, and the recovery once reads
/// have worked for 2 s.
struct FaultLog {
    private var spell = FaultSpell<ContinuousClock.Instant>(quietInterval: .seconds(2))

    mutating func note(_ outcome: IMUReader.Outcome, logger: Logger) {
        switch outcome {
        case .deviceFault(let fault):
            switch spell.fault(at: .now) {
            case .began: logger.warning("imu fault", ["fault": "\(fault)"])
            case .continuing(let count): logger.warning("imu fault", ["fault": "\(fault)", "failed.reads": "\(count)"])
            case .ended, nil: break
            }
        case .sample:
            // Every good read comes here, up to a hundred a second: the clock only during a spell.
            guard spell.isUnderWay else { return }
            if case .ended(let count) = spell.working(at: .now) { logger.notice("imu recovered", ["failed.reads": "\(count)"]) }
        case .noNewSample:
            break
        }
    }
}
