import Foundation

/// Splits text into search words the way SQLite's FTS5 `unicode61` tokenizer with
/// `remove_diacritics 2` does, so the in-memory evaluator's brute-force match and
/// a search index agree (the differential tests hold them to it):
///
/// - a word is a run of letters, digits and private-use characters (Unicode
///   categories L*, N*, Co), combining marks included; everything else separates;
/// - each character is lowercased on its own (no context: `Σ` is always `σ`);
/// - diacritics are removed from Latin letters (`é` → `e`, `Ł` stays `ł`) and
///   combining marks U+0300–U+036F are dropped wherever they appear.
///
/// SQLite folds a few rare letters further than Unicode's lowercase mapping (the
/// long s `ſ`, the micro sign `µ`); those are the known differences.
enum SearchTokenizer {
    /// The words of `text`, folded.
    static func words(in text: String) -> [String] {
        tokens(in: text).map(\.word)
    }

    /// A word and where it is in the text: its UTF-8 byte offsets, as FTS5
    /// reports a token's (for snippets).
    struct Token: Hashable {
        var word: String
        var start: Int
        var end: Int
    }

    /// The words of `text`, folded, with their byte ranges.
    static func tokens(in text: String) -> [Token] {
        var tokens: [Token] = []
        var current = String.UnicodeScalarView()
        var offset = 0, start = 0, inWord = false
        func finish() {
            // A word of combining marks only folds to nothing.
            if !current.isEmpty { tokens.append(Token(word: String(current), start: start, end: offset)) }
            current = String.UnicodeScalarView()
            inWord = false
        }
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) {
                if !inWord { start = offset; inWord = true }
                appendFolded(scalar, to: &current)
            } else if inWord {
                finish()
            }
            offset += UTF8.width(scalar)
        }
        if inWord { finish() }
        return tokens
    }

    /// Whether `scalar` belongs to a word rather than separating words.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .privateUse, .nonspacingMark:
            return true
        default:
            return false
        }
    }

    /// Appends `scalar` lowercased, without its diacritics when it is Latin.
    private static func appendFolded(_ scalar: Unicode.Scalar, to word: inout String.UnicodeScalarView) {
        if scalar.isASCII {
            word.append((0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value + 0x20)) : scalar)
            return
        }
        for lower in scalar.properties.lowercaseMapping.unicodeScalars {
            if isCombiningDiacritic(lower) { continue }
            guard isPrecomposedLatin(lower) else {
                word.append(lower)
                continue
            }
            for part in String(Character(lower)).decomposedStringWithCanonicalMapping.unicodeScalars where !isCombiningDiacritic(part) {
                word.append(part)
            }
        }
    }

    /// The combining diacritical marks block, which `remove_diacritics 2` drops.
    private static func isCombiningDiacritic(_ scalar: Unicode.Scalar) -> Bool {
        (0x300...0x36F).contains(scalar.value)
    }

    /// Latin-1 Supplement, Latin Extended-A/B and Latin Extended Additional: the
    /// letters whose diacritics SQLite removes.
    private static func isPrecomposedLatin(_ scalar: Unicode.Scalar) -> Bool {
        (0xC0...0x24F).contains(scalar.value) || (0x1E00...0x1EFF).contains(scalar.value)
    }
}
