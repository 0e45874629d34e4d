import Foundation

/// An RFC 4180 CSV parser fed chunk by chunk: quoted fields may hold commas,
/// quotes (`""`) and line breaks; records end at LF or CRLF. It works on bytes
/// and leaves decoding to the caller, which reports invalid UTF-8 by line.
///
/// Written here rather than taken from a CSV package because imports need what
/// those don't give together: streaming input, the line each record starts on
/// (for "bad line N" errors) and bytes, so an encoding problem is an error
/// naming its line rather than a silently replaced character.
///
/// Most records lie whole inside one chunk and quote nothing: their fields are
/// handed out where they lie in the chunk, copying nothing. A record that
/// quotes a field or spans two chunks is copied into one reused buffer, from the
/// point it stopped being such a record. An import reads every file twice, and
/// copying fields was most of the first read.
struct CSVParser {
    /// A record's fields (raw bytes) and the line it starts on. A view into the
    /// chunk or the parser's buffer: valid only while the `emit` call that
    /// receives it runs.
    struct Record {
        var line: Int
        fileprivate var base: UnsafeBufferPointer<UInt8>
        /// Where each field lies in `base`.
        fileprivate var ranges: UnsafeBufferPointer<Range<Int>>

        var count: Int { ranges.count }

        /// Calls `body` with field `index`'s bytes.
        func withField<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
            try body(UnsafeBufferPointer(rebasing: base[ranges[index]]))
        }

