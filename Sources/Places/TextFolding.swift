/// Text as the place index compares it: lower case, accents and ligatures of the Latin
/// scripts taken off (`Café` is `cafe`, `Straße` is `strasse`, `L·lorts` is `llorts`), every
/// other letter and digit kept, everything else a word break. Pure; the index folds names with
/// it before storing them and queries before matching, so both sides agree.
public enum TextFolding {
    /// The base letters of U+00C0…U+024F, `|`-separated, empty where a scalar has none (`×`,
    /// `÷`): the first letter of each scalar's canonical decomposition (Unicode NFD, taken from
    /// Python's `unicodedata`), lower-cased, and for letters with no decomposition (`ß`, `æ`,
    /// `ø`, `ł`, `đ`, `þ`, `ŀ`…) their usual spelling in plain letters.
    static let latinBases: [String] = """
        a|a|a|a|a|a|ae|c|e|e|e|e|i|i|i|i|d|n|o|o|o|o|o||o|u|u|u|u|y|th|ss|a|a|a|a|a|a|ae|c|e|e|\
        e|e|i|i|i|i|d|n|o|o|o|o|o||o|u|u|u|u|y|th|y|a|a|a|a|a|a|c|c|c|c|c|c|c|c|d|d|d|d|e|e|e|e|\
        e|e|e|e|e|e|g|g|g|g|g|g|g|g|h|h|h|h|i|i|i|i|i|i|i|i|i|i|||j|j|k|k|k|l|l|l|l|l|l|l|l|l|l|\
        n|n|n|n|n|n|n|n|n|o|o|o|o|o|o|oe|oe|r|r|r|r|r|r|s|s|s|s|s|s|s|s|t|t|t|t|t|t|u|u|u|u|u|u|\
        u|u|u|u|u|u|w|w|y|y|y|z|z|z|z|z|z|s|||||||||||||||||||f||||||||||||||o|o||||||||||||||u|\
        u|||||||||||||||||||||||||||||a|a|i|i|o|o|u|u|u|u|u|u|u|u|u|u||a|a|a|a|||||g|g|k|k|o|o|\
        o|o|||j||||g|g|||n|n|a|a|||||a|a|a|a|e|e|e|e|i|i|i|i|o|o|o|o|r|r|r|r|u|u|u|u|s|s|t|t|||\
        h|h|||||||a|a|e|e|o|o|o|o|o|o|o|o|y|y||||||||||||||||||||||||||||
        """.split(separator: "|", omittingEmptySubsequences: false).map(String.init)

    /// `text` folded: lower case, no accents, runs of anything but letters and digits one space,
    /// no space at either end.
    public static func folded(_ text: some StringProtocol) -> String {
        words(text).joined(separator: " ")
    }

    /// The folded words of `text`, in order.
    public static func words(_ text: some StringProtocol) -> [String] {
        var words: [String] = []
        var word = ""
        for scalar in text.unicodeScalars {
            // Catalan's punt volat joins a word (`Col·legi` is `collegi`); it breaks none.
            if scalar == "\u{B7}" || scalar == "\u{2027}" { continue }
            // ASCII, most of any map's text, answered without Unicode's tables or a String per
            // letter (this runs over every name of an import).
            if scalar.isASCII {
                let value = UInt8(scalar.value)
                switch value {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    word.unicodeScalars.append(scalar)
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    word.unicodeScalars.append(Unicode.Scalar(value | 0x20))
                default:
                    if !word.isEmpty {
                        words.append(word)
                        word = ""
                    }
                }
                continue
            }
            if scalar.value >= 0xC0, scalar.value < 0x250 {
                let base = latinBases[Int(scalar.value) - 0xC0]
                if !base.isEmpty {
                    word += base
                    continue
                }
            }
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                // Combining marks left by text already decomposed are no part of a word.
                guard scalar.properties.generalCategory != .nonspacingMark else { continue }
                word.unicodeScalars.append(contentsOf: String(scalar).lowercased().unicodeScalars)
            } else if scalar.properties.generalCategory == .nonspacingMark {
                continue
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}
