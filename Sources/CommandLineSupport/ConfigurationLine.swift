/// The lines of our configuration files (waypointd.conf, waypoint-web.conf): one `key value` a
/// line; `#` starts a comment on a line of its own or after whitespace (a `#` inside a value,
/// as in `a#b`, is part of it); blank lines are ignored; the value is the rest of the line,
/// trimmed. Each program's parser gives the keys their meaning. Pure.
public enum ConfigurationLine {
    /// Some editors write one at the start of a UTF-8 file.
    @usableFromInline static let byteOrderMark = "\u{FEFF}"

    /// The text without a byte-order mark at its start.
    // Inlinable, like `entry(in:)`: the daemon reads its config once at start, and a call into
    // this module's code there would only map its pages into the daemon for the one use.
    @inlinable
    public static func body(of text: String) -> Substring {
        text.hasPrefix(byteOrderMark) ? Substring(text.dropFirst()) : Substring(text)
    }

    /// The key and value on a line, or nil for a blank or comment line; the value is nil when
    /// the line holds only a key.
    @inlinable
    public static func entry(in line: Substring) -> (key: Substring, value: Substring?)? {
        var content = line
        var afterWhitespace = true
        for index in line.indices {
            let character = line[index]
            if character == "#" && afterWhitespace {
                content = line[..<index]
                break
            }
            afterWhitespace = character.isWhitespace
        }
        let trimmed = trimmingWhitespace(content)
        guard !trimmed.isEmpty else { return nil }
        guard let gap = trimmed.firstIndex(where: \.isWhitespace) else { return (trimmed, nil) }
        return (trimmed[..<gap], trimmingWhitespace(trimmed[gap...]))
    }

    /// `text` without the whitespace at either end (a config value, a column of a program's
    /// output).
    @inlinable
    public static func trimmingWhitespace(_ text: Substring) -> Substring {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }), let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return text[first...last]
    }
}
