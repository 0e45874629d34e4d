/// A strict (RFC 8259) single-pass JSON parser that produces a `JSONTape`.
///
/// It validates everything while scanning — structure, number grammar, escapes,
/// UTF-8 and surrogate pairs — so later stages can trust the tape. It is
/// iterative (an explicit stack of open containers, no recursion), so hostile
/// nesting cannot overflow the call stack; `maximumDepth` bounds what the
/// recursive consumers (decoding, `JSONValue` building) will see.
struct JSONParser {
    /// Deeper documents are rejected with an error rather than risking the stack
    /// of the recursive consumers (decoding, `JSONValue` building).
    static let maximumDepth = DocumentStore.maximumNestingDepth

    /// Where and why parsing failed; converted to line/column by `DocumentCodec`.
    struct SyntaxError: Error {
        var offset: Int
        var reason: String
    }

    private let input: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var entries: [TapeEntry] = []
    /// Tape indices of the open containers, innermost last.
    private var open: [Int] = []
    /// For each nesting level, a 64-bit Bloom filter of the member names seen so
    /// far in the object open at that level: names are compared (to find
    /// duplicates) only when a new name's bit is already set, which keeps
    /// ordinary objects on the fast path. Indexed by level and never shrunk, so
    /// closing a container costs nothing.
    private var memberNameFilters: [UInt64] = []
    /// The member names of each open object past ``namesSetThreshold`` members
    /// whose filter has a hit, by the object's tape index: a full 64-bit filter
    /// compared every new name with every earlier one, so a document with 10 000
    /// members took 12 s to read.
    private var largeObjectNames: [Int: Set<[UInt8]>] = [:]
    private static let namesSetThreshold = 32
    /// Set when a container was just opened: its first member comes next.
    private var justOpened = false
    /// Whether the last string parsed was plain ASCII (no escape, no byte past
    /// 0x7F): only other names can be canonically equivalent to one another.
    private var lastStringIsPlain = true
    /// Tape indices of the open objects with a name that isn't plain ASCII,
    /// innermost last: when one closes, its names are compared as Swift
    /// compares strings too (see ``markCanonicalRepeats(inObjectAt:)``).
    private var objectsWithUnicodeNames: [Int] = []
    /// Whether some member name is written with escapes it doesn't need
    /// (`"caf\u00e9"`, `"\u0061"`): SQLite's JSON paths compare names as
    /// written, so queries don't see such a member while reads do.
    private var hasNeedlesslyEscapedName = false

    init(_ input: UnsafeBufferPointer<UInt8>) {
        self.input = input
    }

    static func parse(_ input: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> JSONTape {
        guard input.count < Int(UInt32.max) else {
            throw SyntaxError(offset: 0, reason: "documents larger than 4 GiB are not supported")
        }
        var parser = JSONParser(input)
        try parser.run()
        var tape = JSONTape(input: input, entries: parser.entries)
        tape.hasNeedlesslyEscapedNames = parser.hasNeedlesslyEscapedName
        return tape
    }

    private mutating func run() throws(SyntaxError) {
        // A compact document needs roughly one entry per 6 bytes; reserving avoids
        // regrowing the tape for typical documents.
        entries.reserveCapacity(input.count / 6 + 4)
        try parseValue()
        while !open.isEmpty {
            try afterValue()
        }
        skipWhitespace()
        if position < input.count {
            throw SyntaxError(offset: position, reason: "unexpected \(describe(position)) after the JSON value")
        }
        entries.append(TapeEntry(kind: .null, hasEscapes: false, start: UInt32(input.count), end: 0, count: 0))
    }

    // MARK: Structure

    /// Parses one value; for a container, only its opening (and, if it is
    /// empty, its closing) — members are driven by `afterValue`.
    private mutating func parseValue() throws(SyntaxError) {
        skipWhitespace()
        guard position < input.count else {
            throw SyntaxError(offset: position, reason: "unexpected end of input, expected a value")
        }
        let byte = input[position]
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard open.count < JSONParser.maximumDepth else {
                throw SyntaxError(offset: position, reason: "nesting deeper than \(JSONParser.maximumDepth) levels")
            }
            let isObject = byte == UInt8(ascii: "{")
            open.append(entries.count)
            if open.count <= memberNameFilters.count {
                memberNameFilters[open.count - 1] = 0
            } else {
                memberNameFilters.append(0)
            }
            entries.append(TapeEntry(kind: isObject ? .object : .array, hasEscapes: false,
                                     start: UInt32(position), end: 0, count: 0))
            position += 1
            // The first member (or the end) is read by `afterValue`, so nesting
            // never recurses.
            justOpened = true
        case JSONWriter.quote:
            try parseString()
        case UInt8(ascii: "t"):
            try parseLiteral("true", .true)
        case UInt8(ascii: "f"):
            try parseLiteral("false", .false)
        case UInt8(ascii: "n"):
            try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try parseNumber()
        default:
            throw SyntaxError(offset: position, reason: "unexpected \(describe(position)), expected a value")
        }
    }

