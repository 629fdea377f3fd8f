import CQREncode

/// A QR code of a text (libqrencode, error correction level M: a phone's camera reads it off a
/// screen with a fifth of it smudged), as modules and as lines for a terminal.
public enum QRCode {
    /// The light margin around the code, modules: the four the standard asks for.
    public static let quietZone = 4

    /// The code's modules, row by row, true for dark; nil when the text does not fit a QR code
    /// (over about 2 KB).
    public static func modules(_ text: String) -> [[Bool]]? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = code.pointee.data!
        // Bit 0 of each byte is the module's colour; the others are libqrencode's bookkeeping.
        return (0..<width).map { row in (0..<width).map { column in data[row * width + column] & 1 == 1 } }
    }

    /// The code drawn for a terminal: two rows of modules per line with the half-block
    /// characters, dark on light whatever the terminal's colours (light modules are drawn white
    /// on a black background), with the quiet zone.
    public static func terminalLines(_ text: String) -> [String]? {
        guard let modules = modules(text) else { return nil }
        let size = modules.count + 2 * quietZone
        func light(_ row: Int, _ column: Int) -> Bool {
            let r = row - quietZone, c = column - quietZone
            guard row < size, modules.indices.contains(r), modules.indices.contains(c) else { return row < size }
            return !modules[r][c]
        }
        return stride(from: 0, to: size, by: 2).map { row in
            var line = "\u{1B}[40;37m"
            for column in 0..<size {
                switch (light(row, column), light(row + 1, column)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            return line + "\u{1B}[0m"
        }
    }
}
