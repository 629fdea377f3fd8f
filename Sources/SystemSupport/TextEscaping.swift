/// Text from outside (a client's destination name, a config file's line) made safe to print on
/// one line: what a log line or an error message shows must not end early, start a forged line
/// or be cut at a NUL by C's string functions.
public enum TextEscaping {
    /// `text` with `\`, `"`, tab, newline and carriage return as backslash escapes, other
    /// control characters (NUL and DEL included) as `\u{XX}`, cut at `maximumBytes` with `…`.
    ///
    /// - Parameters:
    ///   - text: Any text.
    ///   - maximumBytes: The most UTF-8 bytes of escaped text kept.
    /// - Returns: The escaped text.
    public static func escaped(_ text: String, maximumBytes: Int = .max) -> String {
        var result = ""
        var bytes = 0
        for scalar in text.unicodeScalars {
            let piece: String
            switch scalar {
            case "\\": piece = "\\\\"
            case "\"": piece = "\\\""
            case "\n": piece = "\\n"
            case "\r": piece = "\\r"
            case "\t": piece = "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                piece = "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
            default: piece = String(scalar)
            }
            bytes += piece.utf8.count
            if bytes > maximumBytes { return result + "…" }
            result += piece
        }
        return result
    }
}
