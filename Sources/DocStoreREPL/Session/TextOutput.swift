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
    /// Why a write failed other than by the reader going away (a full disk, a
    /// closed descriptor), or nil: what was written is then incomplete.
    var writeFailure: String? { get }
}

extension TextOutput {
    public var writeFailure: String? { nil }
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
    /// The first write that failed other than by a closed pipe (`| head` is
    /// done reading, which ends a result quietly).
    public private(set) var writeFailure: String?

    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        isTerminal = isatty(fileDescriptor) == 1
    }

    /// The standard output and error, after ``protectStandardDescriptors()``:
    /// one the process was started without fails every write.
    public static func standardStreams() -> (output: FileDescriptorOutput, errors: FileDescriptorOutput) {
        let closed = protectStandardDescriptors()
        let output = FileDescriptorOutput(fileDescriptor: STDOUT_FILENO)
        let errors = FileDescriptorOutput(fileDescriptor: STDERR_FILENO)
        if closed.contains(STDOUT_FILENO) { output.isClosed = true }
        if closed.contains(STDERR_FILENO) { errors.isClosed = true }
        return (output, errors)
    }

    /// Opens `/dev/null` on each of descriptors 0–2 the process was started
    /// without (`docstore … >&-`), and returns those. Left free, the next file
    /// opened takes the number: results or messages meant for the closed
    /// stream went into it (an `.export`'s file, a store's log), or, where
    /// SQLite filled the gap with `/dev/null` itself, vanished with exit code 0.
    static func protectStandardDescriptors() -> Set<Int32> {
        var closed: Set<Int32> = []
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != descriptor { dup2(opened, descriptor); close(opened) }
            closed.insert(descriptor)
        }
        return closed
    }

    /// Set for a standard stream the process was started without.
    private var isClosed = false

    private var streamName: String {
        switch fileDescriptor {
        case STDOUT_FILENO: "the standard output"
        case STDERR_FILENO: "the standard error"
        default: "file descriptor \(fileDescriptor)"
        }
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
        if isClosed {
            if writeFailure == nil { writeFailure = "\(streamName) was closed when docstore started (>&-), so nothing written to it can be read" }
            return false
        }
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(fileDescriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno != EPIPE, writeFailure == nil {
                    writeFailure = "writing to \(streamName) failed: \(String(cString: strerror(errno))); what it holds is incomplete"
                }
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
