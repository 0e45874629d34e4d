import DocStore
import Foundation

/// Starts a session the way the `docstore` executable does: opens the store,
/// picks interactive or piped behaviour from the terminal, and runs.
public enum REPLLauncher {
    /// What the command line asked for.
    public struct Arguments: Sendable {
        public var storePath: String?
        public var readOnly = false
        /// The `-c` commands, run in order (none: read standard input).
        public var commands: [String] = []
        public var mode: OutputMode = .table
        /// How long a command waits for another process's lock before failing.
        public var busyTimeout: Duration = .seconds(5)
        /// `--keep-going`: a script reports each error and goes on (exit 1 at
        /// the end) instead of stopping at the first (`--bail`, the default).
        public var keepGoing = false
        /// `--set-aside-damaged-log`: a store file whose write-ahead log is
        /// damaged before intact commits opens as of its last good commit, the
        /// log copied aside first (refused otherwise).
        public var setAsideDamagedLog = false

        public init(storePath: String? = nil, readOnly: Bool = false, commands: [String] = [], mode: OutputMode = .table,
                    busyTimeout: Duration = .seconds(5), keepGoing: Bool = false, setAsideDamagedLog: Bool = false) {
            self.storePath = storePath
            self.readOnly = readOnly
            self.commands = commands
            self.mode = mode
            self.busyTimeout = busyTimeout
            self.keepGoing = keepGoing
            self.setAsideDamagedLog = setAsideDamagedLog
        }
    }

    /// Opens the store: the file (created if missing), or with no path an
    /// in-memory store holding the sample data.
    public static func openStore(_ arguments: Arguments) throws -> DocumentStore {
        guard let path = arguments.storePath else {
            // Said, not ignored: writes to the sample store would succeed.
            if arguments.readOnly {
                throw CommandError("--read-only needs a store file (docstore STORE --read-only); the in-memory sample store is never saved anyway")
            }
            let store = try DocumentStore.inMemory()
            try SampleData.load(into: store)
            return store
        }
        // sqlite3's name for a database in memory: an empty one, as there.
        // Opened as a file path, its reading connections each had a database
        // of their own, and the first query after an insert failed.
        if path == ":memory:" {
            if arguments.readOnly { throw CommandError("--read-only needs a store file; an in-memory store is never saved anyway") }
            return try DocumentStore.inMemory()
        }
        if arguments.readOnly, !FileManager.default.fileExists(atPath: path) {
            throw CommandError("cannot open \(path) read-only: no such file")
        }
        return try DocumentStore(path: path, readOnly: arguments.readOnly, busyTimeout: arguments.busyTimeout,
                                 damagedLog: arguments.setAsideDamagedLog ? .setAsideAndOpen : .refuse)
    }

