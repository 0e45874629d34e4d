import CEditLine
import Foundation

/// Interactive line editing through libedit (BSD licence): arrow keys and emacs
/// bindings, history saved across runs, reverse search with ctrl-R, and TAB
/// completion by a ``Completer``-style function. A thin wrapper: what to
/// complete is decided elsewhere, as a pure function of the text.
public final class EditLineReader: LineReader {
    private let editLine: OpaquePointer
    private let history: OpaquePointer
    private var event = HistEvent()
    private var promptStorage: UnsafeMutablePointer<CChar>?
    private let historyPath: String?
    private let output: UnsafeMutablePointer<FILE>
    /// Text before the cursor → completion. The line editor knows only the
    /// current line; the caller prepends the lines of an open block.
    private let complete: (String) -> Completer.Completion

    /// - Parameters:
    ///   - input, output, errors: The terminal's streams.
    ///   - historyPath: Where history is loaded from and saved to; nil keeps none.
    ///   - complete: Completion for the text before the cursor.
    public init?(input: UnsafeMutablePointer<FILE>, output: UnsafeMutablePointer<FILE>, errors: UnsafeMutablePointer<FILE>,
                 historyPath: String?, complete: @escaping (String) -> Completer.Completion) {
        // libedit reads multibyte (UTF-8) input only under a UTF-8 locale.
        if setlocale(LC_CTYPE, "") == nil || !String(cString: nl_langinfo(nl_item(CODESET))).uppercased().contains("UTF") {
            _ = setlocale(LC_CTYPE, "C.UTF-8")
        }
        guard let editLine = el_init("docstore", input, output, errors) else { return nil }
        guard let history = history_init() else {
            el_end(editLine)
            return nil
        }
        self.editLine = editLine
        self.history = history
        if let historyPath, let problem = Self.notAHistoryFile(historyPath) {
            // Saving would replace it: DOCSTORE_HISTORY once named the store.
            fputs("warning: history is not saved: \(historyPath) \(problem)\n", errors)
            self.historyPath = nil
        } else {
            self.historyPath = historyPath
        }
        self.output = output
        self.complete = complete

        _ = docstore_history_set_size(history, &event, 1000)
        _ = docstore_history_set_unique(history, &event, 1)
        if let historyPath = self.historyPath { _ = docstore_history_load(history, &event, historyPath) }

        _ = docstore_el_set_editor(editLine, "emacs")
        _ = docstore_el_set_history(editLine, history)
        _ = docstore_el_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
        _ = docstore_el_set_prompt(editLine, { editLine in
            guard let editLine, let data = docstore_el_get_clientdata(editLine) else { return nil }
            return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue().promptStorage
        })
        _ = docstore_el_add_function(editLine, "docstore-complete", "complete the word", { editLine, _ in
            guard let editLine, let data = docstore_el_get_clientdata(editLine) else { return UInt8(CC_ERROR) }
            return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue().completeWord()
        })
        _ = docstore_el_bind(editLine, "^I", "docstore-complete")
        // ctrl-C drops the line (and any open block) for a fresh prompt instead
        // of ending the program: while editing, the terminal passes it to
        // libedit as a key (no SIGINT), bound to this function.
        _ = docstore_el_set_tty(editLine, "-d", "-isig")
        _ = docstore_el_add_function(editLine, "docstore-interrupt", "drop the line", { editLine, _ in
            guard let editLine, let data = docstore_el_get_clientdata(editLine) else { return UInt8(CC_ERROR) }
            let reader = Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue()
            reader.interrupted = true
            fputs("^C", reader.output)
            return UInt8(CC_NEWLINE)
        })
        _ = docstore_el_bind(editLine, "^C", "docstore-interrupt")
        // ctrl-R: incremental search back through history, as in shells.
        _ = docstore_el_bind(editLine, "^R", "em-inc-search-prev")
        // ctrl-Space sends NUL; libedit's default binding for it made the next
        // key literal (Enter became a ^M in the line). Emacs's meaning instead:
        // set the mark (for ctrl-W), inserting nothing.
        _ = docstore_el_bind(editLine, "^@", "em-set-mark")
    }

    deinit {
        el_end(editLine)
        history_end(history)
        free(promptStorage)
    }

    public func readLine(prompt: String) throws(InvalidUTF8Line) -> String? {
        free(promptStorage)
        promptStorage = strdup(prompt)
        var count: Int32 = 0
        let line = el_gets(editLine, &count)
        if interrupted {
            fputs("\n", output)
            return ""
        }
        guard let line, count > 0 else { return nil }
        let length = strlen(line)
        return try line.withMemoryRebound(to: UInt8.self, capacity: length) { bytes throws(InvalidUTF8Line) in
            var text = UnsafeBufferPointer(start: bytes, count: length)[...]
            if text.last == UInt8(ascii: "\n") { text = text.dropLast() }
            return try InvalidUTF8Line.decode(text)
        }
    }

    private var interrupted = false

    public func takeInterruption() -> Bool {
        defer { interrupted = false }
        return interrupted
    }

    public func addHistory(_ line: String) {
        _ = docstore_history_enter(history, &event, line)
        // Saved at once, so history survives a crash or a closed terminal; into
        // a file beside it, renamed over it, so a terminal closed mid-save
        // leaves the old history rather than a truncated one.
        guard let historyPath else { return }
        let temporary = historyPath + ".\(getpid()).tmp"
        if docstore_history_save(history, &event, temporary) >= 0, rename(temporary, historyPath) == 0 { return }
        unlink(temporary)
    }

    /// The TAB key: inserts the candidates' common prefix, or lists them.
    private func completeWord() -> UInt8 {
        guard let info = el_line(editLine)?.pointee, let buffer = info.buffer, let cursor = info.cursor else {
            return UInt8(CC_ERROR)
        }
        let length = buffer.distance(to: cursor)
        let before = buffer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
        let completion = complete(before)
        guard !completion.candidates.isEmpty else { return UInt8(CC_REFRESH_BEEP) }
        let typed = String(before.suffix(completion.replacing))
        let prefix = completion.commonPrefix
        if prefix.count > typed.count || completion.candidates.count == 1 {
            el_deletestr(editLine, Int32(typed.unicodeScalars.count))
            let insertion = completion.candidates.count == 1 ? completion.candidates[0] : prefix
            _ = el_insertstr(editLine, insertion)
            return UInt8(CC_REFRESH)
        }
        // Nothing more in common: show the candidates under the line.
        let list = completion.candidates.prefix(100).joined(separator: "  ")
        fputs("\n" + list + (completion.candidates.count > 100 ? "  …" : "") + "\n", output)
        return UInt8(CC_REDISPLAY)
    }

    /// Why the file at `path` can't take the history (saving replaces it
    /// whole): it exists and is neither empty nor a history file (libedit's
    /// start with `_HiStOrY_V2_`). Nil when it is missing or one.
    static func notAHistoryFile(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        guard status.st_mode & S_IFMT == S_IFREG else { return "is not a regular file" }
        guard status.st_size > 0 else { return nil }
        guard let handle = FileHandle(forReadingAtPath: path) else { return "can't be read" }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 12)) ?? Data()
        return start == Data("_HiStOrY_V2_".utf8) ? nil : "holds something else (a history file starts with _HiStOrY_V2_); set DOCSTORE_HISTORY to another file"
    }

    /// The history file: `$DOCSTORE_HISTORY` if set (empty: no history), else
    /// `~/.docstore_history`.
    public static func defaultHistoryPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let path = environment["DOCSTORE_HISTORY"] { return path.isEmpty ? nil : path }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home as NSString).appendingPathComponent(".docstore_history")
    }
}
