import DocStore
import Foundation

/// Where a session's results go and how they look, besides the mode.
struct OutputSettings {
    /// Column names above csv, tsv, markdown and table rows (`.headers`).
    var headers = true
    /// How many rows an interactive screen shows (`.maxrows`).
    var rowLimit = RowLimit.screen
    /// `.output FILE`: results go to it until `.output` alone.
    var file: OutputFile?
    /// `.once FILE`: the next command's results go to it.
    var oncePath: String?
}

/// What printing a command's result showed, for the summary line at a prompt.
struct PrintedSummary {
    /// "3 documents", "108 789 rows, 40 shown; …", or nil (a message, a value).
    var count: String?
    /// A single value was printed (its timing is shown alone).
    var isValue = false
    /// A table came out wider than the terminal.
    var overflows = false
}

extension REPLSession {
    /// Where messages go: the screen at a prompt; stderr otherwise, so that
    /// stdout carries only results ("inserted 3 documents" never lands in a
    /// pipe into jq).
    var console: TextOutput { options.interactive ? output : errors }

    /// Runs the output dot-commands (`.headers`, `.output`, `.once`, `.maxrows`,
    /// `.export FILE QUERY`); nil for other commands.
    func executeOutputCommand(_ command: REPLCommand) -> FeedResult? {
        do {
            switch command {
            case .headers(let on):
                outputSettings.headers = on
            case .output(let path?) where outputSettings.file.map({ FileIdentity.same($0.path, path) }) == true:
                // Opened anew, the file lost the results it already held
                // (`.once` and `.export` to it are refused; helper-56).
                console.write("results already go to \(path), which keeps what it holds (.output alone ends it, and puts it in place)\n")
            case .output(let path):
                try closeOutputFile()
                if let path {
                    let file = try OutputFile(path: path)
                    // Empty and whole: a session ended now leaves FILE empty, as sqlite3's would.
                    file.markWhole(upTo: 0)
                    outputSettings.file = file
                }
            case .once(let path):
                try AtomicFileWriter.checkWritable(path)
                outputSettings.oncePath = path
            case .maxRows(let limit?):
                outputSettings.rowLimit = limit
            case .maxRows(nil):
                let shown = switch outputSettings.rowLimit {
                case .all: "every row"
                case .screen: "as many rows as fit the screen"
                case .rows(let count): "at most \(CommandResult.plural(count, "row"))"
                }
                console.write("a long result shows \(shown), the first and the last (.maxrows N|all|screen changes it)\n")
            case .exportQuery(let path, let query):
                return exportQuery(query, to: path)
            default:
                return nil
            }
        } catch {
            report("error: \(error)")
            return .failed
        }
        return .done
    }

    /// Why `command` can't run while results go to a file: it reads or writes
    /// that same file, which `.once`/`.output` then replaces with the results
    /// (`.once t.csv` then `.import teams t.csv` left t.csv empty; an export
    /// there was replaced by its own count). Nil when nothing clashes.
    func outputClash(_ command: REPLCommand) -> String? {
        let operand: (path: String, use: String)? = switch command {
        case .importFile(_, let path, _): (path, "reads")
        case .exportFile(_, let path), .exportQuery(let path, _): (path, "writes")
        case .read(let path): (path, "reads")
        default: nil
        }
        if let clash = redirectClash(command) { return clash }
        if case .watch = command, let (target, name) = outputSettings.oncePath.map({ ($0, ".once") }) ?? outputSettings.file.map({ ($0.path, ".output") }) {
            // A watch printed on the screen regardless, and a pending `.once`
            // then took the next command's result instead (helper-55).
            return ".watch prints its results on the screen, and \(name) sends results to \(target); nothing was watched "
                + "(end \(name) first; to stream a watch into a file: docstore STORE -c '.watch QUERY' > FILE)"
        }
        guard let operand else { return nil }
        let redirects = [(outputSettings.oncePath, ".once"), (outputSettings.file?.path, ".output")]
        for case let (target?, name) in redirects where FileIdentity.same(target, operand.path) {
            return "\(operand.path) is the file \(name) is writing results to, which would then replace what this command \(operand.use); "
                + "nothing was done (name another file, or end \(name) first)"
        }
        return nil
    }

