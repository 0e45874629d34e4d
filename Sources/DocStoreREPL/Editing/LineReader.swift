import Foundation

/// A source of input lines: libedit on a terminal, plain reading otherwise.
public protocol LineReader: AnyObject {
    /// The next line without its line break, or nil at the end of input.
    /// `prompt` is shown only by interactive readers.
    ///
    /// - Throws: ``InvalidUTF8Line`` when the line's bytes are not UTF-8: a
    ///   command is never run on text the reader had to guess.
    func readLine(prompt: String) throws(InvalidUTF8Line) -> String?
    /// Records an entry in the history (a no-op for non-interactive readers):
    /// a line, or the lines of a block joined by line breaks.
    func addHistory(_ line: String)
    /// Whether the last `readLine` was cut short by ctrl-C (then the session
    /// drops any open block); reading this resets it.
    func takeInterruption() -> Bool
}

extension LineReader {
    public func takeInterruption() -> Bool { false }
}

/// A line of input that is not valid UTF-8, and where: it is refused rather
/// than read with U+FFFD in place of the bytes, which would run a command (or
/// store a document) other than the one given.
public struct InvalidUTF8Line: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based column (in Unicode characters) of the first invalid byte.
    public var column: Int
    /// That byte.
    public var byte: UInt8

    public var description: String {
        "column \(column): the input is not valid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true).leftPadded(to: 2))); convert it first, e.g. with iconv -t UTF-8"
    }

    /// The line's text, or where its first invalid byte is.
    static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(InvalidUTF8Line) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var column = 1
        var offset = 0
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
            column += 1
            offset += UTF8.width(scalar)
        }
        let index = bytes.index(bytes.startIndex, offsetBy: offset, limitedBy: bytes.endIndex) ?? bytes.startIndex
        throw InvalidUTF8Line(column: column, byte: index < bytes.endIndex ? bytes[index] : 0)
    }
}

/// Reads standard input line by line, with no prompt and no history: for pipes
/// and files. A line that is not valid UTF-8 is an error naming its column.
public final class PlainLineReader: LineReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Where the next line starts in `buffer`.
    private var start = 0
    /// How far `buffer` is known to hold no line break after `start`: a long
    /// line is searched once, not again from its start after each chunk (a
    /// 4 MiB line took 6.5 s, a 50 MiB one over 10 minutes).
    private var searched = 0
    private var atEnd = false
    /// Whether no line was read yet: the first may start with a byte-order
    /// mark, which editors on Windows write, and which is dropped as `.import`
    /// drops it (it was an "unexpected character" no one could see).
    private var isFirstLine = true

    /// Reads `fileDescriptor` (standard input by default), which stays open.
    public init(fileDescriptor: Int32 = STDIN_FILENO) {
        descriptor = fileDescriptor
    }

    public func readLine(prompt: String) throws(InvalidUTF8Line) -> String? {
        while true {
            if let newline = buffer[max(start, searched)...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[start..<newline]
                start = newline + 1
                searched = start
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                return try decode(line)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                return try decode(line)
            }
            searched = buffer.count
            fill()
        }
    }

    private func decode(_ line: ArraySlice<UInt8>) throws(InvalidUTF8Line) -> String {
        defer { isFirstLine = false }
        if isFirstLine, line.starts(with: [0xEF, 0xBB, 0xBF]) { return try InvalidUTF8Line.decode(line.dropFirst(3)) }
        return try InvalidUTF8Line.decode(line)
    }

    /// Reads the next chunk; end of input (or a read error) ends the lines.
    private func fill() {
        if start > 0 {
            buffer.removeFirst(start)
            searched -= start
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                atEnd = true
            } else {
                buffer.append(contentsOf: chunk[..<count])
            }
            return
        }
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