    /// Opens the store a session runs on: a PostgreSQL database for a
    /// `postgres://` (or `postgresql://`) URL, else ``openStore(_:)``'s.
    static func openBackend(_ arguments: Arguments) throws -> any REPLBackend {
        if let url = arguments.storePath, PostgresBackend.isURL(url) {
            return try PostgresBackend.connect(url: url, readOnly: arguments.readOnly, busyTimeout: arguments.busyTimeout)
        }
        if let url = arguments.storePath, let scheme = url.range(of: "://").map({ url[..<$0.lowerBound] }),
           !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
            // `mysql://…` was taken for a file path ("the folder mysql://x@y does not exist").
            throw CommandError("cannot open \(url): DocStore opens a store file or a PostgreSQL database (postgres://user@host/database), not \(scheme)://")
        }
        return SQLiteBackend(store: try openStore(arguments))
    }

    /// Runs `docstore` with the process's standard streams; returns the exit code.
    public static func run(_ arguments: Arguments) -> Int32 {
        Interruption.unblockTerminationSignals()
        let (output, errors) = FileDescriptorOutput.standardStreams()
        let backend: any REPLBackend
        do {
            backend = try openBackend(arguments)
        } catch {
            errors.write("docstore: \(error)\n")
            return 1
        }
        defer { (backend as? PostgresBackend)?.close() }
        if let store = (backend as? SQLiteBackend)?.store, let notice = setAsideNotice(store) {
            errors.write(notice + "\n")
        }
        let interactive = arguments.commands.isEmpty && isatty(STDIN_FILENO) == 1
        TerminationSignals.install(interruptible: interactive)
        let color = output.isTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        let session = REPLSession(backend: backend, output: output, errors: errors,
                                  options: .init(mode: arguments.mode, interactive: interactive, color: color,
                                                 displayLimit: interactive && output.isTerminal ? 100 : nil,
                                                 keepGoing: arguments.keepGoing))
        if !arguments.commands.isEmpty { return session.finish(exitCode: session.run(commands: arguments.commands)) }
        guard interactive else { return session.finish(exitCode: session.run(reader: PlainLineReader())) }
        Interruption.catchSignal()
        session.interruption = .terminal
        output.write(banner(arguments, backend: backend.kind) + "\n")
        // Streams of our own on the standard descriptors: the C globals `stdin`…
        // are shared mutable state to Swift 6, and the session writes to the
        // descriptors directly anyway.
        guard let input = fdopen(STDIN_FILENO, "r"), let terminalOutput = fdopen(STDOUT_FILENO, "w"),
              let terminalErrors = fdopen(STDERR_FILENO, "w") else {
            return session.finish(exitCode: session.run(reader: PlainLineReader()))
        }
        setvbuf(terminalOutput, nil, _IONBF, 0)
        let reader = EditLineReader(
            input: input, output: terminalOutput, errors: terminalErrors,
            historyPath: EditLineReader.defaultHistoryPath(),
            complete: { [unowned session] text in
                Completer.complete((session.isContinuing ? session.pendingText + "\n" : "") + text, schema: session.schemaProvider)
            })
        guard let reader else { return session.finish(exitCode: session.run(reader: PlainLineReader())) }
        return session.finish(exitCode: session.run(reader: reader))
    }

    /// What `--set-aside-damaged-log` did, on stderr: the store now lacks
    /// commits, and the user must know which file still holds them.
    static func setAsideNotice(_ store: DocumentStore) -> String? {
        guard let log = store.setAsideLog, let path = store.path else { return nil }
        let commits = "the damaged transaction and " + (log.droppedCommits == 1 ? "the intact commit" : "the \(log.droppedCommits) intact commits")
        let place = log.frame.map { "frame \($0), starting at byte \(log.offset)" } ?? "its header"
        guard let copy = log.copyPath else {
            return "docstore: the write-ahead log \(path)-wal is damaged (\(place)); opened read-only as of its last good commit, without \(commits) after it, which stay in the log (no copy made, nothing changed)"
        }
        return "docstore: the write-ahead log \(path)-wal was damaged (\(place)); it was copied whole to \(copy) and the store opened as of its last good commit, without \(commits) after it: they are only in that copy, so keep it"
    }

    static func banner(_ arguments: Arguments, store: DocumentStore) -> String {
        banner(arguments, backend: .sqlite)
    }

    static func banner(_ arguments: Arguments, backend: BackendKind) -> String {
        var text = "DocStore REPL — "
        if let url = arguments.storePath, backend == .postgres {
            text += "PostgreSQL database \(PostgresBackend.redacted(url))\(arguments.readOnly ? " (read-only)" : "")"
        } else if let path = arguments.storePath {
            text += "store \(path)\(arguments.readOnly ? " (read-only)" : "")"
        } else {
            // Short lines: the banner must not wrap in an 80-column terminal.
            text += "an in-memory store of sample data:\n"
                + "collections teams and players; nothing is saved.\n"
                + "Open a file to keep your data: docstore baseball.sqlite"
        }
        return text + "\n.help for help, .quit to leave."
    }
}
