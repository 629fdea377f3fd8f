import Geodesy
import GPSClient
import Heading
import IMU
import Synchronization
import SystemSupport

/// The world `waypointd --simulate` runs in: a walker who heads for the destination, the board
/// they wear, a GPS receiver that reports where they are, and a script of things that go wrong.
/// The daemon meets it only through its production seams: an I2C bus (``bus``) that the
/// sampling thread reads as it reads `/dev/i2c-1`, and a ``GPSFixSource`` (``gpsSource()``) on
/// its own thread, as gpsd's is. Nothing in the daemon's sampling loop or core knows it is a
/// simulation.
///
/// Time is the world's clock (a ``ScaledClock``, faster than real time with
/// `--simulate-speed`). The world moves on lazily, when someone looks: each transfer on the bus
/// and each fix first advances the walker to now, in steps of the chips' own sample period,
/// updating the chips at each step (so an accelerometer's FIFO queues every sample) and firing
/// the script's events on time. It costs no wake-ups of its own.
public final class SimulatedWorld: Sendable {
    /// The world's defaults: where the walker starts and what they wear.
    public struct Settings: Sendable {
        /// Where the simulated wearer starts: the Champ de Mars, Paris.
        public var start = Coordinate(uncheckedLatitudeDegrees: 48.8556, longitudeDegrees: 2.2986)
        /// Which way they face at first, degrees from true north.
        public var startYawDegrees = 200.0
        /// The board they wear.
        public var board = BoardPreset.berryGPSIMUv4
        /// The UTC time of the first fix, POSIX seconds: the daemon passes the time of day, so
        /// that the trail's times and `track export --since 30m` agree.
        public var startUTCSeconds: Int64 = 1_782_950_400
        /// How often the chips sample (and the walker moves), per second: the LSM6DS family's
        /// 52 Hz, the fastest FIFO rate the readers ask for.
        public var stepHertz = 52.0
        /// How often the receiver reports, seconds: once a second, as a phone-class receiver does.
        public var fixIntervalSeconds = 1.0

        /// The defaults.
        public init() {}
    }

    /// The mutable world, behind one lock: the board's registers are plain mutable state.
    private struct State: @unchecked Sendable {
        // @unchecked: the board and its bus are touched only with the world's lock held.
        var walker: SimulatedWalker
        let board: SimulatedBoard
        var receiver: SimulatedGPSReceiver
        /// The steps the world has taken: its time is this many chip sample periods since start
        /// (counted, not summed, so that a fix's epoch falls on the step it should).
        var steps = 0
        /// The step at which the next fix is made: the first at once.
        var nextFixStep = 0
        /// Fixes made so far.
        var fixes = 0
        /// Fixes made as the world passed their epochs, oldest first, until the receiver's
        /// thread takes them (at most ``maximumPendingFixes``; room kept, so none allocates).
        var pendingFixes: [Fix] = []
        /// Whether the receiver reports fixes (a script can silence it).
        var isGPSOn = true
        /// A stall the script set off, seconds: the next transfer on the bus waits this long.
        var pendingStallSeconds = 0.0
        /// The script's events already fired, by index.
        var nextEvent = 0
    }

    /// The world's clock.
    public let clock: ScaledClock
    /// The settings it was made with.
    public let settings: Settings
    private let script: SimulationScript?
    private let logger: Logger?
    private let observeStep: (@Sendable (_ seconds: Double, _ yawDegrees: Double) -> Void)?
    /// The button the script presses, if the daemon reads one.
    private let button: SimulatedButton?
    private let state: Mutex<State>

    /// A world starting now on `clock`, with nothing happened yet.
    ///
    /// - Parameters:
    ///   - settings: Where and what.
    ///   - script: What goes wrong, and when (`--simulate-events`).
    ///   - clock: The world's clock.
    ///   - logger: Where scripted events are logged as they fire.
    ///   - observeStep: Told the walker's yaw (degrees from true north) at each step, with the
    ///     step's time on `clock` (seconds since its origin), under the world's lock: the truth a
    ///     bench times the daemon against. Must return at once and not call the world.
    public init(
        settings: Settings = Settings(), script: SimulationScript? = nil, clock: ScaledClock, logger: Logger? = nil,
        button: SimulatedButton? = nil, observeStep: (@Sendable (_ seconds: Double, _ yawDegrees: Double) -> Void)? = nil
    ) {
        self.settings = settings
        self.button = button
        self.observeStep = observeStep
        self.script = script
        self.clock = clock
        self.logger = logger
        let physics = SensorPhysics(
            latitudeDegrees: settings.start.latitudeDegrees, longitudeDegrees: settings.start.longitudeDegrees,
            decimalYear: UTCTime(seconds: settings.startUTCSeconds).decimalYear, seed: 3)
        state = Mutex(
            State(
                walker: SimulatedWalker(position: settings.start, yawDegrees: settings.startYawDegrees, seed: 1),
                board: SimulatedBoard(preset: settings.board, physics: physics),
                receiver: SimulatedGPSReceiver(startTime: UTCTime(seconds: settings.startUTCSeconds), seed: 2)))
        // The events scripted for time 0 come before anything reads the board: `0 imu-off` means
        // no IMU at start.
        state.withLock { state in
            state.pendingFixes.reserveCapacity(Self.maximumPendingFixes)
            fire(through: 0, in: &state)
        }
    }

    /// The bus the board sits on, to be read as `/dev/i2c-1` is.
    public var bus: any I2CBus { SimulatedWorldBus(world: self) }

