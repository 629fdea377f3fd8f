@preconcurrency import Glibc
import SystemSupport

/// Standard output as a terminal: whether it is one, its size, and the few ANSI sequences
/// `watch` needs to redraw in place and to leave the terminal as it found it.
enum Terminal {
    /// The size assumed when the terminal does not report one (a serial console).
    static let fallbackSize = (columns: 80, rows: 24)

    /// Hides the cursor, so it does not flicker across the compass (DECTCEM).
    static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor again.
    static let showCursor = "\u{1B}[?25h"
    /// Resets colours and attributes (SGR 0), in case anything was left set.
    static let resetAttributes = "\u{1B}[0m"
    /// Moves the cursor to the top-left corner (CUP).
    static let cursorHome = "\u{1B}[H"
    /// Erases the whole screen (ED 2).
    static let clearScreen = "\u{1B}[2J"
    /// Erases from the cursor to the end of the line (EL).
    static let clearToEndOfLine = "\u{1B}[K"
    /// Erases from the cursor to the end of the screen (ED 0).
    static let clearToEndOfScreen = "\u{1B}[J"

    /// Whether standard output is a terminal. Corresponds to `isatty(3)`.
    static var isStandardOutputTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The terminal's size, or ``fallbackSize`` when it reports none. Corresponds to
    /// `ioctl(TIOCGWINSZ)`.
    static func size() -> (columns: Int, rows: Int) {
        var window = winsize()
        let result = SystemCall.valueOrErrno { ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) }
        guard case .success = result, window.ws_col > 0, window.ws_row > 0 else { return fallbackSize }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// What redraws a frame over the previous one: home, each line erased to its end (so a
    /// shorter line leaves nothing behind), then the rest of the screen erased.
    /// - Parameter lines: The frame, without escape sequences.
    static func redraw(_ lines: [String]) -> String {
        cursorHome + lines.map { $0 + clearToEndOfLine }.joined(separator: "\n") + "\n" + clearToEndOfScreen
    }

    /// Writes `text` as it is and flushes it, so a frame appears whole and at once.
    static func write(_ text: String) {
        fputs(text, stdout)
        fflush(stdout)
    }
}
