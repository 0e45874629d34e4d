/// Splits a JSON file holding an array into its elements' text, chunk by chunk,
/// so that importing a `.json` array streams: only one element is held at a
/// time, and each is parsed on its own (by jansson, which parses a whole value
/// at once). A file holding one object gives that object as its only element.
///
/// It checks only the array's own syntax (brackets, commas, strings, so that a
/// `]` or `,` inside a string or a nested value ends nothing); each element's
/// syntax is left to its parser, whose locations ``fileLocation(_:of:)`` turns
/// into the file's.
struct JSONArraySplitter {
    /// An element's bytes and where it starts in the file.
    struct Element {
        var bytes: [UInt8]
        /// 1 for the first element.
        var number: Int
        var start: SourceLocation
        /// The file's one object rather than an element of an array.
        var isWholeFile: Bool
    }

    struct Failure: Error {
        var location: SourceLocation
        var reason: String
    }

    /// What the file holds at its top level.
    enum Shape { case array, object }

    private enum Phase { case beforeValue, beforeElement, inElement, afterElement, afterValue }
    private var phase = Phase.beforeValue
    private(set) var shape: Shape?
    private var element: [UInt8] = []
    private var elementStart = SourceLocation(line: 1, column: 1)
    /// The `{` and `[` open inside the current element.
    private var open: [UInt8] = []
    private var inString = false
    private var escaped = false
    private var afterComma = false
    private var count = 0
    private var line = 1
    private var column = 0
    private var arrayStart = SourceLocation(line: 1, column: 1)

    /// The bytes of the element read so far and not yet emitted.
    var pendingElementBytes: Int { element.count }
    /// Where that element starts.
    var pendingElementStart: SourceLocation { elementStart }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// Splits a chunk; calls `emit` for every complete element.
    mutating func consume(_ buffer: UnsafeBufferPointer<UInt8>, emit: (Element) throws -> Void) throws {
        for byte in buffer {
            // Columns count characters, as jansson's do: continuation bytes don't.
            if byte == 0x0A {
                line += 1
                column = 0
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            switch phase {
            case .beforeValue:
                if Self.isBlank(byte) { continue }
                switch byte {
                case UInt8(ascii: "["):
                    shape = .array
                    arrayStart = here
                    phase = .beforeElement
                case UInt8(ascii: "{"):
                    shape = .object
                    start(byte)
                default:
                    throw Failure(location: here, reason: "the file holds \(Self.kind(startingWith: byte)), not an array of objects")
                }
            case .beforeElement:
                if Self.isBlank(byte) { continue }
                switch byte {
                case UInt8(ascii: "]") where !afterComma:
                    phase = .afterValue
                case UInt8(ascii: "]"), UInt8(ascii: ","):
                    throw Failure(location: here, reason: "expected a value\(afterComma ? " after ','" : ""), found '\(Character(UnicodeScalar(byte)))'")
                default:
                    start(byte)
                }
            case .inElement:
                try continueElement(byte, emit)
            case .afterElement:
                if Self.isBlank(byte) { continue }
                switch byte {
                case UInt8(ascii: ","):
                    afterComma = true
                    phase = .beforeElement
                case UInt8(ascii: "]"):
                    phase = .afterValue
                default:
                    throw Failure(location: here, reason: "expected ',' or ']' after element \(count), found \(Self.shown(byte))")
                }
            case .afterValue:
                if !Self.isBlank(byte) {
                    throw Failure(location: here, reason: "unexpected \(Self.shown(byte)) after the end of the \(shape == .object ? "object" : "array")")
                }
            }
        }
    }

    /// Ends the input: the top-level value must be complete.
    mutating func finish(emit: (Element) throws -> Void) throws {
        if phase == .inElement, shape == .array, open.isEmpty, !inString {
            // A scalar element ends at the end of the input; the array does not.
            try end(emit)
        }
        switch phase {
        case .afterValue:
            return
        case .beforeValue:
            throw Failure(location: here, reason: "the file is empty (a .json file holds an array of objects, or one object)")
        default:
            let what = shape == .object ? "the object" : "the array opened at \(arrayStart)"
            throw Failure(location: here, reason: "the file ends inside \(what): is it cut short?")
        }
    }

    private var here: SourceLocation { SourceLocation(line: line, column: max(column, 1)) }

    private mutating func start(_ byte: UInt8) {
        element.removeAll(keepingCapacity: true)
        elementStart = here
        phase = .inElement
        afterComma = false
        inString = false
        escaped = false
        open.removeAll(keepingCapacity: true)
        element.append(byte)
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): open.append(byte)
        default: break
        }
    }

    private mutating func continueElement(_ byte: UInt8, _ emit: (Element) throws -> Void) throws {
        if inString {
            element.append(byte)
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                if open.isEmpty { try end(emit) }
            }
            return
        }
        if open.isEmpty {
            // A scalar element (a number, true, false, null) ends at a separator.
            switch byte {
            case UInt8(ascii: ","):
                try end(emit)
                afterComma = true
                phase = .beforeElement
                return
            case UInt8(ascii: "]"):
                try end(emit)
                phase = .afterValue
                return
            case _ where Self.isBlank(byte):
                try end(emit)
                return
            default:
                element.append(byte)
                return
            }
        }
        element.append(byte)
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            open.append(byte)
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            // A mismatched bracket ends the element: its parser says where.
            let opener = open.removeLast()
            if open.isEmpty || (opener == UInt8(ascii: "{")) != (byte == UInt8(ascii: "}")) { try end(emit) }
        default:
            break
        }
    }

    private mutating func end(_ emit: (Element) throws -> Void) throws {
        count += 1
        phase = shape == .object ? .afterValue : .afterElement
        try emit(Element(bytes: element, number: count, start: elementStart, isWholeFile: shape == .object))
        element.removeAll(keepingCapacity: true)
    }

    /// Where a location inside an element (from its parser) is in the file.
    static func fileLocation(_ inner: SourceLocation, of element: Element) -> SourceLocation {
        inner.line <= 1
            ? SourceLocation(line: element.start.line, column: element.start.column + max(0, inner.column - 1))
            : SourceLocation(line: element.start.line + inner.line - 1, column: inner.column)
    }

    private static func kind(startingWith byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): "a number"
        // Only the first byte is known here: `not json` starts as null does.
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean or text that is not JSON (starting with \(shown(byte)))"
        case UInt8(ascii: "n"): "null or text that is not JSON (starting with \(shown(byte)))"
        default: "text that is not JSON (starting with \(shown(byte)))"
        }
    }

    private static func shown(_ byte: UInt8) -> String {
        byte < 0x80 && byte >= 0x20 ? "'\(Character(UnicodeScalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
