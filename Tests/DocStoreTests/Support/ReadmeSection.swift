/// The text between `start` and the first `end` after it, for comparing a
/// README code block with the compiled code it shows.
func readmeSection(of text: String, from start: String, to end: String) -> String? {
    guard let lower = text.range(of: start), let upper = text.range(of: end, range: lower.upperBound..<text.endIndex) else {
        return nil
    }
    return String(text[lower.upperBound..<upper.lowerBound])
}