    /// A device on the board's bus (nothing is transferred), for ``SimulatedWorldBus``.
    func boardDevice(at address: UInt8) throws(I2CError) -> any I2CDevice {
        try state.withLock { state throws(I2CError) in try state.board.bus.device(at: address) }
    }

    /// The board's bus number.
    var busNumber: Int { state.withLock { $0.board.bus.number } }

    /// The receiver, as a fix source on its own thread.
    public func gpsSource() -> any GPSFixSource { SimulatedGPSSource(world: self) }

    /// The destination the daemon guides to: the walker heads for it.
    public func setDestination(_ destination: Coordinate?) { state.withLock { $0.walker.destination = destination } }

    /// A calibration started or ended: the walker tumbles the device meanwhile.
    public func setCalibrating(_ calibrating: Bool) { state.withLock { $0.walker.isCalibrating = calibrating } }

    // MARK: - For the seams

    /// One transfer on the board's bus, with the world advanced to now first. A stall the script
    /// set off holds the calling thread (the sampling thread) for its length first, as a stuck
    /// bus would.
    func transfer<Result>(_ body: () throws(I2CError) -> Result) throws(I2CError) -> Result {
        // One lock per transfer: the stall is taken (and slept outside the lock) only when set.
        let outcome: (result: Result?, stallSeconds: Double) = try state.withLock { state throws(I2CError) in
            guard state.pendingStallSeconds == 0 else {
                defer { state.pendingStallSeconds = 0 }
                return (nil, state.pendingStallSeconds)
            }
            advance(&state)
            return (try body(), 0)
        }
        if let result = outcome.result { return result }
        ThreadSleep.sleep(for: clock.realDuration(of: .seconds(outcome.stallSeconds)))
        return try transfer(body)
    }

    /// Fixes kept for the receiver's thread at most: a minute's, should it fall behind.
    static let maximumPendingFixes = 64

    /// The fixes made by now, oldest first (more than one after a long wait), swapped into
    /// `fixes` (emptied first), and when the next is due on the world's clock. The caller keeps
    /// `fixes` with room for ``maximumPendingFixes`` and hands them on after the world's lock is
    /// released (handing them on may tell the world of a new destination): nothing allocates.
    func takeFixes(into fixes: inout [Fix]) -> ScaledClock.Instant {
        fixes.removeAll(keepingCapacity: true)
        return state.withLock { state in
            advance(&state)
            swap(&fixes, &state.pendingFixes)
            return ScaledClock.Instant(offset: .seconds(Double(state.nextFixStep) / settings.stepHertz))
        }
    }

    // MARK: - Moving on

    /// Moves the world on to now in steps of the chips' sample period, updating the chips after
    /// each, firing the script's events and making each fix as its epoch passes (whoever moved
    /// the world on: the fix is the truth at its epoch).
    private func advance(_ state: inout State) {
        let target = clock.now.offset.seconds
        let step = 1 / settings.stepHertz
        var moved = false
        while true {
            if state.steps >= state.nextFixStep {
                state.fixes += 1
                // The first step at or after the next epoch: a fix is due at the time the world
                // reaches, never a step before it (which would have the receiver's thread wait
                // for a world that has not moved yet).
                state.nextFixStep = Int((Double(state.fixes) * settings.fixIntervalSeconds * settings.stepHertz).rounded(.up))
                if state.isGPSOn {
                    if state.pendingFixes.count >= Self.maximumPendingFixes { state.pendingFixes.removeFirst() }
                    state.pendingFixes.append(state.receiver.nextFix(truth: SimulatedGPSReceiver.Truth(walker: state.walker)))
                } else {
                    state.receiver.skipEpoch()
                }
            }
            let next = Double(state.steps + 1) / settings.stepHertz
            guard next <= target else { break }
            fire(through: next, in: &state)
            state.steps += 1
            state.walker.step(seconds: step)
            observeStep?(next, state.walker.yawDegrees)
            // A FIFO must be given every sample; otherwise only the last step's is ever read,
            // and the physics of the others would cost an idle daemon for nothing.
            if state.board.accelerometer.isQueueing { update(&state) }
            moved = true
        }
        if moved, !state.board.accelerometer.isQueueing { update(&state) }
    }

    /// The chips' outputs from where the walker is now.
    private func update(_ state: inout State) {
        let (attitude, acceleration, yawRate) = (
            state.walker.attitude, state.walker.linearAccelerationG, state.walker.yawRateDegreesPerSecond
        )
        state.board.update(
            attitude: attitude, linearAccelerationG: acceleration,
            bodyRatesDegreesPerSecond: attitude.toBody(Vector3(0, 0, yawRate)))
    }

    /// Fires the script's events up to `seconds`.
    private func fire(through seconds: Double, in state: inout State) {
        guard let entries = script?.entries else { return }
        while state.nextEvent < entries.count, entries[state.nextEvent].seconds <= seconds {
            let event = entries[state.nextEvent].event
            state.nextEvent += 1
            logger?.notice("simulation", ["event": "\(event)"])
            switch event {
            case .gps(let on): state.isGPSOn = on
            case .magnet(let microtesla): state.board.physics.hardIronMicrotesla = Vector3(0, 0, microtesla)
            case .imu(let on): state.board.bus.isDisconnected = !on
            case .stall(let seconds): state.pendingStallSeconds += seconds
            case .turn(let degrees, let rate): state.walker.turn(byDegrees: degrees, degreesPerSecond: rate)
            case .stray(let meters): state.walker.stray(meters: meters)
            case .press(let gesture):
                // One write to a pipe that does not block, and no other lock: safe under ours.
                if let button { button.press(gesture) } else { logger?.warning("simulation: no button to press", [:]) }
            }
        }
    }
}
