/// What another backend (`DocStorePostgres`) needs of the core besides SQL:
/// the codec, the DSL's conditions and DocStore's errors, so that a model, a
/// query closure and an error read the same on every backend.
@_spi(Backends)
public enum BackendSupport {
    /// A model's JSON text, with errors naming the collection and key.
    public static func encode<Model: Encodable>(_ model: Model, collection: String, key: DocumentKey?) throws -> [UInt8] {
        try ModelCoding.encode(model, collection: collection, key: key)
    }

    /// A model from JSON text, with errors naming the collection and key.
    public static func decode<Model: Decodable>(_ type: Model.Type, from json: [UInt8], collection: String, key: DocumentKey) throws -> Model {
        try json.withUnsafeBytes { try ModelCoding.decode(type, from: $0, collection: collection, key: key) }
    }

    /// A JSON value from JSON text, with errors naming the collection and key.
    public static func parse(_ json: [UInt8], collection: String, key: DocumentKey?) throws -> JSONValue {
        do {
            return try DocumentCodec.parse(json)
        } catch {
            throw DocStoreError.corruptDocument(collection: collection, key: key ?? .string(""), reason: error.description)
        }
    }

    /// The key a document's `id` member gives, for a collection of `kind` (nil
    /// when it has none or another kind).
    public static func key(of document: JSONValue, kind: KeyKind?) -> DocumentKey? {
        guard let id = document.value(at: FieldPath("id")) else { return nil }
        return DocumentKey(json: id, kind: kind)
    }

    /// The conditions of a filter block, ANDed, or the error that one of them
    /// stands for (a value that can't be JSON…).
    public static func condition(_ conditions: [DocumentCondition], collection: String) throws -> Condition {
        switch DocumentCondition.all(conditions).result {
        case .success(let condition): return condition
        case .failure(let invalid): throw invalid.error(collection: collection)
        }
    }

    /// The conjunction of two AST conditions.
    public static func and(_ lhs: Condition, _ rhs: Condition) -> Condition {
        DocumentCondition.conjunction([lhs, rhs])
    }

    /// The path of the first string or member name holding NUL in a document
    /// (which PostgreSQL's jsonb can't store), nil when there is none. Only
    /// parses the document when its text holds an escaped NUL at all.
    public static func pathOfNUL(in json: [UInt8]) throws -> FieldPath? {
        guard containsEscapedNUL(json) else { return nil }
        return firstNUL(in: try DocumentCodec.parse(json), at: .root)
    }

    private static func containsEscapedNUL(_ json: [UInt8]) -> Bool {
        let pattern = Array("u0000".utf8)
        guard json.count > pattern.count else { return false }
        for start in 1...(json.count - pattern.count) where json[start - 1] == UInt8(ascii: "\\") {
            if json[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
        }
        return false
    }

    private static func firstNUL(in value: JSONValue, at path: FieldPath) -> FieldPath? {
        switch value {
        case .string(let s):
            return s.utf8.contains(0) ? path : nil
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = firstNUL(in: element, at: path.appending(FieldPath([.index(index)]))) { return found }
            }
            return nil
        case .object(let members):
            for (name, member) in members {
                let memberPath = path.appending(FieldPath([.key(name)]))
                if name.utf8.contains(0) { return memberPath }
                if let found = firstNUL(in: member, at: memberPath) { return found }
            }
            return nil
        default:
            return nil
        }
    }
}

extension BackendSupport {
    /// A value decoded from a JSON value (an aggregate's result), with errors
    /// naming the collection.
    public static func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue, collection: String) throws -> Value {
        do {
            return try DocumentCodec.decode(type, from: value)
        } catch {
            throw DocStoreError.decodingFailed(collection: collection, key: nil, codingPath: error.codingPath, reason: error.reason)
        }
    }
}
