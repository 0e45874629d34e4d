import DocStore
import Foundation

/// A REPL session: reads commands line by line (continuing while braces are
/// open), runs them against a store, and prints results and errors.
///
/// Input and output are parameters, so a session runs the same on a terminal,
/// on piped input, and in tests:
///
///     let session = REPLSession(store: store, output: out, errors: err, options: .init(interactive: false))
///     session.feed("players.count()")
public final class REPLSession {
    /// How a session behaves.
    public struct Options: Sendable {
        /// How results are printed.
        public var mode: OutputMode
        /// Interactive: errors never end the session, results end with a count
        /// and timing line. Not interactive (piped input, `-c`): the first error
        /// ends the session with exit code 1 (with ``keepGoing``, the end does),
        /// and only results are printed.
        public var interactive: Bool
        /// ANSI colours (only ever on a terminal).
        public var color: Bool
        /// At most how many rows a long result shows at an interactive prompt
        /// (its first and last, and the count) when the screen's height is
        /// unknown and `.maxrows` was not given, or nil for all.
        public var displayLimit: Int?
        /// Scripts (piped input, `.read`, several `-c`) report each error with
        /// its line and go on, failing at the end (`--keep-going`), instead of
        /// stopping at the first (`--bail`, the default).
        public var keepGoing: Bool
        /// `.timer on`: each command's real, user and system time is printed.
        public var timer: Bool

        public init(mode: OutputMode = .table, interactive: Bool, color: Bool = false, displayLimit: Int? = nil,
                    keepGoing: Bool = false, timer: Bool = false) {
            self.mode = mode
            self.interactive = interactive
            self.color = color
            self.displayLimit = displayLimit
            self.keepGoing = keepGoing
            self.timer = timer
        }
    }

    /// What feeding a line did.
    public enum FeedResult: Equatable, Sendable {
        /// The input so far is incomplete: a block is still open.
        case needsMore
        /// A command ran (or the input was blank).
        case done
        /// A command failed; the error was printed.
        case failed
        /// `.quit`
        case quit
    }

    /// The store the session runs on: a DocStore file (SQLite) or a PostgreSQL database.
    let backend: any REPLBackend
    public private(set) var options: Options
    let output: TextOutput
    let errors: TextOutput
    let schema: StoreSchema
    let runner: CommandRunner
    var pending = ""
    var pendingStartLine = 1
    var lineNumber = 0
    /// `.headers`, `.output`, `.once`, `.maxrows`.
    var outputSettings = OutputSettings()
    /// Whether a script's command failed with `--keep-going` (the script went
    /// on): the session's exit code is 1, also when a later `.quit` ends it.
    var scriptFailed = false
    /// Whether the standard output's write failure was reported (once).
    var reportedWriteFailure = false
    /// Whether the reader of the standard output went away (`| head` done)
    /// while SIGPIPE was ignored, so the session ended without running the
    /// commands after that one.
    var outputClosed = false
    /// The script being read by `.read` (or the `-c` being run), named in
    /// error locations; nil for standard input and the prompt.
    var sourceName: String?
    /// The files `.read` is reading now, outermost first: reading one again
    /// would never end.
    var filesBeingRead: [String] = []
    /// Whether lines come from a script (piped input, `.read`), where `.watch`, which
    /// runs until ctrl-C, would keep the rest from ever running.
    var readsScript = false
    /// Whether `-c` commands follow the one running, which a `.watch` would
    /// keep from ever running.
    var commandsFollow = false

    /// A session on a DocStore file or in-memory store.
    public convenience init(store: DocumentStore, output: TextOutput, errors: TextOutput, options: Options) {
        self.init(backend: SQLiteBackend(store: store), output: output, errors: errors, options: options)
    }

    init(backend: any REPLBackend, output: TextOutput, errors: TextOutput, options: Options) {
        self.backend = backend
        self.output = output
        self.errors = errors
        self.options = options
        schema = StoreSchema(backend: backend)
        runner = CommandRunner(backend: backend, schema: schema)
        runner.displayLimit = options.displayLimit
        if options.interactive, errors.isTerminal { runner.progressOutput = errors }
        runner.notes = errors
    }

    /// The DocStore file or in-memory store the session runs on; nil when it
    /// runs on PostgreSQL.
    public var store: DocumentStore? { (backend as? SQLiteBackend)?.store }

    /// The prompt, naming the database when it is not a DocStore file, and the
    /// continuation prompt of the same width.
    var prompts: (first: String, continuation: String) {
        switch backend.kind {
        case .sqlite: ("docstore> ", "     ...> ")
        case .postgres: ("docstore postgres> ", "              ...> ")
        }
    }

    /// What ctrl-C sets while a command runs; the launcher passes
    /// ``Interruption/terminal``, which SIGINT sets.
    public var interruption: Interruption {
        get { runner.interruption }
        set { runner.interruption = newValue }
    }

    /// The schema the parser and the completer use.
    public var schemaProvider: any SchemaProvider { schema }

    /// Whether a block is open and more lines are expected.
    public var isContinuing: Bool { !pending.isEmpty }

