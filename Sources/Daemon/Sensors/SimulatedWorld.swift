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

/// The simulated world on the sampling thread: the walker moves in steps of the read interval
/// or of the chips' own rate (however long the thread slept), scripted events fire on time,
/// and the simulated receiver reports a fix once a second, as gpsd would.
struct SimulatedWorld {
    let walker: WalkerBox
    let script: SimulationScript?
    let logger: Logger
    var receiver = SimulatedGPSReceiver(startTime: UTCTime(seconds: Int64(time(nil))), seed: 2)
    let start = ContinuousClock.now
    /// Simulated time the walker has reached, seconds since start.
    var elapsedSeconds = 0.0
    /// When the next fix is due, seconds since start: the first at once.
    var nextFixSeconds = 0.0

    init(walker: WalkerBox, script: SimulationScript?, logger: Logger) {
        self.walker = walker
        self.script = script
        self.logger = logger
    }

    /// Moves the world on to `now` in steps of `stepSeconds`, and the chips' outputs with it:
    /// after each step when `updatingEachStep` (chips queueing in a FIFO need every sample),
    /// else once at the end.
    mutating func advance(
        to now: ContinuousClock.Instant, board: SimulatedBoard, core: DaemonCore<ContinuousClock>, stepSeconds: Double,
        updatingEachStep: Bool
    ) {
        let target = (now - start).seconds
        while true {
            if elapsedSeconds >= nextFixSeconds {
                nextFixSeconds += Sampling.simulatedFixInterval
                if walker.isGPSOn.load(ordering: .relaxed) {
                    core.fix(receiver.nextFix(truth: walker.walker.withLock { SimulatedGPSReceiver.Truth(walker: $0) }))
                } else {
                    receiver.skipEpoch()
                }
            }
            // Steps of the read interval up to now, the last one rounded to the nearest.
            guard elapsedSeconds + stepSeconds <= target + stepSeconds / 2 else { break }
            if let script {
                for event in script.events(after: elapsedSeconds, through: elapsedSeconds + stepSeconds) {
                    apply(event, to: board)
                }
            }
            elapsedSeconds += stepSeconds
            walker.walker.withLock { $0.step(seconds: stepSeconds) }
            if updatingEachStep { update(board) }
        }
        if !updatingEachStep { update(board) }
    }

    /// The events scripted for time 0, before anything reads the board: `0 imu-off` means no
    /// IMU at start.
    func start(board: SimulatedBoard) {
        for event in script?.events(after: -1, through: 0) ?? [] { apply(event, to: board) }
    }

    private func apply(_ event: SimulationScript.Event, to board: SimulatedBoard) {
        logger.notice("simulation", ["event": "\(event)"])
        switch event {
        case .gps(let on): walker.isGPSOn.store(on, ordering: .relaxed)
        case .magnet(let microtesla): board.physics.hardIronMicrotesla = Vector3(0, 0, microtesla)
        case .imu(let on): board.bus.isDisconnected = !on
        // On this thread, on purpose: the thread that samples and pets the watchdog is held up,
        // as a stalled SD card or bus would hold it.
        case .stall(let seconds): ThreadSleep.sleep(for: .milliseconds(Int64(seconds * 1000)))
        }
    }

    /// The chips' outputs from where the walker is now.
    private func update(_ board: SimulatedBoard) {
        let (attitude, acceleration, yawRate) = walker.walker.withLock { walker in
            (walker.attitude, walker.linearAccelerationG, walker.yawRateDegreesPerSecond)
        }
        board.update(
            attitude: attitude, linearAccelerationG: acceleration,
            bodyRatesDegreesPerSecond: attitude.toBody(Vector3(0, 0, yawRate)))
    }
}
