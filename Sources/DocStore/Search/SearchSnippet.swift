/// A snippet cut in Swift, by the rules SQLite's FTS5 `snippet()` follows, for
/// backends without FTS5 (PostgreSQL): the same window of words, the same marks
/// and ellipses, so that a store gives the same snippets on either backend (a
/// differential test holds them to SQLite's).
///
/// The rules: each occurrence of a term ("instance") proposes a window of
/// `words` words around the instances it holds, scored 1000 for each distinct
/// term and 1 for each repeat; the start of the sentence holding the instance
/// (a word after `.` or `:` and whitespace, or the first word) proposes a window
/// starting there, with 100 more (120 for the first word); the first best score
/// wins. Instances that overlap are marked as one; text before the window gives
/// the ellipsis, and so does text after it, unless the window reaches the last
/// word (then the rest of the text follows).
enum SearchSnippet {
    /// The snippet of `text` around `search`'s terms, or nil when `text` doesn't
    /// match (some term doesn't occur).
    static func cut(_ text: String, matching search: SearchText, _ request: SearchSnippetRequest) -> String? {
        let tokens = SearchTokenizer.tokens(in: text)
        let instances = self.instances(of: search.terms, in: tokens.map(\.word))
        guard Set(instances.map(\.term)).count == search.terms.count else { return nil }
        let size = SearchSnippetRequest.wordRange.clamp(request.words)
        let start = bestStart(instances, termCount: search.terms.count, wordCount: tokens.count, size: size,
                              sentences: sentenceStarts(of: Array(text.utf8), tokens))
        return marked(Array(text.utf8), tokens, groups: coalesced(instances), range: start...(start + size - 1), request)
    }

    /// One occurrence of a term: the position of its first word, the term's
    /// index and how many words it spans.
    struct Instance: Hashable {
        var position: Int
        var term: Int
        var length: Int
    }

    /// Every instance, by position, then term (FTS5's order).
    static func instances(of terms: [SearchText.Term], in words: [String]) -> [Instance] {
        var found: [Instance] = []
        for (index, term) in terms.enumerated() where words.count >= term.words.count {
            for start in 0...(words.count - term.words.count) where SearchText.occurs(term, at: start, in: words) {
                found.append(Instance(position: start, term: index, length: term.words.count))
            }
        }
        return found.sorted { ($0.position, $0.term) < ($1.position, $1.term) }
    }

    /// The positions of words that begin a sentence.
    static func sentenceStarts(of bytes: [UInt8], _ tokens: [SearchTokenizer.Token]) -> [Int] {
        var starts: [Int] = []
        for (position, token) in tokens.enumerated() {
            guard position > 0 else {
                starts.append(0)
                continue
            }
            var index = token.start - 1
            while index >= 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index -= 1 }
            if index != token.start - 1, index >= 0, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ":") {
                starts.append(position)
            }
        }
        return starts
    }

    /// The first word of the best window.
    private static func bestStart(_ instances: [Instance], termCount: Int, wordCount: Int, size: Int, sentences: [Int]) -> Int {
        var bestScore = 0, bestStart = 0
        for instance in instances {
            let (score, adjusted) = Self.score(instances, termCount: termCount, from: instance.position, size: size, wordCount: wordCount)
            if score > bestScore { (bestScore, bestStart) = (score, adjusted) }
            guard !sentences.isEmpty, wordCount > size else { continue }
            // The last sentence start at or before the instance.
            var index = 0
            while index < sentences.count - 1, sentences[index + 1] <= instance.position { index += 1 }
            let sentence = sentences[index]
            guard sentence < instance.position else { continue }
            let bonus = sentence == 0 ? 120 : 100
            let fromSentence = Self.score(instances, termCount: termCount, from: sentence, size: size, wordCount: wordCount).score + bonus
            if fromSentence > bestScore { (bestScore, bestStart) = (fromSentence, sentence) }
        }
        return bestStart
    }

    /// The score of the window of `size` words from `start`, and where a window
    /// centred on the instances it holds would start.
    private static func score(_ instances: [Instance], termCount: Int, from start: Int, size: Int, wordCount: Int) -> (score: Int, adjusted: Int) {
        var seen = [Bool](repeating: false, count: termCount)
        var score = 0, first = -1, last = 0
        for instance in instances where instance.position >= start && instance.position < start + size {
            score += seen[instance.term] ? 1 : 1000
            seen[instance.term] = true
            if first < 0 { first = instance.position }
            last = instance.position + instance.length
        }
        var adjusted = first - (size - (last - first)) / 2
        if adjusted + size > wordCount { adjusted = wordCount - size }
        return (score, max(adjusted, 0))
    }

    /// Overlapping instances merged: the first and last word positions of each mark.
    static func coalesced(_ instances: [Instance]) -> [ClosedRange<Int>] {
        var groups: [ClosedRange<Int>] = []
        for instance in instances {
            let end = instance.position + instance.length - 1
            if let current = groups.last, instance.position <= current.upperBound {
                groups[groups.count - 1] = current.lowerBound...max(current.upperBound, end)
            } else {
                groups.append(instance.position...end)
            }
        }
        return groups
    }

    /// The window's text with its marks and ellipses.
    private static func marked(_ bytes: [UInt8], _ tokens: [SearchTokenizer.Token], groups: [ClosedRange<Int>],
                               range: ClosedRange<Int>, _ request: SearchSnippetRequest) -> String {
        var output: [UInt8] = []
        func append(_ text: String) { output.append(contentsOf: text.utf8) }
        func copy(_ from: Int, _ to: Int) { if to > from { output.append(contentsOf: bytes[from..<to]) } }
        if range.lowerBound > 0 { append(request.ellipsis) }
        var groupIndex = groups.firstIndex { $0.lowerBound >= range.lowerBound } ?? groups.count
        var copied = 0, open = false
        for (position, token) in tokens.enumerated() where range.contains(position) {
            if range.lowerBound > 0, position == range.lowerBound { copied = token.start }
            let group = groupIndex < groups.count ? groups[groupIndex] : nil
            if open, group.map({ position <= $0.lowerBound }) ?? true, token.start > copied {
                append(request.highlight.end)
                open = false
            }
            if let group, position == group.lowerBound, !open {
                copy(copied, token.start)
                append(request.highlight.start)
                copied = token.start
                open = true
            }
            if let group, position == group.upperBound {
                if !open {
                    append(request.highlight.start)
                    open = true
                }
                copy(copied, token.end)
                copied = token.end
                groupIndex += 1
            }
            if position == range.upperBound {
                if open {
                    if let group = groupIndex < groups.count ? groups[groupIndex] : nil, position >= group.lowerBound {
                        copy(copied, token.end)
                        copied = token.end
                    }
                    append(request.highlight.end)
                    open = false
                }
                copy(copied, token.end)
                copied = token.end
            }
        }
        if open { append(request.highlight.end) }
        if range.upperBound >= tokens.count - 1 {
            copy(copied, bytes.count)
        } else {
            append(request.ellipsis)
        }
        return String(decoding: output, as: UTF8.self)
    }
}