    /// Why `.once FILE` or `.output FILE` can't name the file the other is
    /// writing: the one put in place last replaced the other's results
    /// (`.output o.txt`, `.once o.txt`, a query: its result vanished when
    /// `.output` ended). Nil when nothing clashes.
    private func redirectClash(_ command: REPLCommand) -> String? {
        let (path, other, otherName): (String?, String?, String) = switch command {
        case .once(let path): (path, outputSettings.file?.path, ".output")
        case .output(let path): (path, outputSettings.oncePath, ".once")
        default: (nil, nil, "")
        }
        guard let path, let other, FileIdentity.same(other, path) else { return nil }
        return "\(path) is the file \(otherName) is writing results to: whichever is put in place last would replace the other's results; nothing was done (name another file, or end \(otherName) first)"
    }

    /// Puts `.output`'s file in place, if one is open; results go back to the
    /// standard output. Called by `.output` and when the session ends.
    public func closeOutputFile() throws {
        guard let file = outputSettings.file else { return }
        outputSettings.file = nil
        try file.commit()
    }

    /// Ends the session's output: `.output`'s file is put in place. Returns
    /// `exitCode`, or 1 when that fails (the error is reported).
    public func finish(exitCode: Int32) -> Int32 {
        do {
            try closeOutputFile()
            // Results lost on the way to the standard output fail the run.
            if output.writeFailure != nil || scriptFailed { return 1 }
            // Quietly, as SIGPIPE's default ends a process, and with its
            // status (128 + 13): where SIGPIPE was ignored, a script whose
            // reader had gone ended with 0, its later commands never run.
            if outputClosed { return 128 + SIGPIPE }
            return exitCode
        } catch {
            report("error: \(error)")
            return 1
        }
    }

    /// Runs `command` and prints its result where results go now (`.once`'s
    /// file, `.output`'s, or the standard output); messages go to ``console``.
    /// A command that fails leaves `.once`'s file unwritten and takes back what
    /// it wrote into `.output`'s.
    func runAndPrint(_ command: REPLCommand) throws -> PrintedSummary {
        if let path = outputSettings.oncePath {
            outputSettings.oncePath = nil
            let file = try OutputFile(path: path)
            do {
                let summary = try print(command, to: file, onScreen: false)
                try file.commit()
                return summary
            } catch {
                file.discard()
                throw error
            }
        }
        if let file = outputSettings.file {
            let size = file.size
            // A termination signal keeps the finished commands' results, and
            // never half of this one's.
            file.markWhole(upTo: size)
            defer { file.markWhole(upTo: file.size) }
            let failedBefore = file.writeFailure != nil
            do {
                return try print(command, to: file, onScreen: false)
            } catch {
                try? file.rollBack(toSize: size)
                // The file can't be written: it is left as it was, earlier
                // results and all, rather than replaced by part of them later.
                guard file.writeFailure == nil || failedBefore else {
                    throw CommandError("\(error). .output won't change it either: its earlier results were dropped, "
                        + "and later results are refused until .output names a file (or .output alone, for the standard output)")
                }
                throw error
            }
        }
        return try print(command, to: TextOutputSink(output), onScreen: true)
    }

    private func print(_ command: REPLCommand, to sink: ByteSink, onScreen: Bool) throws -> PrintedSummary {
        // A file gets every row: the display limit is the screen's.
        try runner.withDisplayLimit(onScreen ? runner.displayLimit : nil) { try printUnlimitedInFiles(command, to: sink, onScreen: onScreen) }
    }