        /// Calls `body` with each field's index and bytes, in order.
        func forEachField(_ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
            for (index, range) in ranges.enumerated() {
                try body(index, UnsafeBufferPointer(rebasing: base[range]))
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
    /// The record being read when it is copied (see the type's comment).
    private var copied: [UInt8] = []
    /// Its fields' places: in `copied`, or in the chunk from `directStart`.
    private var ranges: [Range<Int>] = []
    /// Where the current field starts (in `copied`, or in the chunk).
    private var fieldStart = 0
    private var recordLine = 1
    private var line = 1
    private var quoteLine = 1
    /// Which field of its record (from 1) that quote opened.
    private var quoteField = 1
    /// Whether the last chunk ended with an unquoted carriage return, which
    /// the next chunk's first byte must make a CRLF.
    private var carriageReturnAtChunkEnd = false
    /// Whether a carriage return followed a closing quote: a line feed must come next.
    private var carriageReturnAfterQuote = false

    /// The bytes of the record read so far and not yet emitted.
    var pendingRecordBytes: Int { copied.count }
    /// The line the record read so far starts on.
    var pendingRecordLine: Int { recordLine }

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
        if carriageReturnAtChunkEnd, let first = buffer.first {
            carriageReturnAtChunkEnd = false
            if first != Self.newline { throw bareCarriageReturn() }
        }
        // Where the current record starts in this chunk while it is read in
        // place; nil once it is being copied (it began in an earlier chunk, or
        // quotes a field).
        var directStart: Int? = state == .fieldStart && ranges.isEmpty && copied.isEmpty ? 0 : nil
        let count = buffer.count
        while index < count {
            if let start = directStart {
                // The fast path: unquoted fields, read where they lie.
                let byte = buffer[index]
                switch byte {
                case Self.comma:
                    ranges.append(fieldStart..<(index - start))
                    fieldStart = index + 1 - start
                    state = .fieldStart
                case Self.newline:
                    try checkCarriageReturns(buffer, start..<index, lineEndsAt: index)
                    var end = index - start
                    if end > fieldStart, buffer[index - 1] == Self.carriageReturn { end -= 1 }
                    ranges.append(fieldStart..<end)
                    try emitRecord(UnsafeBufferPointer(rebasing: buffer[start...]), emit)
                    line += 1
                    directStart = index + 1
                case Self.quote where state == .fieldStart:
                    // A quoted field: the record so far is copied, and the rest too.
                    try checkCarriageReturns(buffer, start..<index, lineEndsAt: nil)
                    copied.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<index]))
                    directStart = nil
                    state = .quoted
                    quoteLine = line
                    quoteField = ranges.count + 1
                default:
                    // The rest of an unquoted field in one go: up to the next separator.
                    state = .unquoted
                    index += 1
                    while index < count, buffer[index] != Self.comma, buffer[index] != Self.newline, buffer[index] != Self.quote { index += 1 }
                    continue
                }
                index += 1
                continue
            }
            let byte = buffer[index]
            switch state {
            case .fieldStart, .unquoted:
                switch byte {
                case Self.quote where state == .fieldStart:
                    state = .quoted
                    quoteLine = line
                    quoteField = ranges.count + 1
                case Self.comma:
                    endCopiedField()
                case Self.newline:
                    if copied.last == Self.carriageReturn, copied.count > fieldStart {
                        copied.removeLast()
                    }
                    endCopiedField()
                    try copied.withUnsafeBufferPointer { try emitRecord($0, emit) }
                    line += 1
                    // The next record starts here, in this chunk: read it in place.
                    directStart = index + 1
                default:
                    // The rest of an unquoted field in one go: up to the next separator.
                    var end = index + 1
                    while end < count, buffer[end] != Self.comma, buffer[end] != Self.newline, buffer[end] != Self.quote { end += 1 }
                    try checkCarriageReturns(buffer, index..<end, lineEndsAt: end < count && buffer[end] == Self.newline ? end : nil)
                    copied.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index..<end]))
                    state = .unquoted
                    index = end
                    continue
                }
            case .quoted:
                if byte == Self.quote {
                    state = .quoteInQuoted
                } else {
                    if byte == Self.newline { line += 1 }
                    copied.append(byte)
                }
            case .quoteInQuoted:
                if byte == Self.quote {
                    copied.append(byte)
                    state = .quoted
                } else {
                    state = .afterQuote
                    if try afterQuote(byte, emit) { directStart = index + 1 }
                }
            case .afterQuote:
                if try afterQuote(byte, emit) { directStart = index + 1 }
            }
            index += 1
        }
        // A record the chunk ends inside is copied, to go on in the next chunk.
        if let start = directStart, start < count || !ranges.isEmpty {
            try checkCarriageReturns(buffer, start..<count, lineEndsAt: nil)
            copied.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<count]))
        }
    }

    /// Refuses a carriage return among unquoted bytes `range` of `buffer`
    /// unless it ends a line as CRLF: the line feed at `lineEndsAt`, or the
    /// next chunk's first byte when it is the chunk's last. Records end at LF
    /// or CRLF, so lines ending in CR alone (old Mac files) were read as one
    /// record, and the file imported as no documents without a word.
    private mutating func checkCarriageReturns(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, lineEndsAt: Int?) throws {
        guard !range.isEmpty, let base = buffer.baseAddress,
              let found = memchr(base + range.lowerBound, Int32(Self.carriageReturn), range.count) else { return }
        let position = range.lowerBound + (UnsafeRawPointer(found) - UnsafeRawPointer(base + range.lowerBound))
        guard position == range.upperBound - 1 else { throw bareCarriageReturn() }
        if let lineEndsAt, lineEndsAt == range.upperBound { return }
        if range.upperBound == buffer.count { carriageReturnAtChunkEnd = true; return }
        throw bareCarriageReturn()
    }

    private func bareCarriageReturn() -> Failure {
        Failure(line: line, reason: "a carriage return (\\r) that doesn't end the line with a line feed: records end at LF or CRLF, and a field holding a line break must be quoted; a file whose lines end in CR alone (as old Mac programs write) can be converted with tr '\\r' '\\n' < FILE > NEW.csv")
    }

    /// After a closing quote; true when the byte ended the record.
    private mutating func afterQuote(_ byte: UInt8, _ emit: (Record) throws -> Void) throws -> Bool {
        if carriageReturnAfterQuote {
            carriageReturnAfterQuote = false
            if byte != Self.newline { throw bareCarriageReturn() }
        }
        switch byte {
        case Self.comma:
            endCopiedField()
        case Self.carriageReturn:
            carriageReturnAfterQuote = true
        case Self.newline:
            endCopiedField()
            try copied.withUnsafeBufferPointer { try emitRecord($0, emit) }
            line += 1
            return true
        default:
            throw Failure(line: line, reason: "field \(ranges.count + 1): unexpected character after a closing quote (a quote inside a quoted field is written \"\")")
        }
        return false
    }

    /// Ends the input: emits the last record (a file needn't end with a newline).
    mutating func finish(emit: (Record) throws -> Void) throws {
        if state == .quoted {
            throw Failure(line: quoteLine, reason: "field \(quoteField): unterminated quoted field (the file ends inside it)")
        }
        if state != .fieldStart || !ranges.isEmpty || !copied.isEmpty {
            if state == .unquoted, copied.last == Self.carriageReturn, copied.count > fieldStart { copied.removeLast() }
            endCopiedField()
            try copied.withUnsafeBufferPointer { try emitRecord($0, emit) }
        }
    }

    private mutating func endCopiedField() {
        ranges.append(fieldStart..<copied.count)
        // A copied record's fields lie one after the other, without separators.
        fieldStart = copied.count
        state = .fieldStart
    }

    /// Emits the record whose fields `ranges` places in `base`, and starts the next.
    private mutating func emitRecord(_ base: UnsafeBufferPointer<UInt8>, _ emit: (Record) throws -> Void) throws {
        // A blank line is no record.
        if !(ranges.count == 1 && ranges[0].isEmpty) {
            try ranges.withUnsafeBufferPointer { ranges in
                try emit(Record(line: recordLine, base: base, ranges: ranges))
            }
        }
        copied.removeAll(keepingCapacity: true)
        ranges.removeAll(keepingCapacity: true)
        fieldStart = 0
        state = .fieldStart
        recordLine = line + 1
    }
}
