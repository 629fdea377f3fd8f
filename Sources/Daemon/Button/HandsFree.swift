import ButtonInput
import ControlProtocol
import Synchronization

/// What the button and the voice show in `STATUS`, kept between their threads and the core's
/// replies: the devices, the last gesture, `button test`, the last sentence, the voice's
/// problem. Every field is small and replaced, never grown.
public final class HandsFree: Sendable {
    private struct State {
        var devices: [StatusReport.Button.Device] = []
        var pressed: StatusReport.Button.Pressed?
        var testUntilSeconds = -Double.infinity
        var said: StatusReport.Said?
        var speechProblem: String?
    }

    private let state = Mutex(State())
    /// Whether a button is configured (or simulated): without one, `STATUS` says `button: null`.
    public let hasButton: Bool

    public init(devices: [String]) {
        hasButton = !devices.isEmpty
        state.withLock { $0.devices = devices.map { StatusReport.Button.Device(device: $0, ready: false, problem: "not opened yet") } }
    }

    /// The `button` of `STATUS`, or nil without a button.
    public var button: StatusReport.Button? {
        guard hasButton else { return nil }
        return state.withLock {
            StatusReport.Button(devices: $0.devices, pressed: $0.pressed, testing: InputDevice.monotonicSeconds() < $0.testUntilSeconds)
        }
    }

    /// The `said` of `STATUS`.
    public var said: StatusReport.Said? { state.withLock { $0.said } }

    /// The voice's problem, for `STATUS`'s `problems`.
    public var speechProblem: String? { state.withLock { $0.speechProblem } }

    /// The device configured as `device` is read now (`problem` nil) or not.
    func setDevice(_ device: String, name: String?, problem: String?) {
        state.withLock { state in
            guard let index = state.devices.firstIndex(where: { $0.device == device }) else { return }
            state.devices[index] = StatusReport.Button.Device(
                device: device, name: name ?? state.devices[index].name, ready: problem == nil, problem: problem)
        }
    }

    /// A gesture recognised, numbered for `STATUS`: true when it is only to be shown (`button test`).
    func pressed(_ gesture: ButtonGesture) -> Bool {
        state.withLock { state in
            state.pressed = StatusReport.Button.Pressed(serial: (state.pressed?.serial ?? 0) + 1, gesture: gesture.rawValue)
            return InputDevice.monotonicSeconds() < state.testUntilSeconds
        }
    }

    /// `button test`: gestures only shown for `seconds` (0 ends it).
    public func test(seconds: Double) {
        state.withLock { $0.testUntilSeconds = InputDevice.monotonicSeconds() + seconds }
    }

    /// A sentence said (or shown): numbered.
    func said(_ text: String) {
        state.withLock { $0.said = StatusReport.Said(serial: ($0.said?.serial ?? 0) + 1, text: text) }
    }

    /// Whether the voice works: nil, or what stops it. True when the problem changed.
    func setSpeechProblem(_ problem: String?) -> Bool {
        state.withLock { state in
            defer { state.speechProblem = problem }
            return state.speechProblem != problem
        }
    }
}
