import ButtonInput
@preconcurrency import Glibc
import SystemSupport

extension HealthCheck {
    /// The fix for an input device this user cannot open.
    static let inputGroupFix =
        "add the user to the input group (the unit's SupplementaryGroups=input does it for the service), or run as root"

    /// Most keys named in a device's note; a keyboard has a hundred.
    static let keysNamedPerDevice = 8

    /// `button`: each configured device is there, opens, and sends one of `button-keys`; the
    /// notes list every input device of the machine with its keys, the configured ones marked,
    /// so that a person can pick the path or the name to write.
    func checkButton(_ configuration: Configuration) -> HealthVerdict {
        let entries = InputDeviceList.entries(in: devices.inputDirectory)
        let wanted = Set(configuration.buttonKeys)
        var used: Set<String> = []
        var problems: [(detail: String, fix: String, failed: Bool)] = []
        var read: [String] = []
        for device in configuration.buttonDevices {
            let path = device.hasPrefix("name:") ? entries.first { $0.name == String(device.dropFirst(5)) }?.path : device
            guard let path, let entry = entries.first(where: { $0.path == path }) ?? InputDeviceList.entry(at: path) else {
                problems.append(("\(device) is not there now", "plug it in or pair it; the daemon looks for it every 2 s", false))
                continue
            }
            used.insert(entry.path)
            if let error = entry.error {
                let denied = error.rawValue == EACCES || error.rawValue == EPERM
                problems.append(("\(device): \(error.message)", denied ? Self.inputGroupFix : "check the path", true))
            } else if !entry.keys.isEmpty, wanted.isDisjoint(with: entry.keys) {
                problems.append((
                    "\(device) sends none of button-keys (\(configuration.buttonKeys.map(KeyCode.name).joined(separator: ", ")))",
                    "set button-keys to one of its keys, listed below", true
                ))
            } else {
                // A device that does not say its keys (a pipe, some drivers) is not called right.
                read.append(entry.keys.isEmpty ? "\(device) readable (its keys unknown)" : "\(device) readable, sending the button's keys")
            }
        }
        let notes =
            entries.isEmpty
            ? ["no input devices in \(devices.inputDirectory)"]
            : entries.map { Self.note($0, used: used.contains($0.path), wanted: wanted) }
        if let first = problems.first {
            let outcome: HealthVerdict.Outcome = problems.contains { $0.failed } ? .failed : .warning
            return HealthVerdict(item: "button", outcome: outcome, detail: problems.map(\.detail).joined(separator: "; "), fix: first.fix, notes: notes)
        }
        let detail =
            configuration.buttonDevices.isEmpty
            ? "none configured (button none); input devices here:" : read.joined(separator: "; ")
        return HealthVerdict(item: "button", outcome: .ok, detail: detail, notes: notes)
    }

    /// `event3 "waypoint": KEY_ENTER (used)`.
    private static func note(_ entry: InputDeviceList.Entry, used: Bool, wanted: Set<UInt16>) -> String {
        let name = entry.name.map { " \"\($0)\"" } ?? ""
        if let error = entry.error { return "\(entry.path)\(name): \(error.message)" }
        // The button's keys first, so a keyboard's long list still shows them.
        let keys = entry.keys.filter { wanted.contains($0) } + entry.keys.filter { !wanted.contains($0) }
        var text = keys.prefix(keysNamedPerDevice).map(KeyCode.name).joined(separator: ", ")
        if keys.count > keysNamedPerDevice { text += " and \(keys.count - keysNamedPerDevice) more" }
        return "\(entry.path)\(name): \(keys.isEmpty ? "no keys" : text)\(used ? " (used)" : "")"
    }
}
