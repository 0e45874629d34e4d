/// A search text as ``Condition/matches(_:_:)`` reads it: terms that must all
/// occur in the field, in any order.
///
/// - a word (`home`) occurs as a word, case- and diacritic-insensitively;
/// - `"a phrase"` in double quotes occurs as consecutive words;
/// - a word or quoted phrase ending in `*` (`run*`, `"home ru"*`) ends with any
///   word starting so;
/// - anything else is text: punctuation separates words (`e-mail` is the phrase
///   `"e mail"`), and FTS5's operators (`AND`, `OR`, `NOT`, `NEAR`, `col:`) are
///   plain words, never syntax.
///
/// An unbalanced double quote, or a text with no word at all, is an error.
struct SearchText: Hashable, Sendable {
    /// One term: consecutive words, the last one a prefix when `isPrefix`.
    struct Term: Hashable, Sendable {
        var words: [String]
        var isPrefix: Bool
    }

    /// The terms, in the order written.
    let terms: [Term]

    /// Why a search text can't be read: the reason, for an error that names the
    /// collection and field.
    struct Problem: Error, Hashable {
        var reason: String
    }

    /// Parses `text`.
    init(parsing text: String) throws(Problem) {
        var terms: [Term] = []
        let scalars = Array(text.unicodeScalars)
        var position = 0
        func term(_ chunk: ArraySlice<Unicode.Scalar>, isPrefix: Bool) {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: chunk)
            let words = SearchTokenizer.words(in: String(view))
            if !words.isEmpty { terms.append(Term(words: words, isPrefix: isPrefix)) }
        }
        while position < scalars.count {
            let scalar = scalars[position]
            if scalar == "\"" {
                guard let close = scalars[(position + 1)...].firstIndex(of: "\"") else {
                    throw Problem(reason: "the double quote at character \(position + 1) of the search text \(DocumentKey.quoted(text)) has no closing quote")
                }
                let isPrefix = close + 1 < scalars.count && scalars[close + 1] == "*"
                term(scalars[(position + 1)..<close], isPrefix: isPrefix)
                position = close + (isPrefix ? 2 : 1)
            } else if scalar.properties.isWhitespace {
                position += 1
            } else {
                var end = position
                while end < scalars.count, scalars[end] != "\"", !scalars[end].properties.isWhitespace { end += 1 }
                // `run*`: a star right after a word character makes it a prefix.
                let isPrefix = end - position >= 2 && scalars[end - 1] == "*" && SearchTokenizer.isWordScalar(scalars[end - 2])
                term(scalars[position..<end], isPrefix: isPrefix)
                position = end
            }
        }
        guard !terms.isEmpty else {
            throw Problem(reason: "the search text \(DocumentKey.quoted(text)) has no words (letters or digits) to search for")
        }
        self.terms = terms
    }

    /// The FTS5 query meaning the same, restricted to `column`: every term as a
    /// quoted phrase (so nothing in it is FTS5 syntax), prefix terms with `*`:
    /// `{c0} : ("home" "run"*)`. Bound as a value, never spliced into SQL.
    func ftsQuery(column: String) -> String {
        let phrases = terms.map { term in
            "\"" + term.words.joined(separator: " ").replacingBytes(of: "\"", with: "\"\"") + "\"" + (term.isPrefix ? "*" : "")
        }
        return "{\(column)} : (" + phrases.joined(separator: " ") + ")"
    }

    /// Whether `text` holds every term (the in-memory evaluator's brute-force match).
    func isMatched(by text: String) -> Bool {
        let words = SearchTokenizer.words(in: text)
        return terms.allSatisfy { term in Self.occurrences(of: term, in: words) > 0 }
    }

    /// How many times `term` occurs in `words` (at how many positions it starts).
    static func occurrences(of term: Term, in words: [String]) -> Int {
        guard words.count >= term.words.count else { return 0 }
        return (0...(words.count - term.words.count)).count { occurs(term, at: $0, in: words) }
    }

    /// Whether `term` occurs in `words` starting at `start` (which leaves room for it).
    static func occurs(_ term: Term, at start: Int, in words: [String]) -> Bool {
        for (offset, word) in term.words.enumerated() {
            let candidate = words[start + offset]
            let isLast = offset == term.words.count - 1
            // Bytes, as SQLite compares them (not Swift's canonical equivalence).
            let holds = isLast && term.isPrefix ? candidate.utf8.starts(with: word.utf8) : candidate.utf8.elementsEqual(word.utf8)
            if !holds { return false }
        }
        return true
    }
}