    /// After a complete value inside the innermost open container: a comma and
    /// the next member, or the container's end.
    private mutating func afterValue() throws(SyntaxError) {
        guard let containerIndex = open.last else { return }
        let isObject = entries[containerIndex].kind == .object
        skipWhitespace()
        if justOpened {
            justOpened = false
            if position < input.count, input[position] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                position += 1
                closeContainer()
            } else if isObject {
                try parseMemberKey()
            } else {
                try beginElement()
            }
            return
        }
        guard position < input.count else {
            throw SyntaxError(offset: position, reason: "unexpected end of input, expected ',' or '\(isObject ? "}" : "]")'")
        }
        switch input[position] {
        case UInt8(ascii: ","):
            position += 1
            if isObject {
                skipWhitespace()
                try parseMemberKey()
            } else {
                try beginElement()
            }
        case UInt8(ascii: "}") where isObject, UInt8(ascii: "]") where !isObject:
            position += 1
            closeContainer()
        default:
            throw SyntaxError(offset: position,
                              reason: "unexpected \(describe(position)), expected ',' or '\(isObject ? "}" : "]")'")
        }
    }

    private mutating func beginElement() throws(SyntaxError) {
        if let containerIndex = open.last { entries[containerIndex].count += 1 }
        try parseValue()
    }

    /// `"key" :` then the member's value.
    private mutating func parseMemberKey() throws(SyntaxError) {
        guard position < input.count, input[position] == JSONWriter.quote else {
            throw SyntaxError(offset: position,
                              reason: position < input.count ? "unexpected \(describe(position)), expected a string key"
                                                             : "unexpected end of input, expected a string key")
        }
        if let containerIndex = open.last { entries[containerIndex].count += 1 }
        try parseString()
        noteMemberName()
        if !lastStringIsPlain, let objectIndex = open.last, objectsWithUnicodeNames.last != objectIndex {
            objectsWithUnicodeNames.append(objectIndex)
        }
        if !hasNeedlesslyEscapedName, let name = entries.last, name.hasEscapes {
            // Escapes are needed only for quotes, backslashes and control characters.
            let unescaped = JSONTape.unescape(UnsafeBufferPointer(rebasing: input[Int(name.start)..<Int(name.end)]))
            hasNeedlesslyEscapedName = !unescaped.contains { $0 < 0x20 || $0 == JSONWriter.quote || $0 == JSONWriter.backslash }
        }
        skipWhitespace()
        guard position < input.count, input[position] == UInt8(ascii: ":") else {
            throw SyntaxError(offset: position,
                              reason: position < input.count ? "unexpected \(describe(position)), expected ':'"
                                                             : "unexpected end of input, expected ':'")
        }
        position += 1
        try parseValue()
    }

    private mutating func closeContainer() {
        guard let containerIndex = open.popLast() else { return }
        entries[containerIndex].end = UInt32(entries.count)
        if !largeObjectNames.isEmpty { largeObjectNames.removeValue(forKey: containerIndex) }
        if objectsWithUnicodeNames.last == containerIndex {
            objectsWithUnicodeNames.removeLast()
            markCanonicalRepeats(inObjectAt: containerIndex)
        }
    }

    /// Marks the object when two of its names differ in bytes but are equal as
    /// Swift strings (canonically equivalent: a composed "é" and "e" with a
    /// combining accent). SQLite and PostgreSQL keep both members, but a
    /// ``JSONValue`` object, keyed by `String`, holds one: such a document is
    /// refused on write, and read as duplicates are, the first of them counting.
    private mutating func markCanonicalRepeats(inObjectAt objectIndex: Int) {
        guard !entries[objectIndex].hasDuplicateKeys else { return }
        let tape = JSONTape(input: input, entries: entries)
        var names = Set<String>()
        var index = objectIndex + 1
        while index < Int(entries[objectIndex].end) {
            // Byte-equal names were marked already: any repeat here is canonical.
            if !names.insert(tape.string(entries[index])).inserted {
                entries[objectIndex].hasDuplicateKeys = true
                return
            }
            index = tape.next(after: index + 1)
        }
    }

    /// Records the member name just parsed (the last entry) in its object's
    /// filter; on a possible repeat, compares it with the object's earlier names
    /// and marks the object when one is the same.
    @inline(__always)
    private mutating func noteMemberName() {
        let level = open.count - 1
        guard level >= 0, level < memberNameFilters.count else { return }
        let nameIndex = entries.count - 1
        let name = entries[nameIndex]
        let bit: UInt64
        if name.hasEscapes {
            // A name written with escapes may equal one written without: its raw
            // bytes say nothing, so it fills the filter and every name is compared.
            bit = ~0
        } else {
            let length = Int(name.end &- name.start)
            var hash = UInt64(truncatingIfNeeded: length) &* 0x9E37_79B9_7F4A_7C15
            if length > 0 {
                hash ^= (UInt64(input[Int(name.start)]) | UInt64(input[Int(name.end) - 1]) << 8) &* 0xC2B2_AE3D_27D4_EB4F
            }
            bit = 1 << (hash >> 58)
        }
        let objectIndex = open[level]
        // (Empty for ordinary documents: no lookup on the hot path.)
        if !largeObjectNames.isEmpty, largeObjectNames[objectIndex] != nil {
            noteInSet(nameIndex, inObjectAt: objectIndex)
            return
        }
        let filter = memberNameFilters[level]
        memberNameFilters[level] = filter | bit
        guard filter & bit != 0 else { return }
        guard entries[objectIndex].count > Self.namesSetThreshold else {
            markIfRepeated(nameIndex, inObjectAt: objectIndex)
            return
        }
        // A large object: its earlier names into a set, then every name through it.
        var names = Set<[UInt8]>()
        let tape = JSONTape(input: input, entries: entries)
        var index = objectIndex + 1
        while index < nameIndex {
            names.insert(nameBytes(index))
            index = tape.next(after: index + 1)
        }
        largeObjectNames[objectIndex] = names
        noteInSet(nameIndex, inObjectAt: objectIndex)
    }

    /// The name at `nameIndex`, escapes resolved.
    private func nameBytes(_ nameIndex: Int) -> [UInt8] {
        let entry = entries[nameIndex]
        let raw = UnsafeBufferPointer(rebasing: input[Int(entry.start)..<Int(entry.end)])
        return entry.hasEscapes ? JSONTape.unescape(raw) : Array(raw)
    }

    /// Adds a large object's name to its set, marking the object on a repeat.
    private mutating func noteInSet(_ nameIndex: Int, inObjectAt objectIndex: Int) {
        if largeObjectNames[objectIndex, default: []].insert(nameBytes(nameIndex)).inserted == false {
            entries[objectIndex].hasDuplicateKeys = true
        }
    }

    /// Marks the object when an earlier member has the name at `nameIndex`.
    private mutating func markIfRepeated(_ nameIndex: Int, inObjectAt objectIndex: Int) {
        if !entries[objectIndex].hasDuplicateKeys, isRepeatedName(at: nameIndex, inObjectAt: objectIndex) {
            entries[objectIndex].hasDuplicateKeys = true
        }
    }

    /// Whether an earlier member of the object has the name at `nameIndex`.
    private func isRepeatedName(at nameIndex: Int, inObjectAt objectIndex: Int) -> Bool {
        let tape = JSONTape(input: input, entries: entries)
        var index = objectIndex + 1
        while index < nameIndex {
            if tape.sameKey(entries[index], entries[nameIndex]) { return true }
            // Earlier members are complete: their containers' ends are set.
            index = tape.next(after: index + 1)
        }
        return false
    }

    private mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func parseLiteral(_ word: StaticString, _ kind: TapeEntry.Kind) throws(SyntaxError) {
        let start = position
        let count = word.utf8CodeUnitCount
        let matches = start + count <= input.count && word.withUTF8Buffer { expected in
            var index = 0
            while index < count, input[start + index] == expected[index] { index += 1 }
            return index == count
        }
        guard matches else {
            throw SyntaxError(offset: start, reason: "unexpected \(describe(start)), expected a value")
        }
        position += count
        entries.append(TapeEntry(kind: kind, hasEscapes: false, start: UInt32(start), end: UInt32(position), count: 0))
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(SyntaxError) {
        let start = position
        var isInteger = true
        if input[position] == UInt8(ascii: "-") { position += 1 }
        guard position < input.count, isDigit(input[position]) else {
            throw SyntaxError(offset: position, reason: "expected a digit after '-'")
        }
        if input[position] == UInt8(ascii: "0") {
            position += 1
            if position < input.count, isDigit(input[position]) {
                throw SyntaxError(offset: start, reason: "numbers cannot have leading zeros")
            }
        } else {
            skipDigits()
        }
        if position < input.count, input[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < input.count, isDigit(input[position]) else {
                throw SyntaxError(offset: position, reason: "expected a digit after the decimal point")
            }
            skipDigits()
        }
        var hasExponent = false
        if position < input.count, input[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            hasExponent = true
            position += 1
            if position < input.count, input[position] == UInt8(ascii: "+") || input[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < input.count, isDigit(input[position]) else {
                throw SyntaxError(offset: position, reason: "expected a digit in the exponent")
            }
            skipDigits()
        }
        // Only an exponent or a very long integer can exceed Double's range;
        // checking just those keeps ordinary numbers on the fast path.
        if hasExponent || position - start > 300 {
            let text = UnsafeBufferPointer(rebasing: input[start..<position])
            guard JSONNumberText.double(text) != nil else {
                throw SyntaxError(offset: start, reason: "number \(String(decoding: text, as: UTF8.self)) is too large for a Double")
            }
        }
        entries.append(TapeEntry(kind: isInteger ? .integer : .real, hasEscapes: false,
                                 start: UInt32(start), end: UInt32(position), count: 0))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    private mutating func skipDigits() {
        while position < input.count, isDigit(input[position]) { position += 1 }
    }

    // MARK: Strings

    /// Scans a string starting at its opening quote, validating escapes and UTF-8.
    private mutating func parseString() throws(SyntaxError) {
        let openingQuote = position
        position += 1
        let start = position
        var hasEscapes = false
        var hasUnicode = false
        while true {
            // Fast path: plain ASCII.
            while position < input.count {
                let byte = input[position]
                guard byte >= 0x20, byte < 0x80, byte != JSONWriter.quote, byte != JSONWriter.backslash else { break }
                position += 1
            }
            guard position < input.count else {
                throw SyntaxError(offset: openingQuote, reason: "unterminated string")
            }
            let byte = input[position]
            if byte == JSONWriter.quote { break }
            if byte == JSONWriter.backslash {
                hasEscapes = true
                try scanEscape()
            } else if byte < 0x20 {
                throw SyntaxError(offset: position, reason: "control character U+00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true)) must be escaped in a string")
            } else {
                hasUnicode = true
                try scanUTF8Sequence()
            }
        }
        lastStringIsPlain = !hasEscapes && !hasUnicode
        entries.append(TapeEntry(kind: .string, hasEscapes: hasEscapes,
                                 start: UInt32(start), end: UInt32(position), count: 0))
        position += 1
    }

    private mutating func scanEscape() throws(SyntaxError) {
        let escapeStart = position
        position += 1
        guard position < input.count else {
            throw SyntaxError(offset: escapeStart, reason: "unterminated escape sequence")
        }
        switch input[position] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 1
        case UInt8(ascii: "u"):
            guard let unit = JSONTape.hex4(input, at: position + 1) else {
                throw SyntaxError(offset: escapeStart, reason: "invalid \\u escape: expected four hex digits")
            }
            position += 5
            if unit >= 0xDC00, unit < 0xE000 {
                throw SyntaxError(offset: escapeStart, reason: "lone low surrogate \\u\(String(unit, radix: 16, uppercase: true))")
            }
            if unit >= 0xD800, unit < 0xDC00 {
                guard position + 1 < input.count, input[position] == JSONWriter.backslash,
                      input[position + 1] == UInt8(ascii: "u"),
                      let low = JSONTape.hex4(input, at: position + 2), low >= 0xDC00, low < 0xE000 else {
                    throw SyntaxError(offset: escapeStart, reason: "lone high surrogate \\u\(String(unit, radix: 16, uppercase: true))")
                }
                position += 6
            }
        default:
            throw SyntaxError(offset: escapeStart, reason: "invalid escape sequence \\\(describeRaw(position))")
        }
    }

    /// Validates one multi-byte UTF-8 sequence (Unicode Table 3-7: no overlong
    /// forms, no encoded surrogates, nothing above U+10FFFF).
    private mutating func scanUTF8Sequence() throws(SyntaxError) {
        let lead = input[position]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw SyntaxError(offset: position, reason: "invalid UTF-8 byte 0x\(String(lead, radix: 16, uppercase: true))")
        }
        guard position + length <= input.count else {
            throw SyntaxError(offset: position, reason: "truncated UTF-8 sequence")
        }
        let second = input[position + 1]
        var valid = second >= low && second <= high
        var index = 2
        while valid, index < length {
            valid = input[position + index] & 0xC0 == 0x80
            index += 1
        }
        guard valid else {
            throw SyntaxError(offset: position, reason: "invalid UTF-8 sequence")
        }
        position += length
    }

    // MARK: Messages

    /// "'x'", "end of input", or "byte 0xFF" for the character at `offset`.
    private func describe(_ offset: Int) -> String {
        guard offset < input.count else { return "end of input" }
        return "character \(describeRaw(offset))"
    }

    private func describeRaw(_ offset: Int) -> String {
        guard offset < input.count else { return "end of input" }
        let byte = input[offset]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "0x\(String(byte, radix: 16, uppercase: true))"
    }
}
