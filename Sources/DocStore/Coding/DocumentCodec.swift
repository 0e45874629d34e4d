import Foundation

// Placeholder codec over Foundation's coders; replaced by the fast codec.
struct JSONWriteOptions: OptionSet, Sendable {
    let rawValue: Int
    static let sortedKeys = JSONWriteOptions(rawValue: 1)
    static let pretty = JSONWriteOptions(rawValue: 2)
}

struct DocumentCodingError: Error, CustomStringConvertible {
    enum Kind: Sendable { case invalidJSON(line: Int, column: Int), typeMismatch, valueNotFound, keyNotFound, invalidValue, unsupportedValue }
    var kind: Kind
    var codingPath: String
    var reason: String
    var description: String { codingPath.isEmpty ? reason : "at \(codingPath): \(reason)" }
}

enum DocumentCodec {
    static func encode<T: Encodable>(_ value: T) throws(DocumentCodingError) -> [UInt8] {
        do { return Array(try JSONEncoder().encode(value)) } catch {
            throw DocumentCodingError(kind: .unsupportedValue, codingPath: "", reason: "\(error)")
        }
    }
    static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws(DocumentCodingError) -> T {
        do { return try JSONDecoder().decode(T.self, from: Data(bytes)) } catch let error as DecodingError {
            throw DocumentCodingError(kind: .typeMismatch, codingPath: "", reason: "\(error)")
        } catch {
            throw DocumentCodingError(kind: .typeMismatch, codingPath: "", reason: "\(error)")
        }
    }
    static func encodeValue<T: Encodable>(_ value: T) throws(DocumentCodingError) -> JSONValue {
        let bytes = try encode(value)
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        defer { copy.deallocate() }
        copy.copyBytes(from: bytes)
        return try parse(UnsafeRawBufferPointer(copy))
    }
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(DocumentCodingError) -> T {
        let bytes = serialize(value)
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        defer { copy.deallocate() }
        copy.copyBytes(from: bytes)
        return try decode(T.self, from: UnsafeRawBufferPointer(copy))
    }
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(DocumentCodingError) -> JSONValue {
        do { return convert(try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) } catch {
            throw DocumentCodingError(kind: .invalidJSON(line: 1, column: 1), codingPath: "", reason: "\(error)")
        }
    }
    private static func convert(_ any: Any) -> JSONValue {
        switch any {
        case let s as String: return .string(s)
        case let n as NSNumber:
            if String(describing: type(of: n)).contains("Bool") { return .bool(n.boolValue) }
            if let i = Int64(exactly: n.doubleValue), !"\(n)".contains(".") { return .integer(i) }
            return .double(n.doubleValue)
        case let a as [Any]: return .array(a.map(convert))
        case let d as [String: Any]: return .object(.init(uniqueKeysWithValues: d.map { ($0.key, convert($0.value)) }))
        default: return .null
        }
    }
    static func serialize(_ value: JSONValue, options: JSONWriteOptions = []) -> [UInt8] {
        var out = ""
        write(value, into: &out, sorted: options.contains(.sortedKeys))
        return Array(out.utf8)
    }
    private static func write(_ v: JSONValue, into out: inout String, sorted: Bool) {
        switch v {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .double(let d): out += "\(d)"
        case .string(let s): out += quote(s)
        case .array(let a):
            out += "["
            for (i, e) in a.enumerated() { if i > 0 { out += "," }; write(e, into: &out, sorted: sorted) }
            out += "]"
        case .object(let o):
            out += "{"
            let keys = sorted ? o.keys.sorted() : Array(o.keys)
            for (i, k) in keys.enumerated() {
                if i > 0 { out += "," }
                out += quote(k) + ":"
                write(o[k] ?? .null, into: &out, sorted: sorted)
            }
            out += "}"
        }
    }
    private static func quote(_ s: String) -> String {
        var r = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": r += "\\\""
            case "\\": r += "\\\\"
            case "\n": r += "\\n"
            case "\r": r += "\\r"
            case "\t": r += "\\t"
            default:
                if u.value < 0x20 { r += String(format: "\\u%04x", u.value) } else { r.unicodeScalars.append(u) }
            }
        }
        return r + "\""
    }
}
