import DocStore
import Foundation

/// The JSON type every cell of a CSV column becomes: inferred from the whole
/// column, or forced with `.import … --types name=type`.
public enum CSVColumnType: String, Hashable, Sendable, CaseIterable {
    /// Text, as written (`--types zip=string`).
    case string
    /// JSON integers (`--types HR=int`).
    case integer
    /// JSON numbers, integral or not, all stored as reals (`--types avg=real`).
    case number
    /// `true` or `false` (`--types active=bool`); only ever forced.
    case bool

    /// The names `--types` accepts for each type.
    static let spellings: [String: CSVColumnType] = [
        "string": .string, "text": .string, "str": .string,
        "int": .integer, "integer": .integer,
        "real": .number, "number": .number, "double": .number, "float": .number,
        "bool": .bool, "boolean": .bool,
    ]

    /// How `--types` spells the type in messages.
    var spelled: String {
        switch self {
        case .string: "string"
        case .integer: "int"
        case .number: "real"
        case .bool: "bool"
        }
    }

    /// Parses `playerID=string,HR=int`: column names (any text but `=` and `,`)
    /// and types. Throws a message naming the part that is wrong.
    static func parse(_ spec: String) throws(CommandError) -> [String: CSVColumnType] {
        var types: [String: CSVColumnType] = [:]
        for part in spec.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pieces.count == 2, !pieces[0].isEmpty else {
                throw CommandError("--types takes COLUMN=TYPE pairs separated by commas (such as playerID=string,HR=int), found \(DocumentKeyQuoting.quoted(String(part)))")
            }
            let name = String(pieces[0]), typeName = pieces[1].lowercased()
            guard let type = spellings[typeName] else {
                throw CommandError("unknown type \(DocumentKeyQuoting.quoted(String(pieces[1]))) for column \(DocumentKeyQuoting.quoted(name)) in --types: use string, int, real or bool")
            }
            guard types.updateValue(type, forKey: name) == nil else {
                throw CommandError("--types names the column \(DocumentKeyQuoting.quoted(name)) twice")
            }
        }
        return types
    }

    /// The value of a non-empty cell in a column of this type, or nil when the
    /// cell doesn't fit the type. A string column keeps the text as written.
    ///
    /// The outer nil: the bytes are not valid UTF-8 (only a string can be).
    func value(of bytes: UnsafeBufferPointer<UInt8>) -> JSONValue?? {
        switch self {
        case .string:
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            return .some(.string(text))
        case .integer:
            // Forced, leading zeros and a `+` are fine: the user said it is a number.
            guard let value = Self.integer(bytes) else { return .some(nil) }
            return .some(.integer(value))
        case .number:
            // Only decimal spellings: Double("0x1p3") and Double("nan") are not CSV numbers.
            guard bytes.allSatisfy({ (48...57).contains($0) || [43, 45, 46, 69, 101].contains($0) }),
                  let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return .some(nil) }
            return .some(.double(value))
        case .bool:
            switch String(decoding: bytes, as: UTF8.self).lowercased() {
            case "true": return .some(.bool(true))
            case "false": return .some(.bool(false))
            default: return .some(nil)
            }
        }
    }

    /// The integer `bytes` spell (`-12`, `+7`, `007`), or nil, without making a
    /// `String` of them: this runs for most cells of most files.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            index = 1
        }
        guard index < bytes.count else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            // Accumulated negatively, so that Int64.min fits.
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(Int64(digit))
            if overflow1 || overflow2 { return nil }
            value = next
            index += 1
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    /// What a forced type expects, for a bad cell's message.
    var expectation: String {
        switch self {
        case .string: "text"
        case .integer: "an integer"
        case .number: "a number"
        case .bool: "true or false"
        }
    }
}

/// Learns a column's type from every cell of it, one cell at a time: integers
/// while every non-empty cell is a JSON integer that fits in 64 bits, numbers
/// while every cell is a JSON number, strings as soon as one cell is neither.
/// JSON's grammar keeps `007` (a code, a zip) text, and with it the column.
struct CSVColumnInference {
    private(set) var type = CSVColumnType.integer

    mutating func see(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard type != .string, !bytes.isEmpty else { return }
        switch CSVValue.numberShape(bytes) {
        case .integer?:
            // An integer past 64 bits would change as a real: it stays text.
            // (18 digits always fit; only longer ones need the check.)
            if bytes.count > 18, CSVColumnType.integer(bytes) == nil { type = .string }
        case .real?:
            // So does a real beyond a Double's range: as a number it would be refused.
            type = CSVValue.overflowsDouble(bytes) ? .string : .number
        case nil:
            type = .string
        }
    }
}
