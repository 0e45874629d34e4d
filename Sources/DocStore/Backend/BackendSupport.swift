import Foundation

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

    /// A model from JSON text in memory someone else owns (a row's bytes),
    /// with errors naming the collection and key.
    public static func decode<Model: Decodable>(_ type: Model.Type, from json: UnsafeRawBufferPointer, collection: String,
                                                key: DocumentKey) throws -> Model {
        try ModelCoding.decode(type, from: json, collection: collection, key: key)
    }

    /// A JSON value from JSON text, with errors naming the collection and key.
    public static func parse(_ json: [UInt8], collection: String, key: DocumentKey?) throws -> JSONValue {
        try json.withUnsafeBytes { try parse($0, collection: collection, key: key) }
    }

    /// The same from JSON text where it lies (a row's bytes): no copy.
    public static func parse(_ json: UnsafeRawBufferPointer, collection: String, key: DocumentKey?) throws -> JSONValue {
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
        try json.withUnsafeBytes { try pathOfNUL(in: $0) }
    }

    /// ``pathOfNUL(in:)`` of JSON text in memory.
    public static func pathOfNUL(in json: UnsafeRawBufferPointer) throws -> FieldPath? {
        guard containsEscapedNUL(json) else { return nil }
        return firstNUL(in: try DocumentCodec.parse(json), at: .root)
    }

    /// An encoder kept across the models of one batch: encoding many models
    /// with it allocates no encoder or buffer per model.
    public final class ReusableEncoder<Model: Encodable> {
        let encoder = StreamEncoder()
        let encoding = DocumentEncoding<Model>()

        public init() {}
    }

    /// Encodes a model with `encoder` and passes its JSON text to `body`, valid
    /// only during the call; errors name the collection and key.
    public static func withEncoded<Model: Encodable, R>(_ model: Model, reusing encoder: ReusableEncoder<Model>, collection: String,
                                                        key: DocumentKey?, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try ModelCoding.withEncoded(model, encoder: encoder.encoder, encoding: encoder.encoding, collection: collection, key: key, body)
    }

    /// Whether the text holds the escape `\u0000`, found by jumping from one
    /// backslash to the next (`memchr`): every document written to PostgreSQL
    /// is checked, and most have few backslashes or none.
    private static func containsEscapedNUL(_ json: UnsafeRawBufferPointer) -> Bool {
        json.withMemoryRebound(to: UInt8.self) { buffer in
            guard let start = buffer.baseAddress else { return false }
            let end = start + buffer.count
            var next = start
            while next < end, let found = memchr(next, Int32(UInt8(ascii: "\\")), end - next) {
                let escape = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
                if end - escape >= 6, escape[1] == UInt8(ascii: "u"), escape[2] == UInt8(ascii: "0"), escape[3] == UInt8(ascii: "0"),
                   escape[4] == UInt8(ascii: "0"), escape[5] == UInt8(ascii: "0") {
                    return true
                }
                next = escape + 2  // past the escaped character (`\\` included)
            }
            return false
        }
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

extension BackendSupport {
    /// The error for an overflow another backend reported while running a
    /// pipeline (``PostgresCompiler/overflow(inMessage:)``), as SQLite's reads.
    public static func pipelineOverflow(_ pipeline: QueryPipeline, collection: String, sum: Bool) -> DocStoreError {
        sum ? .groupSumOverflow(pipeline, collection: collection) : .computedOverflow(collection: collection)
    }

    /// The error for an integer sum that overflows 64 bits, as SQLite's reads.
    public static func sumOverflow(_ aggregate: Aggregate, collection: String) -> DocStoreError {
        .sumOverflow(aggregate, collection: collection)
    }

    /// A value decoded from a JSON value read at `path`, with errors naming the
    /// collection and the path.
    public static func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue, collection: String,
                                                at path: String) throws -> Value {
        do {
            return try DocumentCodec.decode(type, from: value)
        } catch {
            throw DocStoreError.decodingFailed(collection: collection, key: nil, codingPath: path, reason: error.reason)
        }
    }

    /// The AST changes of an update block, or the error one of them stands for.
    public static func updates(_ changes: [DocumentFieldUpdate], collection: String) throws -> [FieldUpdate] {
        try changes.map { change in
            switch change.result {
            case .success(let update): return update
            case .failure(let failure): throw failure.error(collection: collection)
            }
        }
    }

    /// A pipeline's row as a JSON object: each value at its path.
    public static func row(paths: [FieldPath], values: [JSONValue]) -> JSONValue {
        var row: JSONValue = .object([:])
        for (path, value) in zip(paths, values) { row = row.setting(value, at: path.components[...]) }
        return row
    }

    /// A JSON value's compact text.
    public static func serialize(_ value: JSONValue) -> String {
        String(decoding: serializedBytes(value), as: UTF8.self)
    }

    /// A JSON value's compact text as UTF-8 bytes.
    public static func serializedBytes(_ value: JSONValue) -> [UInt8] {
        DocumentCodec.serialize(value)
    }

    /// The statements creating an index on PostgreSQL (a btree on the terms the
    /// compiler compares and sorts by; a partial unique index beside it when unique).
    public static func postgresCreateIndex(_ index: IndexInfo) throws -> [String] {
        try IndexSQL.postgresCreate(index)
    }

    /// The statement selecting the keys of the first documents a unique index
    /// on PostgreSQL would find equal.
    public static func postgresDuplicates(_ index: IndexInfo) throws -> String {
        try IndexSQL.postgresDuplicates(index)
    }

    /// The names of the PostgreSQL indexes of a DocStore index.
    public static func postgresIndexNames(_ name: String) -> [String] {
        [name, IndexSQL.postgresUniqueName(name)]
    }
}

