import DocStore

extension CommandRunner {
    /// The result of `command` as a stream, for the commands whose results can be
    /// long, when the store's backend streams them; nil for the others, which
    /// ``run(_:)`` answers whole.
    func stream(_ command: REPLCommand) throws -> ResultStream? {
        try backend.stream(command, interruption: interruption)
    }
}
