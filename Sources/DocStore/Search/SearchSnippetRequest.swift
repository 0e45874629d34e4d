/// What a snippet shows: a few words of a field around the words of a search
/// text, the matched words marked.
public struct SearchSnippetRequest: Hashable, Sendable {
    /// The field the snippet is cut from (a search index must cover it).
    public var field: FieldPath
    /// The search text whose words are marked.
    public var text: String
    /// The text put before and after each matched word.
    public var highlight: (start: String, end: String)
    /// What stands for the text cut off at either end.
    public var ellipsis: String
    /// About how many words the snippet holds (2 to 64; fewer counts as 2,
    /// because SQLite 3.40's FTS5 cuts a one-word snippet wrongly: from the
    /// first word it runs on to the end of the text).
    public var words: Int

    /// The window sizes a snippet can have.
    static let wordRange = 2...64

    /// A snippet of `field` around `text`'s words: `…hit a [home] [run] to right…`.
    public init(field: FieldPath, text: String, highlight: (start: String, end: String) = ("[", "]"),
                ellipsis: String = "…", words: Int = 10) {
        self.field = field
        self.text = text
        self.highlight = highlight
        self.ellipsis = ellipsis
        self.words = words
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.field == rhs.field && lhs.text == rhs.text && lhs.highlight == rhs.highlight
            && lhs.ellipsis == rhs.ellipsis && lhs.words == rhs.words
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(field)
        hasher.combine(text)
        hasher.combine(highlight.start)
        hasher.combine(highlight.end)
        hasher.combine(ellipsis)
        hasher.combine(words)
    }
}

extension ClosedRange<Int> {
    /// `value`, moved into the range.
    func clamp(_ value: Int) -> Int { Swift.min(Swift.max(value, lowerBound), upperBound) }
}