extension BackendSupport {
    /// The condition "`field` is among the keys (or the values of `selecting`)
    /// of the documents `query` selects in `collection`", as a typed query of
    /// another backend makes it for `in(…)`; a condition that makes its query
    /// throw ``DocStoreError/invalidQuery(collection:field:reason:)`` when the
    /// query can't be a subquery (a join, a limit, an invalid condition).
    public static func inSubquery(
        _ field: FieldPath, collection: String, query: DocumentQuery, hasJoins: Bool, invalid: DocStoreError?, selecting: FieldPath?
    ) -> DocumentCondition {
        if let invalid {
            guard case let .invalidQuery(_, path, reason) = invalid else {
                return DocumentCondition(invalid: InvalidQuery(reason: invalid.description))
            }
            return DocumentCondition(invalid: InvalidQuery(reason: reason, fieldName: path))
        }
        switch Subquery.checked(collection: collection, query: query, hasJoins: hasJoins, selecting: selecting) {
        case .success(let subquery): return DocumentCondition(.isInSubquery(field, subquery))
        case .failure(let failure): return DocumentCondition(invalid: failure)
        }
    }
}

extension BackendSupport {
    /// `model` with the generated `key` as its optional `id`, and the JSON text
    /// to store (see ``GeneratedKeys``): what `get` returns and what
    /// `insert(&model)` writes back are the same value.
    public static func writingGeneratedKey<Model: Codable & Identifiable>(
        _ key: DocumentKey, into model: Model, collection: String
    ) throws -> (model: Model, document: [UInt8]) where Model.ID: OptionalDocumentKeyRepresentable {
        try GeneratedKeys.writing(key, into: model, collection: collection)
    }
}

extension BackendSupport {
    /// Why a collection's table is refused as not DocStore's: another program
    /// made a table of that name, without a key and a body, in its place
    /// (`tool`: what the user renames or drops it with).
    public static func foreignTableProblem(_ name: String, tool: String) -> String {
        "the table \(DocumentKey.quoted(name)) is not a collection's (not a primary key `key` and a `body` column alone, as DocStore makes them): another program made it in the collection's place; its rows are not documents, and dropping the collection would destroy them, so .drop refuses: rename or drop that table with \(tool), then .drop \(DocumentKey.commandArgument(name)) forgets the collection"
    }
}

extension BackendSupport {
    /// Why a document read by its key can't be handed out (both written so by
    /// another tool, which `check` calls damaged): a `JSONValue` body that is
    /// not an object (a typed model can't decode from one; a `JSONValue` can,
    /// and `get` showed `[1,2]` as a document, helper-60), or an own key (its
    /// `"id"`, as the collection's keys) other than the one it is stored
    /// under, which a save of it would write over. Nil when it is sound.
    public static func readByKeyProblem(_ model: Any, ownKey: DocumentKey?, storedUnder key: DocumentKey) -> String? {
        if let json = model as? JSONValue, json.typeName != "object" {
            return "its body is \(json.typeName == "array" ? "an array" : "a JSON \(json.typeName)"), not a JSON object (written so by another tool)"
        }
        guard let ownKey, ownKey != key else { return nil }
        return "its \"id\" is \(ownKey), but it is stored under the key \(key) (written so by another tool), and saving it would write over document \(ownKey)"
    }
}

extension BackendSupport {
    /// Why a collection whose table another program replaced (another shape,
    /// a view) is neither read nor written: its rows are not documents.
    public static func foreignTableRefusal(_ name: String, tool: String) -> String {
        "the table \(DocumentKey.quoted(name)) is not a collection's (not a primary key `key` and a `body` column alone, as DocStore makes them): another program made it, or a view, in the collection's place; its rows are not documents, so DocStore neither reads nor changes them, and nothing was done: rename or drop it with \(tool), then .drop \(DocumentKey.commandArgument(name)) forgets the collection"
    }
}

extension BackendSupport {
    /// Why a document's `"id"` can't be its key: not an integer or a string,
    /// or an integer past a key's 64 bits (which `typeName` also calls "integer").
    public static func unusableIdReason(_ id: JSONValue) -> String {
        if case .exactNumber(let number) = id, number.isIntegral {
            return "its \"id\" \(number.text) is past the range of an integer key (64-bit, as Int64)"
        }
        return "its \"id\" is \(id.typeName), not an integer or a string"
    }
}
