import SystemSupport

/// The input devices of this machine (`/dev/input/event*`), for finding one by name and for
/// `waypointd check`.
public enum InputDeviceList {
    /// Where the kernel's input devices are.
    public static let directory = "/dev/input"
    /// The most devices looked at: a Pi with a keypad, a headset and a remote has a handful.
    public static let maximumDevices = 64

    /// One device: its path, name and keys, or why it cannot be opened.
    public struct Entry: Sendable, Hashable {
        public var path: String
        public var name: String?
        public var keys: [UInt16]
        /// Why it cannot be opened, or nil.
        public var error: Errno?
    }

    /// Every `event*` device, in number order.
    public static func entries(in directory: String = directory) -> [Entry] {
        let names = (try? FileSystem.names(inDirectory: directory, maximum: maximumDevices * 4)) ?? []
        let events = names.filter { $0.hasPrefix("event") }.sorted { number($0) < number($1) }.prefix(maximumDevices)
        return events.compactMap { entry(at: directory + "/" + $0) }
    }

    /// The device at `path` (a link such as `/dev/input/by-path/…` too), or nil when nothing
    /// is there.
    public static func entry(at path: String) -> Entry? {
        do throws(Errno) {
            let device = try InputDevice(path: path)
            return Entry(path: path, name: device.name, keys: device.keys ?? [], error: nil)
        } catch {
            return error == .noSuchFileOrDirectory ? nil : Entry(path: path, name: nil, keys: [], error: error)
        }
    }

    /// The path of the first device called `name` (as `EVIOCGNAME` gives it), if one is.
    public static func path(named name: String, in directory: String = directory) -> String? {
        entries(in: directory).first { $0.name == name }?.path
    }

    private static func number(_ name: String) -> Int { Int(name.dropFirst(5)) ?? Int.max }
}
