/// The `id` type of a model whose key is generated on insert: an optional key,
/// such as `Int64?` or `Int?` (GRDB's auto-increment idiom).
///
///     struct Player: Codable, Identifiable {
///         var id: Int64?                     // nil until inserted
///         var name: String
///     }
///
/// `Optional` conforms when its wrapped type is a ``DocumentKeyRepresentable``.
/// Only integer keys are generated; a nil `String?` or `UUID?` id can't be inserted.
public protocol OptionalDocumentKeyRepresentable {
    /// The key, or nil when there is none yet.
    var optionalDocumentKey: DocumentKey? { get }
}

extension Optional: OptionalDocumentKeyRepresentable where Wrapped: DocumentKeyRepresentable {
    public var optionalDocumentKey: DocumentKey? { self?.documentKey }
}

enum GeneratedKeys {
    /// `model` with `key` as its `id`, and the JSON text to store: the model
    /// encoded with `key` as its `"id"` member, decoded again, so that what
    /// `get(key)` returns and what `insert(&model)` writes back are the same value.
    static func writing<Model: Codable & Identifiable>(
        _ key: DocumentKey, into model: Model, collection: String
    ) throws -> (model: Model, document: [UInt8]) where Model.ID: OptionalDocumentKeyRepresentable {
        var document = try ModelCoding.encode(model, collection: collection, key: key)
        if document.count >= 2, document.first == UInt8(ascii: "{"), !mentionsId(document) {
            // No "id" anywhere (a nil id is left out): put it first, without
            // parsing the document.
            var member = Array("\"id\":\(key)".utf8)
            if document.count > 2 { member.append(UInt8(ascii: ",")) }
            document.insert(contentsOf: member, at: 1)
        } else {
            document = try replacingId(in: document, with: key, collection: collection)
        }
        let stored = try document.withUnsafeBytes { try ModelCoding.decode(Model.self, from: $0, collection: collection, key: key) }
        guard stored.id.optionalDocumentKey == key else {
            throw DocStoreError.missingKey(collection: collection, reason: "the generated key \(key), written as the document's \"id\" member, doesn't decode as the model's id; a model with an optional id must code it as \"id\" (check its CodingKeys)")
        }
        return (stored, document)
    }

    /// Whether the JSON text holds `"id":` anywhere: an `id` member at any depth,
    /// or text that looks like one.
    private static func mentionsId(_ json: [UInt8]) -> Bool {
        json.withUnsafeBufferPointer { bytes in
            var index = 0
            while index + 5 <= bytes.count {
                if bytes[index] == UInt8(ascii: "\""), bytes[index + 1] == UInt8(ascii: "i"), bytes[index + 2] == UInt8(ascii: "d"),
                   bytes[index + 3] == UInt8(ascii: "\""), bytes[index + 4] == UInt8(ascii: ":") {
                    return true
                }
                index += 1
            }
            return false
        }
    }

    /// The document with its top-level `"id"` member set to `key`.
    private static func replacingId(in document: [UInt8], with key: DocumentKey, collection: String) throws -> [UInt8] {
        let json: JSONValue
        do {
            json = try DocumentCodec.parse(document)
        } catch {
            throw DocStoreError.encodingFailed(collection: collection, key: key, codingPath: "", reason: error.description)
        }
        guard case .object(var members) = json else {
            throw DocStoreError.missingKey(collection: collection, reason: "the model doesn't encode as a JSON object, so its generated key can't be written into it")
        }
        members.updateValue(key.jsonValue, forKey: "id", insertingAt: 0)
        guard let bytes = DocumentCodec.serializeDocument(.object(members)) else {
            throw DocStoreError.nestingTooDeep(collection: collection, key: key, limit: DocumentStore.maximumNestingDepth)
        }
        return bytes
    }
}

extension DocumentCollection where Model: Identifiable, Model.ID: OptionalDocumentKeyRepresentable {
    /// Inserts a model and sets its `id` to the generated key when it was nil, as
    /// GRDB's auto-increment records do. Returns the key. A model whose `id` is
    /// set is inserted under it.
    ///
    ///     var player = Player(id: nil, name: "Arthur")
    ///     try players.insert(&player)            // player.id == 1
    ///
    /// Inside ``DocumentStore/write(_:)`` the id is set even if the block later
    /// throws and rolls the insert back.
    ///
    /// - Throws: what `insert(_:)` throws; `model` is unchanged then.
    @discardableResult
    public func insert(_ model: inout Model) throws -> DocumentKey {
        let inserted = try access {
            try store.writeAccess { db in try insertOne(model, in: db) }
        }
        model = inserted.model
        return inserted.key
    }

    /// Inserts a model and returns it as stored: with its generated key as `id`
    /// when its `id` was nil.
    ///
    ///     let player = try players.inserted(Player(id: nil, name: "Arthur"))
    ///     print(player.id!)                      // 1
    public func inserted(_ model: Model) throws -> Model {
        var model = model
        try insert(&model)
        return model
    }

    /// Inserts models in one transaction, all of them or none, and sets the `id`
    /// of each whose `id` was nil. Returns their keys in order.
    ///
    /// - Throws: what `insert(contentsOf:)` throws; nothing is stored
    ///   and `models` is unchanged then.
    @discardableResult
    public func insert(contentsOf models: inout [Model]) throws -> [DocumentKey] {
        let inserted = try access {
            try store.writeAccess { db in
                try store.withinTransaction(db) { try insertBatch(models, in: db) }
            }
        }
        models = inserted.map { $0.model }
        return inserted.map { $0.key }
    }

    /// Inserts models in one transaction, all of them or none, and returns them
    /// as stored: each with its generated key as `id` when its `id` was nil.
    public func inserted<Models: Sequence>(contentsOf models: Models) throws -> [Model] where Models.Element == Model {
        try access {
            try store.writeAccess { db in
                try store.withinTransaction(db) { try insertBatch(models, in: db).map { $0.model } }
            }
        }
    }

    /// Replaces the document stored under the model's `id`, or inserts it; a
    /// model whose `id` is nil is inserted with a generated key, which is then
    /// set as its `id` (GRDB's `save`).
    public func save(_ model: inout Model) throws {
        if model.id.optionalDocumentKey == nil {
            try insert(&model)
        } else {
            try save(model)
        }
    }
}
