import CJanssonBench

/// The raw C peer's codec: JSON text written by hand into a reused byte buffer, and
/// read back with libjansson into a plain struct with every field.
enum HandJSON {
    /// Appends the document's JSON text to `out`.
    static func encode(_ p: Player, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        appendInteger(p.id, to: &out)
        out.append(contentsOf: #","firstName":"#.utf8)
        appendString(p.firstName, to: &out)
        out.append(contentsOf: #","lastName":"#.utf8)
        appendString(p.lastName, to: &out)
        out.append(contentsOf: #","number":"#.utf8)
        appendInteger(p.number, to: &out)
        out.append(contentsOf: #","teamId":"#.utf8)
        appendInteger(p.teamId, to: &out)
        out.append(contentsOf: #","position":"#.utf8)
        appendString(p.position, to: &out)
        out.append(contentsOf: #","battingAverage":"#.utf8)
        out.append(contentsOf: p.battingAverage.description.utf8)  // shortest round-trip text
        if let nickname = p.nickname {
            out.append(contentsOf: #","nickname":"#.utf8)
            appendString(nickname, to: &out)
        }
        out.append(contentsOf: #","tags":["#.utf8)
        for (index, tag) in p.tags.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendString(tag, to: &out)
        }
        out.append(contentsOf: "]}".utf8)
    }

    @inline(__always)
    static func appendInteger(_ value: Int, to out: inout [UInt8]) {
        if value == 0 { out.append(UInt8(ascii: "0")); return }
        var magnitude = value.magnitude
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            out.append(contentsOf: buffer[(24 - count)...])
        }
    }

    @inline(__always)
    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var clean = true
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                clean = false
                break
            }
            if clean {
                out.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: #"\u00"#.utf8)
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0xF)])
                default: out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The player parsed from JSON text by libjansson.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws -> Player {
        guard let base = bytes.baseAddress,
              let root = json_loadb(base.assumingMemoryBound(to: CChar.self), bytes.count, 0, nil) else {
            throw BenchmarkError("libjansson: invalid JSON")
        }
        defer { json_decref(root) }
        guard root.pointee.type == JSON_OBJECT else { throw BenchmarkError("libjansson: not an object") }
        var tags: [String] = []
        if let array = member(root, "tags"), array.pointee.type == JSON_ARRAY {
            let count = json_array_size(array)
            tags.reserveCapacity(count)
            for index in 0..<count {
                tags.append(try string(json_array_get(array, index), "tags"))
            }
        } else {
            throw BenchmarkError("libjansson: tags")
        }
        return Player(
            id: try integer(member(root, "id"), "id"),
            firstName: try string(member(root, "firstName"), "firstName"),
            lastName: try string(member(root, "lastName"), "lastName"),
            number: try integer(member(root, "number"), "number"),
            teamId: try integer(member(root, "teamId"), "teamId"),
            position: try string(member(root, "position"), "position"),
            battingAverage: try number(member(root, "battingAverage"), "battingAverage"),
            nickname: try optionalString(member(root, "nickname"), "nickname"),
            tags: tags)
    }

    @inline(__always)
    private static func member(_ object: UnsafeMutablePointer<json_t>, _ key: StaticString) -> UnsafeMutablePointer<json_t>? {
        json_object_get(object, UnsafeRawPointer(key.utf8Start).assumingMemoryBound(to: CChar.self))
    }

    @inline(__always)
    private static func integer(_ value: UnsafeMutablePointer<json_t>?, _ field: String) throws -> Int {
        guard let value, value.pointee.type == JSON_INTEGER else { throw BenchmarkError("libjansson: \(field)") }
        return Int(json_integer_value(value))
    }

    @inline(__always)
    private static func number(_ value: UnsafeMutablePointer<json_t>?, _ field: String) throws -> Double {
        guard let value, value.pointee.type == JSON_REAL || value.pointee.type == JSON_INTEGER else {
            throw BenchmarkError("libjansson: \(field)")
        }
        return json_number_value(value)
    }

    @inline(__always)
    private static func string(_ value: UnsafeMutablePointer<json_t>?, _ field: String) throws -> String {
        guard let value, let text = json_string_value(value) else { throw BenchmarkError("libjansson: \(field)") }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: json_string_length(value)), as: UTF8.self)
    }

    @inline(__always)
    private static func optionalString(_ value: UnsafeMutablePointer<json_t>?, _ field: String) throws -> String? {
        guard let value, value.pointee.type != JSON_NULL else { return nil }
        return try string(value, field)
    }
}
