import Foundation
import OrderedCollections

/// `JSONValue` is Codable so that untyped collections are `DocumentCollection<JSONValue>`
/// and any coder can carry one; the store itself parses and writes it directly.
extension JSONValue: Codable {
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: MemberKey.self) {
            var members = OrderedDictionary<String, JSONValue>()
            for key in object.allKeys {
                members[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let b = try? single.decode(Bool.self) { self = .bool(b) }
        else if let i = try? single.decode(Int64.self) { self = .integer(i) }
        else if let u = try? single.decode(UInt64.self), let number = JSONNumberLiteral(String(u)) { self = .exactNumber(number) }
        else if let d = try? single.decode(Double.self) { self = .double(d) }
        else { self = .string(try single.decode(String.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let b):
            var single = encoder.singleValueContainer()
            try single.encode(b)
        case .integer(let i):
            var single = encoder.singleValueContainer()
            try single.encode(i)
        case .double(let d):
            var single = encoder.singleValueContainer()
            try single.encode(d)
        case .exactNumber(let number):
            // Coders have no raw number: the closest type that keeps the digits.
            var single = encoder.singleValueContainer()
            if let unsigned = UInt64(number.text) {
                try single.encode(unsigned)
            } else if let decimal = Decimal(string: number.text), ExactDecimal(decimal.description.utf8) == ExactDecimal(number.text.utf8) {
                try single.encode(decimal)
            } else {
                try single.encode(number.doubleValue)
            }
        case .string(let s):
            var single = encoder.singleValueContainer()
            try single.encode(s)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .object(let members):
            var object = encoder.container(keyedBy: MemberKey.self)
            for (key, value) in members { try object.encode(value, forKey: MemberKey(stringValue: key)) }
        }
    }
}
