/// The result of parsing JSON text: one flat array of entries, one per value and
/// per object key, in document order (a "tape").
///
/// Decoding reads the tape instead of a tree of values: no allocation per value,
/// keyed look-ups compare raw key bytes in place, and a container's entry records
/// where it ends so a whole subtree is skipped in one step. Strings and numbers
/// keep pointing into the input text; they are only converted when a model asks
/// for them, with the type it asks for (so a `UInt64` or `Decimal` is read exactly
/// from the number's digits).
struct TapeEntry {
    enum Kind: UInt8 {
        case null, `true`, `false`, integer, real, string, array, object
    }

    var kind: Kind
    /// For strings: whether the text contains backslash escapes.
    var hasEscapes: Bool
    /// Objects: whether two members have the same name (`{"a": 1, "a": 2}`, which
    /// only another tool writes). Decoding then reads the first of them, as
    /// SQLite's JSON functions do, so a query and a read see the same member.
    /// (Declared beside the other flag: the entry stays 16 bytes.)
    var hasDuplicateKeys = false
    /// Byte offset in the input: first byte of a number, first byte after a
    /// string's opening quote, the `[` / `{` of a container.
    var start: UInt32
    /// Strings and numbers: byte offset just past the text (a string's closing
    /// quote). Containers: the tape index just past the container's last entry.
    var end: UInt32
    /// Containers: the number of elements, or of members for objects.
    var count: UInt32

    var isContainer: Bool { kind == .array || kind == .object }
}

/// A parsed document: the tape plus the input bytes it points into.
///
/// The input must stay valid while the tape is used; the codec only uses a tape
/// inside the call that received the bytes.
struct JSONTape {
    let input: UnsafeBufferPointer<UInt8>
    /// The entries; the last one is an extra `null` that stands for "no value"
    /// (e.g. a `superDecoder` for a missing key), so every index is a value.
    let entries: [TapeEntry]
    /// Whether a member name is written with escapes it doesn't need (see
    /// `JSONParser`): set by the parser.
    var hasNeedlesslyEscapedNames = false

    var absentIndex: Int { entries.count - 1 }

    /// Whether some object of the document has two members with the same name.
    var hasDuplicateKeys: Bool { entries.contains { $0.hasDuplicateKeys } }

    /// Whether two key entries name the same member (escapes resolved).
    func sameKey(_ a: TapeEntry, _ b: TapeEntry) -> Bool {
        if !a.hasEscapes && !b.hasEscapes {
            return string(a, equals: text(of: b))
        }
        let unescaped = b.hasEscapes ? JSONTape.unescape(text(of: b)) : Array(text(of: b))
        return unescaped.withUnsafeBufferPointer { string(a, equals: $0) }
    }

    /// The index just past the value at `index` (and its subtree).
    func next(after index: Int) -> Int {
        let entry = entries[index]
        return entry.isContainer ? Int(entry.end) : index + 1
    }

    /// The raw text of a string (without quotes, escapes untouched) or a number.
    func text(of entry: TapeEntry) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: input[Int(entry.start)..<Int(entry.end)])
    }

    /// The value of a string entry, escapes resolved.
    func string(_ entry: TapeEntry) -> String {
        let raw = text(of: entry)
        if !entry.hasEscapes {
            return String(decoding: raw, as: UTF8.self)
        }
        return String(decoding: JSONTape.unescape(raw), as: UTF8.self)
    }

    /// Whether a string entry equals `key`, comparing bytes in place when the
    /// text has no escapes (the common case for object keys).
    func string(_ entry: TapeEntry, equals key: UnsafeBufferPointer<UInt8>) -> Bool {
        if entry.hasEscapes {
            return JSONTape.unescape(text(of: entry)).elementsEqual(key)
        }
        let count = Int(entry.end &- entry.start)
        guard count == key.count else { return false }
        guard count > 0, let base = input.baseAddress, let keyBase = key.baseAddress else { return true }
        return memcmpBytes(base + Int(entry.start), keyBase, count)
    }

    /// Resolves escapes; the parser has already validated them, so malformed
    /// sequences cannot occur here (they are skipped defensively, not trusted).
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == JSONWriter.backslash, index + 1 < raw.count else {
                out.append(byte)
                index += 1
                continue
            }
            let escaped = raw[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(raw, at: index) else { continue }
                index += 4
                if scalar >= 0xD800, scalar < 0xDC00, index + 6 <= raw.count,
                   raw[index] == JSONWriter.backslash, let low = hex4(raw, at: index + 2),
                   low >= 0xDC00, low < 0xE000 {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                if let unicode = Unicode.Scalar(scalar) {
                    UTF8.encode(unicode) { out.append($0) }
                }
            default: out.append(escaped)  // \" \\ \/
            }
        }
        return out
    }

    /// The value of four hex digits at `index`, or nil.
    static func hex4(_ raw: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32? {
        guard index + 4 <= raw.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = raw[index + offset]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }
}

private func memcmpBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    var index = 0
    // Object keys are short; a plain loop beats a call into libc here.
    while index < count {
        if a[index] != b[index] { return false }
        index += 1
    }
    return true
}
