/// Key codes of `linux/input-event-codes.h` by the names the config file and `waypointd check`
/// use: the keys a push button, a headset, a selfie remote or a keypad is likely to send. Any
/// other key is written as its number.
public enum KeyCode {
    /// Name and code, in the order the README's table lists them.
    public static let names: [(name: String, code: UInt16)] = [
        ("KEY_ENTER", 28), ("KEY_SPACE", 57), ("KEY_VOLUMEDOWN", 114), ("KEY_VOLUMEUP", 115), ("KEY_POWER", 116),
        ("KEY_PROG1", 148), ("KEY_NEXTSONG", 163), ("KEY_PLAYPAUSE", 164), ("KEY_PREVIOUSSONG", 165),
        ("KEY_STOPCD", 166), ("KEY_PLAYCD", 200), ("KEY_PAUSECD", 201), ("KEY_CAMERA", 212), ("KEY_MEDIA", 226),
        ("BTN_0", 256), ("BTN_LEFT", 272),
    ]

    /// The highest key code (`KEY_MAX`).
    public static let maximum: UInt16 = 0x2ff

    /// The code of `text`: a name of the table, or a number up to ``maximum``.
    public static func code(_ text: String) -> UInt16? {
        if let named = names.first(where: { $0.name == text.uppercased() }) { return named.code }
        guard let number = UInt16(text), number <= maximum else { return nil }
        return number
    }

    /// The name of `code`, or its number.
    public static func name(_ code: UInt16) -> String {
        names.first(where: { $0.code == code })?.name ?? String(code)
    }
}
