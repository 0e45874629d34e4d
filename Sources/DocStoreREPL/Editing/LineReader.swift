/// A source of input lines: libedit on a terminal, plain reading otherwise.
public protocol LineReader: AnyObject {
    /// The next line without its line break, or nil at the end of input.
    /// `prompt` is shown only by interactive readers.
    func readLine(prompt: String) -> String?
    /// Records a line in the history (a no-op for non-interactive readers).
    func addHistory(_ line: String)
    /// Whether the last `readLine` was cut short by ctrl-C (then the session
    /// drops any open block); reading this resets it.
    func takeInterruption() -> Bool
}

extension LineReader {
    public func takeInterruption() -> Bool { false }
}

/// Reads standard input line by line, with no prompt and no history: for pipes
/// and files. Invalid UTF-8 is repaired (U+FFFD), so any bytes can be read.
public final class PlainLineReader: LineReader {
    public init() {}

    public func readLine(prompt: String) -> String? {
        Swift.readLine(strippingNewline: true)
    }

    public func addHistory(_ line: String) {}
}

/// Lines from an array: for tests.
public final class ArrayLineReader: LineReader {
    private var lines: [String]
    public private(set) var history: [String] = []

    public init(_ lines: [String]) {
        self.lines = lines
    }

    public func readLine(prompt: String) -> String? {
        lines.isEmpty ? nil : lines.removeFirst()
    }

    public func addHistory(_ line: String) {
        history.append(line)
    }
}
