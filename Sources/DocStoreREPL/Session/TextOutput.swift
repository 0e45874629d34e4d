import Foundation

/// Where the REPL writes: a file descriptor (stdout, stderr), or a string for tests.
public protocol TextOutput: AnyObject {
    /// Writes `text` as is (add "\n" yourself).
    func write(_ text: String)
    /// Whether this is a terminal: colour, progress bars and prompts only then.
    var isTerminal: Bool { get }
    /// How many columns the terminal has, when this is one whose size is known:
    /// tables are narrowed to fit it.
    var terminalWidth: Int? { get }
    /// How many lines the terminal has, when this is one whose size is known:
    /// long tables show their first and last rows to fit it.
    var terminalHeight: Int? { get }
    /// Writes UTF-8 bytes as they are; returns false when the reader went away
    /// (a closed pipe), so that a long result stops being read.
    func write(bytes: UnsafeRawBufferPointer) -> Bool
}

extension TextOutput {
    public var terminalWidth: Int? { nil }
    public var terminalHeight: Int? { nil }

    public func write(bytes: UnsafeRawBufferPointer) -> Bool {
        write(String(decoding: bytes, as: UTF8.self))
        return true
    }
}

/// Output to a file descriptor, unbuffered so that prompts, results and errors
/// interleave in the order they happen.
public final class FileDescriptorOutput: TextOutput {
    public let fileDescriptor: Int32
    public let isTerminal: Bool

    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        isTerminal = isatty(fileDescriptor) == 1
    }

    /// Asked at each call, so a resized window is followed.
    public var terminalWidth: Int? {
        guard isTerminal else { return nil }
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    public var terminalHeight: Int? {
        guard isTerminal else { return nil }
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }

    public func write(_ text: String) {
        var text = text
        // A closed pipe: nothing more can be shown.
        _ = text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    public func write(bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(fileDescriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}

/// Output collected in memory.
public final class StringOutput: TextOutput {
    public private(set) var text = ""
    public let isTerminal: Bool
    /// A terminal width to pretend, for tests of narrowed tables.
    public var terminalWidth: Int?
    /// A terminal height to pretend, for tests of long results.
    public var terminalHeight: Int?

    public init(isTerminal: Bool = false) {
        self.isTerminal = isTerminal
    }

    public func write(_ text: String) {
        self.text += text
    }
}
