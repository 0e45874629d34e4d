/// An RFC 4180 CSV parser fed chunk by chunk: quoted fields may hold commas,
/// quotes (`""`) and line breaks; records end at LF or CRLF. It works on bytes
/// and leaves decoding to the caller, which reports invalid UTF-8 by line.
///
/// Written here rather than taken from a CSV package because imports need what
/// those don't give together: streaming input, the line each record starts on
/// (for "bad line N" errors) and bytes, so an encoding problem is an error
/// naming its line rather than a silently replaced character.
///
/// A record's fields live in one reused buffer (no allocation per field or per
/// record): an import reads every file twice, and this is most of the first read.
struct CSVParser {
    /// A record's fields (raw bytes) and the line it starts on. Valid only
    /// while the `emit` call that receives it runs.
    struct Record {
        var line: Int
        fileprivate var bytes: [UInt8]
        /// Where each field ends in `bytes`.
        fileprivate var ends: [Int]

        var count: Int { ends.count }

        /// Calls `body` with field `index`'s bytes.
        func withField<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
            let start = index == 0 ? 0 : ends[index - 1]
            return try bytes.withUnsafeBufferPointer { all in
                try body(UnsafeBufferPointer(rebasing: all[start..<ends[index]]))
            }
        }

        /// Calls `body` with each field's index and bytes, in order (one
        /// pointer access for the whole record).
        func forEachField(_ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
            try bytes.withUnsafeBufferPointer { all in
                var start = 0
                for (index, end) in ends.enumerated() {
                    try body(index, UnsafeBufferPointer(rebasing: all[start..<end]))
                    start = end
                }
            }
        }

        /// The fields as arrays (for tests and small files).
        var fields: [[UInt8]] { (0..<count).map { withField($0) { Array($0) } } }
    }

    struct Failure: Error {
        var line: Int
        var reason: String
    }

    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted, afterQuote }
    private var state = State.fieldStart
    private var record = Record(line: 1, bytes: [], ends: [])
    private var line = 1
    private var quoteLine = 1

    /// The bytes of the record read so far and not yet emitted.
    var pendingRecordBytes: Int { record.bytes.count }
    /// The line the record read so far starts on.
    var pendingRecordLine: Int { record.line }

    private static let comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n"),
                       quote = UInt8(ascii: "\""), carriageReturn = UInt8(ascii: "\r")

    /// Parses a chunk; calls `emit` for every complete record.
    mutating func consume(_ bytes: some Sequence<UInt8>, emit: (Record) throws -> Void) throws {
        let handled: Void? = try bytes.withContiguousStorageIfAvailable { try consume(buffer: $0, emit: emit) }
        if handled == nil {
            let copied = Array(bytes)
            try copied.withUnsafeBufferPointer { try consume(buffer: $0, emit: emit) }
        }
    }

    /// Parses a chunk held in contiguous memory.
    mutating func consume(buffer: UnsafeBufferPointer<UInt8>, emit: (Record) throws -> Void) throws {
        var index = 0
        let count = buffer.count
        while index < count {
            let byte = buffer[index]
            switch state {
            case .fieldStart, .unquoted:
                switch byte {
                case Self.quote where state == .fieldStart:
                    state = .quoted
                    quoteLine = line
                case Self.comma:
                    endField()
                case Self.newline:
                    if record.bytes.last == Self.carriageReturn, record.bytes.count > (record.ends.last ?? 0) {
                        record.bytes.removeLast()
                    }
                    try endRecord(emit)
                    line += 1
                default:
                    // The rest of an unquoted field in one go: up to the next separator.
                    var end = index + 1
                    while end < count, buffer[end] != Self.comma, buffer[end] != Self.newline, buffer[end] != Self.quote { end += 1 }
                    record.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index..<end]))
                    state = .unquoted
                    index = end
                    continue
                }
            case .quoted:
                if byte == Self.quote {
                    state = .quoteInQuoted
                } else {
                    if byte == Self.newline { line += 1 }
                    record.bytes.append(byte)
                }
            case .quoteInQuoted:
                if byte == Self.quote {
                    record.bytes.append(byte)
                    state = .quoted
                } else {
                    state = .afterQuote
                    try afterQuote(byte, emit)
                }
            case .afterQuote:
                try afterQuote(byte, emit)
            }
            index += 1
        }
    }

    private mutating func afterQuote(_ byte: UInt8, _ emit: (Record) throws -> Void) throws {
        switch byte {
        case Self.comma: endField()
        case Self.carriageReturn: break
        case Self.newline:
            try endRecord(emit)
            line += 1
        default:
            throw Failure(line: line, reason: "unexpected character after a closing quote (a quote inside a quoted field is written \"\")")
        }
    }

    /// Ends the input: emits the last record (a file needn't end with a newline).
    mutating func finish(emit: (Record) throws -> Void) throws {
        if state == .quoted {
            throw Failure(line: quoteLine, reason: "unterminated quoted field (the file ends inside it)")
        }
        if state == .unquoted || state == .quoteInQuoted || state == .afterQuote || !record.ends.isEmpty {
            if state == .unquoted, record.bytes.last == Self.carriageReturn { record.bytes.removeLast() }
            try endRecord(emit)
        }
    }

    private mutating func endField() {
        record.ends.append(record.bytes.count)
        state = .fieldStart
    }

    private mutating func endRecord(_ emit: (Record) throws -> Void) throws {
        endField()
        // A blank line is no record.
        if !(record.ends.count == 1 && record.bytes.isEmpty) { try emit(record) }
        record.bytes.removeAll(keepingCapacity: true)
        record.ends.removeAll(keepingCapacity: true)
        record.line = line + 1
    }
}
