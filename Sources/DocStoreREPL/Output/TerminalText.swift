/// Text measured and cleaned for a terminal: how many cells a string takes
/// (wide East Asian characters and emoji take two, combining marks none), and
/// control characters replaced by visible stand-ins so that a NUL or an escape
/// in a document can't corrupt the screen or misalign a table.
enum TerminalText {
    /// The number of terminal cells `text` takes.
    static func displayWidth(_ text: String) -> Int {
        // Printable ASCII (most cells) takes one cell a byte: no Character walk.
        if isPlainASCII(text) { return text.utf8.count }
        var total = 0
        for character in text {
            total += width(of: character)
        }
        return total
    }

    /// Whether `text` is printable ASCII only: one cell a byte, nothing to clean.
    static func isPlainASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return false }
            return true
        }
    }

    /// The number of terminal cells `text` takes once printed: ANSI colour
    /// sequences (`ESC [ … m`) take none.
    static func visibleWidth(_ text: String) -> Int {
        var total = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                total += width(of: character)
            }
        }
        return total
    }

    static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let properties = first.properties
        if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark { return 0 }
        if first.value < 0x20 || (0x7F..<0xA0).contains(first.value) { return 1 }
        // Emoji presentation (😀, or a symbol followed by VS16) is two cells wide.
        if properties.isEmojiPresentation { return 2 }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return isWide(first.value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges (the common blocks).
    private static func isWide(_ v: UInt32) -> Bool {
        (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v)
            || (0x1F900...0x1F9FF).contains(v) || (0x20000...0x3FFFD).contains(v)
    }

    /// `text` with control characters shown as their Unicode control pictures
    /// (NUL as ␀, ESC as ␛), tabs as one space, and newlines as ↵.
    static func printable(_ text: String) -> String {
        // Control characters are single UTF-8 bytes: a byte scan finds them.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09: result.append(" ")
            case 0x0A: result.append("↵")
            case 0x00..<0x20: result.append(Unicode.Scalar(0x2400 + scalar.value) ?? "?")
            case 0x7F: result.append("␡")
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// `text` cut to at most `width` cells, ending with … when cut.
    static func truncated(_ text: String, toWidth width: Int) -> String {
        guard displayWidth(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let w = Self.width(of: character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// `text` followed by spaces up to `width` cells.
    static func padded(_ text: String, toWidth width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - displayWidth(text)))
    }
}