    /// The text of the open block, for completion on a continuation line.
    public var pendingText: String { pending }

    /// Feeds one line of input.
    @discardableResult
    public func feed(_ line: String) -> FeedResult {
        lineNumber += 1
        if pending.isEmpty {
            pendingStartLine = lineNumber
            pending = line
        } else {
            pending += "\n" + line
        }
        if InputBalance.continues(pending) { return .needsMore }
        let text = pending
        pending = ""
        return execute(text, firstLine: firstLine)
    }

    /// Refuses a line that is not UTF-8, with the block it was part of: running
    /// what is left of a command could do something else than was asked.
    func reject(_ error: InvalidUTF8Line) {
        lineNumber += 1
        // At a prompt lines count from the command's first, as for parse errors.
        let linesBefore = pending.isEmpty ? 0 : pending.split(separator: "\n", omittingEmptySubsequences: false).count
        let line = inScript ? lineNumber : linesBefore + 1
        pending = ""
        report("error at line \(line), \(error)")
    }

    /// Drops an open block (ctrl-C).
    public func cancelInput() {
        pending = ""
    }

    /// Ends the input: an open block is parsed as it is (and reports what is
    /// missing). In a script, a bracket never closed took every line after it
    /// into its command: the error names the bracket and the lines it took,
    /// and with `--keep-going` those lines then run as the commands they are
    /// (`a.count(` swallowed every insert after it, said "expected ')'" at the
    /// next line, and never said they hadn't run).
    public func finishInput() -> FeedResult {
        guard !pending.isEmpty else { return .done }
        let text = pending
        pending = ""
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard inScript, InputBalance.isIncomplete(text), let unclosed = InputBalance.firstUnclosed(text),
              unclosed.line + 1 < lines.count else {
            return execute(text, firstLine: firstLine)
        }
        let openerLine = pendingStartLine + unclosed.line
        let single = openerLine + 1 == lineNumber
        let taken = single ? "line \(lineNumber)" : "lines \(openerLine + 1)–\(lineNumber)"
        report("error at line \(openerLine), column \(unclosed.column): this \"\(unclosed.bracket)\" is never closed, so its command took in \(taken) and ran none of it"
               + (options.keepGoing ? "; running \(single ? "it" : "them") as commands of their own" : ""))
        guard options.keepGoing else { return .failed }
        scriptFailed = true
        lineNumber = openerLine
        for line in lines[(unclosed.line + 1)...] {
            if feed(String(line)) == .quit { return .quit }
        }
        _ = finishInput()  // the lines' own open block, if any
        return .failed
    }

    /// Where error locations count lines from: a script's lines when input is
    /// piped or `.read`; the command's own lines at a prompt (the line shown is
    /// right there).
    private var firstLine: Int { inScript ? pendingStartLine : 1 }

    /// Parses and runs one command (one or more lines).
    ///
    /// A command whose results could not be written to the standard output (a
    /// full disk, a closed descriptor) fails, so a script stops and exits 1:
    /// `docstore s.db -c 'big' > backup.ndjson` on a full disk exited 0 with a
    /// truncated file.
    ///
    /// - Parameter firstLine: The input line the text starts on, for error locations.
    public func execute(_ text: String, firstLine: Int = 1) -> FeedResult {
        let result = executeCommand(text, firstLine: firstLine)
        guard let failure = output.writeFailure, !reportedWriteFailure else { return result }
        reportedWriteFailure = true
        report("error: \(failure)")
        return result == .quit ? .quit : .failed
    }

