import DocStore

/// Prints a ``ResultStream`` through a ``ResultFormatter`` into a ``ByteSink``:
/// the first pass when the format needs one, then the items, all in one read
/// transaction so that both passes see the same documents.
struct StreamPrinter {
    var settings: FormatSettings
    /// At most how many items to show (an interactive terminal), or nil for all.
    /// Every mode shows the first and the last halves with a ⋮ line between
    /// (a row of a table, a line of the others); every item is counted.
    var limit: Int?

    /// How many items the result had, how many were shown, and whether a table
    /// came out wider than ``FormatSettings/maximumWidth``.
    struct Printed {
        var count: Int
        var shown: Int
        var overflows: Bool
    }

    func print(_ stream: ResultStream, backend: any REPLBackend, to sink: ByteSink) throws -> Printed {
        var formatter = settings.formatter(columns: stream.columns)
        var out = OutputBuffer(sink: sink)
        let printed: Printed = try backend.reading {
            if let limit { return try printLimited(stream, limit: limit, formatter: &formatter, into: &out) }
            if formatter.needsFirstPass {
                try stream.forEach { try formatter.measure($0) }
            }
            try formatter.begin(into: &out)
            var count = 0
            try stream.forEach { item in
                try formatter.write(item, into: &out)
                count += 1
            }
            try formatter.end(count: count, into: &out)
            return Printed(count: count, shown: count, overflows: formatter.overflowsWidth)
        }
        try out.flush()
        return printed
    }

    /// Keeps the first and last items (at most `limit`, decoded: a stored
    /// document's text lives only during its call), counts the rest, then
    /// formats the kept ones.
    private func printLimited(_ stream: ResultStream, limit: Int, formatter: inout any ResultFormatter,
                              into out: inout OutputBuffer) throws -> Printed {
        let headCount = (limit + 1) / 2
        let tailCount = limit - headCount
        var head: [ResultItem] = []
        var tail: [ResultItem] = []
        var tailStart = 0
        var count = 0
        try stream.forEach { item in
            count += 1
            if head.count < headCount {
                head.append(try item.detached())
            } else if tailCount > 0 {
                if tail.count < tailCount {
                    tail.append(try item.detached())
                } else {
                    tail[tailStart] = try item.detached()
                    tailStart = (tailStart + 1) % tailCount
                }
            }
        }
        let last = Array(tail[tailStart...] + tail[..<tailStart])
        if formatter.needsFirstPass {
            for item in head + last { try formatter.measure(item) }
        }
        try formatter.begin(into: &out)
        for item in head { try formatter.write(item, into: &out) }
        let omitted = count - head.count - last.count
        if omitted > 0 { try formatter.writeGap(omitted: omitted, into: &out) }
        for item in last { try formatter.write(item, into: &out) }
        try formatter.end(count: head.count + last.count, into: &out)
        return Printed(count: count, shown: head.count + last.count, overflows: formatter.overflowsWidth)
    }
}

extension ResultItem {
    /// The item without references to a statement's memory.
    func detached() throws -> ResultItem {
        if case .stored = self { return .document(try value(columns: nil)) }
        return self
    }
}
