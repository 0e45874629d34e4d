/// An RFC 4180 CSV parser fed chunk by chunk: quoted fields may hold commas,
/// quotes (`""`) and line breaks; records end at LF or CRLF. It works on bytes
/// and leaves decoding to the caller, which reports invalid UTF-8 by line.
///
/// Written here rather than taken from a CSV package because imports need what
/// those don't give together: streaming input, the line each record starts on
/// (for "bad line N" errors) and bytes, so an encoding problem is an error
/// naming its line rather than a silently replaced character.
struct CSVParser {
    /// A record's fields (raw bytes) and the line it starts on.
    struct Record {
        var fields: [[UInt8]]
        var line: Int
    }

    struct Failure: Error {
        var line: Int
        var reason: String
    }

    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted, afterQuote }
    private var state = State.fieldStart
    private var field: [UInt8] = []
    private var fields: [[UInt8]] = []
    private var line = 1
    private var recordLine = 1
    private var quoteLine = 1

    /// Parses a chunk; calls `emit` for every complete record.
    mutating func consume(_ bytes: some Sequence<UInt8>, emit: (Record) throws -> Void) throws {
        for byte in bytes {
            switch state {
            case .fieldStart, .unquoted:
                switch byte {
                case UInt8(ascii: "\"") where state == .fieldStart:
                    state = .quoted
                    quoteLine = line
                case UInt8(ascii: ","):
                    endField()
                case UInt8(ascii: "\n"):
                    if field.last == UInt8(ascii: "\r") { field.removeLast() }
                    try endRecord(emit)
                    line += 1
                default:
                    field.append(byte)
                    state = .unquoted
                }
            case .quoted:
                if byte == UInt8(ascii: "\"") {
                    state = .quoteInQuoted
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
            case .quoteInQuoted:
                if byte == UInt8(ascii: "\"") {
                    field.append(byte)
                    state = .quoted
                } else {
                    state = .afterQuote
                    try afterQuote(byte, emit)
                }
            case .afterQuote:
                try afterQuote(byte, emit)
            }
        }
    }

    private mutating func afterQuote(_ byte: UInt8, _ emit: (Record) throws -> Void) throws {
        switch byte {
        case UInt8(ascii: ","): endField()
        case UInt8(ascii: "\r"): break
        case UInt8(ascii: "\n"):
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
        if state == .unquoted || state == .quoteInQuoted || state == .afterQuote || !fields.isEmpty {
            if field.last == UInt8(ascii: "\r") { field.removeLast() }
            try endRecord(emit)
        }
    }

    private mutating func endField() {
        fields.append(field)
        field.removeAll(keepingCapacity: true)
        state = .fieldStart
    }

    private mutating func endRecord(_ emit: (Record) throws -> Void) throws {
        endField()
        let record = Record(fields: fields, line: recordLine)
        fields.removeAll(keepingCapacity: true)
        recordLine = line + 1
        // A blank line is no record.
        if !(record.fields.count == 1 && record.fields[0].isEmpty) { try emit(record) }
    }
}
