import Foundation

/// Turns the Swift values written in queries into the JSON values the AST holds,
/// exactly as the document codec stores them: an enum with raw values becomes its
/// raw value, a `Date` or a `UUID` its stored form.
enum QueryValue {
    /// The JSON form of `value`, or why it has none.
    static func encode<Value: Encodable>(_ value: Value, for path: FieldPath) -> Result<JSONValue, InvalidQuery> {
        switch value {
        case let json as JSONValue: return .success(json)
        case let string as String: return .success(.string(string))
        case let int as Int: return .success(.integer(Int64(int)))
        case let bool as Bool: return .success(.bool(bool))
        default: break
        }
        do {
            return .success(try DocumentCodec.encodeValue(value))
        } catch {
            return .failure(InvalidQuery(reason: "cannot use \(value) in a query: \(error)", field: path))
        }
    }

    /// The JSON form of a value that a comparison needs to be a scalar.
    static func scalar<Value: Encodable>(_ value: Value, for path: FieldPath) -> Result<JSONValue, InvalidQuery> {
        encode(value, for: path).flatMap { json in
            switch json {
            case .array, .object:
                .failure(InvalidQuery(reason: "compared with \(json.typeName) \(value); compare its members instead", field: path))
            default:
                .success(json)
            }
        }
    }

    /// A condition from a value's JSON form, or an invalid condition.
    static func condition<Value: Encodable>(
        scalar value: Value, at path: FieldPath, _ make: (JSONValue) -> Condition
    ) -> DocumentCondition {
        switch scalar(value, for: path) {
        case .success(let json): DocumentCondition(make(json))
        case .failure(let failure): DocumentCondition(invalid: failure)
        }
    }
}