    private func executeCommand(_ text: String, firstLine: Int) -> FeedResult {
        // Cleared before parsing, not after: parsing may read the store (the
        // fields a warning names), and a ctrl-C pressed meanwhile must stop
        // the command, not be forgotten as it starts.
        runner.interruption.reset()
        // From before the parse, which reads the store's catalog (on
        // PostgreSQL, round trips to the server): a minute waiting for a
        // server there was timed as 9 ms (helper-57).
        let started = options.timer ? RunTime.now() : nil
        let parsed: ParsedCommand
        do {
            parsed = try CommandParser.parse(text, schema: schema)
        } catch {
            // `.once` is for the next command, even one that fails: kept, it
            // would take the output of a later command meant for the screen.
            outputSettings.oncePath = nil
            report(error.rendered(source: text, lineOffset: firstLine - 1))
            return .failed
        }
        for warning in parsed.warnings {
            errors.write(style(for: errors).apply(.warning, "warning") + located(warning.rendered(source: text, lineOffset: firstLine - 1)).dropFirst("error".count) + "\n")
        }
        if let moved = storeFileMoved(parsed.command) {
            outputSettings.oncePath = nil
            report("error: \(moved)")
            return .failed
        }
        if let clash = outputClash(parsed.command) {
            outputSettings.oncePath = nil
            report("error: \(clash)")
            return .failed
        }
        defer { if let started { reportRunTime(of: parsed.command, since: started) } }
        switch parsed.command {
        case .quit:
            return .quit
        case .mode(let mode):
            options.mode = mode
            return .done
        case .showMode:
            let modes = OutputMode.allCases.map(\.rawValue).joined(separator: ", ")
            console.write("results are printed as \(options.mode.rawValue) (.mode \(modes) changes it)\n")
            return .done
        case .headers, .output, .once, .maxRows, .exportQuery:
            return executeOutputCommand(parsed.command) ?? .done
        case .help(let topic):
            output.write(HelpText.text(topic: topic) + "\n")
            return .done
        case .watch(let watched):
            return watch(watched)
        case .read(let path):
            return read(path)
        case .timer(nil):
            console.write("the timer is \(options.timer ? "on" : "off") (.timer on|off changes it)\n")
            return .done
        case .timer(let on?):
            options.timer = on
            return .done
        default:
            break
        }
        let clock = ContinuousClock()
        let start = clock.now
        let printed: PrintedSummary
        do {
            // Printing is inside: ctrl-C while rows stream out stops the query too.
            printed = try runner.interruption.interruptible { try runAndPrint(parsed.command) }
        } catch let interrupted as Interruption.Interrupted {
            report(interrupted.description)
            return .failed
        } catch is OutputClosed {
            // The reader of stdout went away (`| head`): nothing more to show.
            outputClosed = true
            return .quit
        } catch where runner.interruption.isRequested {
            // ctrl-C interrupted a statement: its transaction was rolled back.
            report(Self.interruptedMessage(parsed.command))
            return .failed
        } catch {
            report("error: \(error)")
            return .failed
        }
        let elapsed = clock.now - start
        if options.interactive {
            if printed.overflows {
                output.write(style(for: output).apply(.dim, "(wider than the terminal: .mode line shows one field per line)") + "\n")
            }
            let timing = Self.format(elapsed)
            if let summary = printed.count {
                output.write(style(for: output).apply(.dim, "\(summary) (\(timing))") + "\n")
            } else if printed.isValue {
                output.write(style(for: output).apply(.dim, "(\(timing))") + "\n")
            }
        }
        // The report is printed; damage fails the command (exit 1 in a script).
        if case .check = parsed.command, !runner.lastCheckWasHealthy {
            report("error: .check found problems (the report above)")
            return .failed
        }
        return .done
    }

    /// A result as the session's mode prints it (without a final newline).
    func format(_ result: CommandResult, width: Int?) -> String? {
        ResultPrinter(mode: options.mode, style: style(for: output), width: width, headers: outputSettings.headers).format(result)
    }

    func report(_ message: String) {
        let message = located(message)
        let styled = message.hasPrefix("error") ? style(for: errors).apply(.error, "error") + message.dropFirst("error".count) : message
        errors.write(styled + "\n")
    }

    func style(for target: TextOutput) -> TerminalStyle {
        options.color && target.isTerminal ? .colored : .plain
    }

    /// "0.4 ms", "12 ms", "1.25 s"
    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        if milliseconds < 10 { return String(format: "%.1f ms", milliseconds) }
        if milliseconds < 1000 { return String(format: "%.0f ms", milliseconds) }
        return String(format: "%.2f s", milliseconds / 1000)
    }

    /// Reads lines from `reader` until the end of input or `.quit`.
    ///
    /// - Returns: The exit code: 0, or 1 when a command failed in a
    ///   non-interactive session (which, as a script, stops at the first
    ///   failure unless ``Options/keepGoing``).
    public func run(reader: LineReader) -> Int32 {
        guard options.interactive else { return runScript(reader) == .failed ? 1 : 0 }
        var entry: [String] = []
        while true {
            let prompt = isContinuing ? prompts.continuation : prompts.first
            let line: String?
            do {
                line = try reader.readLine(prompt: prompt)
            } catch {
                reject(error)
                entry = []
                continue
            }
            guard let line else {
                _ = finishInput()
                return 0
            }
            if reader.takeInterruption() {
                cancelInput()
                entry = []
                continue
            }
            entry.append(line)
            let result = feed(line)
            // A multi-line entry goes into history whole, its lines joined by
            // line breaks (which end conditions as they did when typed), so the
            // up arrow recalls the block, not its last line.
            if result != .needsMore {
                let text = entry.joined(separator: "\n")
                entry = []
                if !text.allSatisfy(\.isWhitespace) { reader.addHistory(text) }
            }
            if result == .quit { return 0 }
        }
    }
}

extension REPLSession {
    /// Why no command but `.quit` and `.help` runs once another program has
    /// deleted, renamed or replaced the store's file (nil while it is in
    /// place): writes would be lost (``DocStore/DocStoreError/storeFileMoved(path:)``),
    /// and reads could show the file the session opened or the one there now.
    /// The session wrote on into the replaced file and said "inserted"
    /// (helper-55). A stat of the path a command.
    func storeFileMoved(_ command: REPLCommand) -> String? {
        switch command {
        case .quit, .help: return nil
        default: break
        }
        guard let store, let path = store.path, (try? store.fileWasMoved()) == true else { return nil }
        return "the store file \(path) was deleted, renamed or replaced by another program after this session opened it: "
            + "its writes would be lost and its reads could show either file, so nothing was run; quit and open \(path) again"
    }
}
