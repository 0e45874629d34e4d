/// Where formatted bytes go: the terminal or a pipe (a ``TextOutput``), or a
/// file being written (``AtomicFileWriter``).
protocol ByteSink: AnyObject {
    /// Writes all of `bytes`, or throws (a reader that went away, a full disk).
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// The reader of the output went away (`| head` finished): the query stops
/// instead of reading on for nobody.
struct OutputClosed: Error, CustomStringConvertible {
    var description: String { "the output was closed" }
}

/// A ``ByteSink`` over a ``TextOutput``.
final class TextOutputSink: ByteSink {
    let output: TextOutput

    init(_ output: TextOutput) {
        self.output = output
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard output.write(bytes: bytes) else { throw OutputClosed() }
    }
}

/// Bytes collected and handed to a ``ByteSink`` 64 KiB at a time: a million
/// rows make a few hundred writes, and memory stays at one buffer.
struct OutputBuffer {
    private(set) var bytes: [UInt8] = []
    let sink: ByteSink
    private static let flushSize = 1 << 16

    init(sink: ByteSink) {
        self.sink = sink
        bytes.reserveCapacity(Self.flushSize + 4096)
    }

    mutating func append(_ text: String) throws {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
        try flushIfFull()
    }

    mutating func append(_ raw: UnsafeRawBufferPointer) throws {
        bytes.append(contentsOf: raw)
        try flushIfFull()
    }

    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends a string's UTF-8 without checking whether to flush (parts of a line).
    mutating func appendPart(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append(spaces count: Int) {
        for _ in 0..<max(0, count) { bytes.append(0x20) }
    }

    /// Writes what is buffered once there is enough of it.
    mutating func flushIfFull() throws {
        if bytes.count >= Self.flushSize { try flush() }
    }

    /// Writes everything buffered.
    mutating func flush() throws {
        guard !bytes.isEmpty else { return }
        try bytes.withUnsafeBytes { try sink.write($0) }
        bytes.removeAll(keepingCapacity: true)
    }
}