    private func printUnlimitedInFiles(_ command: REPLCommand, to sink: ByteSink, onScreen: Bool) throws -> PrintedSummary {
        let settings = formatSettings(onScreen: onScreen, mode: options.mode)
        if let stream = try runner.stream(command) {
            // A long result is cut on a terminal's screen only, and only when
            // unbounded: a user who wrote `.limit(500)` asked for 500 rows.
            let cut = onScreen && options.interactive && !stream.isLimited
            let printer = StreamPrinter(settings: settings, limit: cut ? screenRowLimit : nil)
            let printed = try printer.print(stream, backend: backend, to: sink)
            var summary = PrintedSummary(overflows: printed.overflows)
            if printed.shown < printed.count {
                summary.count = "\(CommandResult.grouped(printed.count)) \(stream.noun)s, \(CommandResult.grouped(printed.shown)) shown; "
                    + ".maxrows N, or .once FILE for all"
            } else {
                summary.count = CommandResult.plural(printed.count, stream.noun)
            }
            return summary
        }
        let result = try runner.run(command)
        if case .message(let text) = result {
            console.write(text + "\n")
            return PrintedSummary()
        }
        let printer = ResultPrinter(mode: options.mode, style: settings.style, width: settings.maximumWidth,
                                    headers: outputSettings.headers, cutsCells: settings.maximumCellWidth != nil)
        if let text = printer.formatLines(result) {
            try Array(text.utf8).withUnsafeBytes { try sink.write($0) }
        }
        var summary = PrintedSummary(count: result.countSummary)
        if case .value = result { summary.isValue = true }
        if options.mode == .table, result.isTable, let width = settings.maximumWidth, let text = printer.format(result) {
            summary.overflows = TerminalText.visibleWidth(String(text.prefix { !$0.isNewline })) > width
        }
        return summary
    }

    /// How results look on the screen or in a file.
    func formatSettings(onScreen: Bool, mode: OutputMode) -> FormatSettings {
        FormatSettings(mode: mode, headers: outputSettings.headers,
                       style: onScreen ? style(for: output) : .plain,
                       maximumWidth: onScreen ? output.terminalWidth : nil,
                       maximumCellWidth: onScreen && output.isTerminal ? 40 : nil)
    }

    /// How many rows the screen shows now, or nil for all.
    var screenRowLimit: Int? {
        switch outputSettings.rowLimit {
        case .all: return nil
        case .rows(let count): return count
        case .screen:
            // Room for the borders, the header, the ⋮ row, the summary and the prompt.
            if let height = output.terminalHeight { return max(10, height - 8) }
            return options.displayLimit
        }
    }

    /// `.export FILE QUERY`: the query's result in the format FILE's extension
    /// names, written whole or not at all.
    private func exportQuery(_ query: REPLCommand, to path: String) -> FeedResult {
        let ext = (path as NSString).pathExtension
        guard let mode = OutputMode(fileExtension: ext) else {
            report("error: .export names the format by the file's extension: .csv, .tsv, .md, .json, .ndjson, .jsonl or .txt (a table); \(path) has none of them")
            return .failed
        }
        do {
            let file = try OutputFile(path: path)
            do {
                let settings = formatSettings(onScreen: false, mode: mode)
                let count: String
                if let stream = try runner.stream(query) {
                    let printed = try StreamPrinter(settings: settings).print(stream, backend: backend, to: file)
                    count = CommandResult.plural(printed.count, stream.noun)
                } else {
                    var result = try runner.withDisplayLimit(nil) { try runner.run(query) }
                    if case .message(let text) = result {
                        // A get that found nothing: said on the screen; the file holds no document.
                        console.write(text + "\n")
                        result = .documents([])
                    }
                    let printer = ResultPrinter(mode: mode, style: .plain, width: nil, headers: outputSettings.headers, cutsCells: false)
                    if let text = printer.formatLines(result) {
                        try Array(text.utf8).withUnsafeBytes { try file.write($0) }
                    }
                    count = result.itemDescription
                }
                try file.commit()
                console.write("exported \(count) to \(path)\n")
            } catch {
                file.discard()
                throw error
            }
        } catch {
            report("\(error is Interruption.Interrupted ? "" : "error: ")\(error)")
            return .failed
        }
        return .done
    }
}

extension CommandResult {
    /// What the result holds: "1 document", "3 rows", "a value".
    var itemDescription: String {
        switch self {
        case .documents(let documents), .firstDocuments(let documents): Self.plural(documents.count, "document")
        case .document: Self.plural(1, "document")  // a get that found one: it was "nothing"
        case .rows(_, let rows), .firstRows(_, let rows): Self.plural(rows.count, "row")
        case .value: "a value"
        default: "nothing"
        }
    }
}
