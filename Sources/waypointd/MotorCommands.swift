@preconcurrency import Glibc
import ControlProtocol
import CommandLineSupport
import Daemon
import Guidance
import Haptics
import Synchronization
import SystemSupport

/// `waypointd motor-test` and `waypointd motor-off`: the motor on its own, for wiring it up and
/// for systemd's `ExecStopPost=`.
enum MotorCommands {
    static let help = """
        usage: waypointd motor-test [--pattern NAME] [--repeat] [MOTOR-OPTIONS]
               waypointd motor-off [--force] [MOTOR-OPTIONS]

        motor-test plays a pattern on the motor (default: test, one second at full drive) and
        switches it off; with --repeat it plays until interrupted (SIGINT or SIGTERM), and the
        motor is always left off. Patterns: \(HapticPattern.named.map(\.rawValue).joined(separator: ", ")).

        motor-off forces the motor off: duty 0 and output disabled, if the channel is exported.
        It is what systemd runs after the daemon stops, whatever the reason, so that a crash
        never leaves the motor running. While a daemon drives the motor, motor-off asks it
        over its socket to mute instead (undo with waypointctl mute off); --force writes the
        channel anyway, and the daemon, finding its channel changed under it, sets it up again
        within a few seconds.

        The motor has one owner: the daemon or motor-test holds a lock on the PWM chip, and
        motor-test refuses (exit 75) while another holds it, naming the holder.

        MOTOR-OPTIONS
          --config PATH        the daemon's config file, for its PWM chip, channel and motor
                               settings (default /etc/waypointd/waypointd.conf, if it exists)
          --pwm-chip CHIP      auto, pwmchipN, or the device name, e.g. 1f00098000.pwm
                               (default: the config's pwm-chip)
          --pwm-channel N      channel on that chip (default: the config's pwm-channel)
          --sysfs-root DIR     directory standing for / (default /), for tests and simulation
          --socket PATH        motor-off: the running daemon's socket (default: the config's)
          --force              motor-off: write the channel even while a daemon drives it
        """

    struct MotorOptions {
        var configPath: String?
        var chip: SysfsPWMChannel.Chip?
        var channel: Int?
        var sysfsRoot = "/"
        var pattern = HapticPattern.motorTest
        var repeats = false
        var socketPath: String?
        var force = false

    }

    /// The channel to drive and the motor's settings: the options over the config file.
    struct Target {
        var chip: SysfsPWMChannel.Chip
        var channel: Int
        var settings: MotorSettings
        /// The daemon's control socket.
        var socketPath: String
    }

    /// What a command starts from: its options and target, or the exit status of a problem
    /// already reported.
    enum Preparation {
        case ready(MotorOptions, Target)
        case exit(ExitStatus)
    }

    /// Parses the arguments and reads the config file they name.
    static func prepare(_ words: [String], command: String) throws(UsageError) -> Preparation {
        let options = try parse(words, command: command)
        do throws(ConfigurationError) {
            let configuration = try PrintConfigCommand.load(options.configPath)
            return .ready(
                options,
                Target(
                    chip: options.chip ?? configuration.pwmChip, channel: options.channel ?? configuration.pwmChannel,
                    settings: configuration.motorSettings, socketPath: options.socketPath ?? configuration.socketPath))
        } catch {
            fputs("\(error)\n", stderr)
            return .exit(.configuration)
        }
    }

    /// The options of `motor-test` (`--pattern`, `--repeat`) or `motor-off` (`--socket`,
    /// `--force`), and the MOTOR OPTIONS both take.
    static func parse(_ words: [String], command: String) throws(UsageError) -> MotorOptions {
        let testing = command == "motor-test"
        let arguments = try Arguments(
            words,
            valueOptions: Set(["--config", "--pwm-chip", "--pwm-channel", "--sysfs-root", testing ? "--pattern" : "--socket"]),
            flagOptions: testing ? ["--repeat"] : ["--force"], command: command)
        try arguments.expectNoPositionals()
        var options = MotorOptions()
        options.configPath = try arguments.nonEmptyValue("--config", what: "a path")
        options.chip = try arguments.nonEmptyValue("--pwm-chip", what: "a chip").map(SysfsPWMChannel.Chip.init(parsing:))
        if let text = arguments.value("--pwm-channel") {
            guard let number = Int(text), number >= 0 else {
                throw UsageError("--pwm-channel needs a channel number (0, 1, …)", command: command)
            }
            options.channel = number
        }
        options.sysfsRoot = try arguments.nonEmptyValue("--sysfs-root", what: "a directory") ?? "/"
        if let text = arguments.value("--pattern") {
            guard let pattern = HapticPattern(rawValue: text) else {
                let names = HapticPattern.named.map(\.rawValue).joined(separator: ", ")
                throw UsageError("--pattern takes one of: \(names)", command: command)
            }
            options.pattern = pattern
        }
        options.repeats = arguments.has("--repeat")
        options.socketPath = try arguments.nonEmptyValue("--socket", what: "a path")
        options.force = arguments.has("--force")
        return options
    }

