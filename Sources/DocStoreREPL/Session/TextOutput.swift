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
}

extension TextOutput {
    public var terminalWidth: Int? { nil }
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

    public func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(fileDescriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return  // A closed pipe: nothing more can be shown.
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// Output collected in memory.
public final class StringOutput: TextOutput {
    public private(set) var text = ""
    public let isTerminal: Bool
    /// A terminal width to pretend, for tests of narrowed tables.
    public var terminalWidth: Int?

    public init(isTerminal: Bool = false) {
        self.isTerminal = isTerminal
    }

    public func write(_ text: String) {
        self.text += text
    }
}
