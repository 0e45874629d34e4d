import DocStore

extension CommandRunner {
    /// The result of `command` as a stream, for the commands whose results can be
    /// long, when the store's backend streams them; nil for the others, which
    /// ``run(_:)`` answers whole.
    func stream(_ command: REPLCommand) throws -> ResultStream? {
        try backend.stream(command, interruption: interruption)
    }
}

extension QueryPipeline {
    /// Whether a stage limits the rows (`.limit(N)`): no later stage adds rows
    /// (a group makes fewer, a join or select as many), so the result has at
    /// most N rows, the number asked for.
    var isLimited: Bool {
        query.limit != nil || stages.contains { stage in
            if case .refine(let query) = stage { return query.limit != nil }
            return false
        }
    }
}
