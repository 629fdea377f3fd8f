import CQREncode

/// A QR code of a text, drawn for a terminal: two rows of modules per line with the half-block
/// characters, dark on light whatever the terminal's colours (the light squares are spaces on
/// the inverted background), with the quiet zone of four modules the standard asks for.
public enum QRCode {
    /// The code's lines, or nil when the text does not fit a QR code (over about 2 KB).
    public static func terminalLines(_ text: String) -> [String]? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = code.pointee.data!
        let quiet = 4
        let size = width + 2 * quiet
        func dark(_ row: Int, _ column: Int) -> Bool {
            let r = row - quiet, c = column - quiet
            guard (0..<width).contains(r), (0..<width).contains(c) else { return false }
            return data[r * width + c] & 1 == 1
        }
        var lines: [String] = []
        for row in stride(from: 0, to: size, by: 2) {
            // Light modules are drawn (white foreground), dark ones left as the black background.
            var line = "\u{1B}[40;37m"
            for column in 0..<size {
                switch (!dark(row, column), row + 1 < size && !dark(row + 1, column)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line + "\u{1B}[0m")
        }
        return lines
    }
}
