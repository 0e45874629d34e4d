import Foundation

/// Scripts: piped input, `.read FILE` and `-c` commands run through one loop,
/// so they report errors the same way (file, line and column) and follow the
/// same policy: stop at the first error (`--bail`, the default) or report each
/// and go on (`--keep-going`), failing at the end.
extension REPLSession {
    /// Whether lines come from a script (piped input or a `.read` file), where
    /// errors name the script's line rather than the command's own.
    var inScript: Bool { !options.interactive || !filesBeingRead.isEmpty }

    /// Runs every line of `reader` as a script.
    ///
    /// - Returns: `.failed` when a command failed (at once with `--bail`, at
    ///   the end with `--keep-going`), `.quit` after `.quit`, else `.done`.
    func runScript(_ reader: LineReader) -> FeedResult {
        let wasReadingScript = readsScript
        readsScript = true
        defer { readsScript = wasReadingScript }
        var failed = false
        while true {
            let line: String?
            do {
                line = try reader.readLine(prompt: "")
            } catch {
                reject(error)
                if !options.keepGoing { return .failed }
                failed = true
                continue
            }
            guard let line else { break }
            let result = feed(line)
            // ctrl-C (in a `.read` at the prompt) ends the whole script, even
            // with --keep-going: the rest may depend on what was interrupted.
            if runner.interruption.isRequested {
                if result != .failed { report("interrupted: the rest of \(sourceName ?? "the script") was not run") }
                return .failed
            }
            switch result {
            case .quit:
                return .quit
            case .failed:
                if !options.keepGoing { return .failed }
                failed = true
                // Remembered past a `.quit` later in the script, which ends
                // the session: the exit code still says a command failed.
                scriptFailed = true
            case .done, .needsMore:
                continue
            }
        }
        // An open block at the end is parsed as it is, and reports what is missing.
        if finishInput() == .failed { failed = true }
        return failed ? .failed : .done
    }

    /// `.read FILE`: the file's commands, run as piped input would run them,
    /// with their own line numbers and the file named in errors. A `.read` of
    /// a file already being read (directly or through others) is refused.
    func read(_ path: String) -> FeedResult {
        let expanded = (path as NSString).expandingTildeInPath
        let identity = URL(fileURLWithPath: expanded).standardizedFileURL.resolvingSymlinksInPath().path
        if let first = filesBeingRead.firstIndex(of: identity) {
            let chain = (filesBeingRead[first...] + [identity]).map { ($0 as NSString).lastPathComponent }
            report("error: .read \(path) would read it again while it is being read (\(chain.joined(separator: " → "))), which would never end")
            return .failed
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: expanded, isDirectory: &isDirectory), isDirectory.boolValue {
            report("error: cannot .read \(path): it is a directory")
            return .failed
        }
        let descriptor = open(expanded, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            report("error: cannot .read \(path): \(String(cString: strerror(errno)))")
            return .failed
        }
        defer { close(descriptor) }

        // The file is a source of its own: its lines count from 1, and the
        // command that ran `.read` resumes where it was afterwards.
        let saved = (pending, pendingStartLine, lineNumber, sourceName)
        (pending, pendingStartLine, lineNumber, sourceName) = ("", 1, 0, path)
        filesBeingRead.append(identity)
        defer {
            (pending, pendingStartLine, lineNumber, sourceName) = saved
            filesBeingRead.removeLast()
        }
        return runScript(PlainLineReader(fileDescriptor: descriptor))
    }

    /// Runs the `-c` commands in order, as a script of those commands.
    ///
    /// - Returns: The exit code: 1 when one failed (the first stops the rest
    ///   unless `--keep-going`), else 0.
    /// (`-c '.watch QUERY'` alone is allowed: it streams until ctrl-C.)
    public func run(commands: [String]) -> Int32 {
        var failed = false
        defer { (sourceName, commandsFollow) = (nil, false) }
        for (index, command) in commands.enumerated() {
            // With several, errors say which one; their lines count within it.
            sourceName = commands.count > 1 ? "-c \(index + 1)" : nil
            commandsFollow = index < commands.count - 1
            pendingStartLine = 1
            switch execute(command) {
            case .quit: return failed ? 1 : 0
            case .failed:
                if !options.keepGoing { return 1 }
                failed = true
                scriptFailed = true
            case .done, .needsMore: continue
            }
        }
        return failed ? 1 : 0
    }

    /// An error message with where it happened: in a script, the script's name
    /// (for `.read` and several `-c`) and the command's line, which a run-time
    /// error ("error: duplicate key 34") lacks and a parse error already has.
    func located(_ message: String) -> String {
        guard inScript || sourceName != nil else { return message }
        let place = sourceName.map { "error in \($0) at " } ?? "error at "
        if message.hasPrefix("error at ") { return place + message.dropFirst("error at ".count) }
        if message.hasPrefix("error: ") { return place + "line \(pendingStartLine): " + message.dropFirst("error: ".count) }
        return message
    }

    /// What ctrl-C during `command` left: a write's transaction rolls back whole.
    static func interruptedMessage(_ command: REPLCommand) -> String {
        switch command {
        case .importFile(let collection, _, _): "interrupted: nothing was imported, \(collection) is unchanged"
        case .exportFile(_, let path): "interrupted: \(path) was not written"
        case let command where command.writes: "interrupted: nothing was changed, the store is as it was"
        default: "interrupted"
        }
    }

    /// `.timer on`: "Run Time: real 0.012 user 0.010000 sys 0.001000", as
    /// sqlite3 prints it; on stderr in scripts, so stdout carries only results.
    func reportRunTime(of command: REPLCommand, since start: RunTime) {
        switch command {
        case .empty, .timer, .read, .quit: return
        default: break
        }
        console.write(RunTime.now().report(since: start) + "\n")
    }
}