    static func motorOff(_ words: [String]) throws(UsageError) -> ExitStatus {
        let options: MotorOptions
        let target: Target
        switch try prepare(words, command: "motor-off") {
        case .exit(let status): return status
        case .ready(let parsed, let resolved): (options, target) = (parsed, resolved)
        }
        let sysfs = LinuxSysfs(root: options.sysfsRoot)
        var lock: PWMChannelLock?
        do throws(PWMError) {
            lock = try sysfs.lockChip(target.chip)
        } catch {
            guard case .heldElsewhere(let holder) = error else {
                // No chip, or no lock to be had: forcing the channel off is all there is to do.
                return forceOff(sysfs, target)
            }
            if !options.force {
                return askDaemonToMute(target.socketPath, holder: holder)
            }
            fputs("waypointd: motor-off: forcing the channel off under \(holder.map { "process \($0)" } ?? "its owner"), "
                + "which will set it up again\n", stderr)
        }
        defer { withExtendedLifetime(lock) {} }
        return forceOff(sysfs, target)
    }

    private static func forceOff(_ sysfs: LinuxSysfs, _ target: Target) -> ExitStatus {
        do throws(PWMError) {
            try SysfsPWMChannel.forceOff(fileSystem: sysfs, chip: target.chip, channel: target.channel)
            return .success
        } catch {
            fputs("waypointd: motor-off: \(error)\n", stderr)
            return .failure
        }
    }

    /// The daemon drives the motor: `mute on` over its socket, which silences it and stays.
    private static func askDaemonToMute(_ socketPath: String, holder: String?) -> ExitStatus {
        let owner = holder.map { "process \($0)" } ?? "a running daemon"
        switch DaemonRequest.send(ControlRequest.mute(true), to: socketPath) {
        case .success:
            print("waypointd: motor-off: the motor is driven by \(owner); asked it to mute (waypointctl mute off undoes it)")
            return .success
        case .failure(let reason):
            fputs(
                "waypointd: motor-off: the motor is driven by \(owner), and asking it to mute on \(socketPath) failed: "
                    + "\(reason); if it listens elsewhere, give its --socket PATH, or use --force to write the channel anyway\n",
                stderr)
            return .failure
        }
    }

    /// The signals that end `motor-test` with the motor off; `main` blocks them before any
    /// thread starts (``SignalStream/block(_:)``), so that none sent in its first instant is lost.
    static let signalsTaken = [SIGINT, SIGTERM]

    static func motorTest(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let options: MotorOptions
        let target: Target
        switch try prepare(words, command: "motor-test") {
        case .exit(let status): return status
        case .ready(let parsed, let resolved): (options, target) = (parsed, resolved)
        }
        let signals: AsyncStream<Int32>
        do throws(Errno) {
            signals = try SignalStream.make(signalsTaken)
        } catch {
            fputs("waypointd: motor-test: cannot start the thread that takes signals: \(error)\n", stderr)
            return .software
        }
        let settings = target.settings
        let channel: SysfsPWMChannel
        let lock: PWMChannelLock
        do throws(PWMError) {
            lock = try LinuxSysfs(root: options.sysfsRoot).lockChip(target.chip)
        } catch {
            fputs("waypointd: motor-test: \(error)\n", stderr)
            // EX_TEMPFAIL: try again once the other owner is done.
            if case .heldElsewhere = error { return .temporaryFailure }
            return .failure
        }
        defer { withExtendedLifetime(lock) {} }
        do throws(PWMError) {
            channel = try SysfsPWMChannel(
                fileSystem: LinuxSysfs(root: options.sysfsRoot), chip: target.chip, channel: target.channel,
                periodNanoseconds: settings.periodNanoseconds)
        } catch {
            fputs("waypointd: motor-test: \(error)\n", stderr)
            return .failure
        }
        let clock = ContinuousClock()
        // A failed channel makes the player retry; for a test of the wiring, one failure is the
        // answer: it ends the test with status 1.
        let failure = Mutex<PWMError?>(nil)
        let player = HapticPlayer(channel: channel, settings: settings, clock: clock) { fault in
            if let fault { failure.withLock { $0 = $0 ?? fault } }
        }
        let length = ERMRenderer(settings: settings).timeline(for: options.pattern).length
        return await withTaskGroup(of: ExitStatus?.self) { group in
            group.addTask {
                do {
                    try await player.run()
                    return .success
                } catch {
                    fputs("waypointd: motor-test: \(error)\n", stderr)
                    return .failure
                }
            }
            group.addTask {
                repeat {
                    player.deliver(pattern: options.pattern)
                    try? await clock.sleep(for: length + .milliseconds(300))
                } while options.repeats && !Task.isCancelled
                return nil
            }
            group.addTask {
                for await number in signals {
                    fputs("waypointd: motor-test: \(SignalStream.name(number)), switching the motor off\n", stderr)
                    return nil
                }
                return nil
            }
            // Whichever ends first (the pattern, a signal, or the player failing) ends the test;
            // cancelling the player is what switches the motor off.
            let first = await group.next() ?? nil
            group.cancelAll()
            var status = first ?? .success
            while let result = await group.next() {
                if let result, status == .success { status = result }
            }
            if let fault = failure.withLock({ $0 }) {
                fputs("waypointd: motor-test: \(fault)\n", stderr)
                return .failure
            }
            // Silence on success would leave someone wiring a motor they cannot feel unsure
            // whether anything ran.
            if status == .success {
                print("motor-test: played \(options.pattern.rawValue) on PWM chip \(channel.chipName), channel \(target.channel); the motor is off")
            }
            return status
        }
    }
}
