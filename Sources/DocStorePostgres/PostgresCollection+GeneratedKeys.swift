@_spi(Backends) import DocStore

/// Where the documents of a collection get their key when they have none of
/// their own. As on SQLite, a generated key is an integer, one more than the
/// largest key of the collection.
enum KeySource<Model: Sendable>: Sendable {
    /// Every document has its own key (the model's `id`): none is generated.
    case given
    /// Models without an `id`: a generated key, not written into the document.
    case generated
    /// A generated key written into the document as its `id` (a model whose
    /// optional `id` is nil, an untyped document without `"id"`); gives the
    /// model as stored, and its JSON text when it has it.
    case writtenBack(@Sendable (Model, DocumentKey) throws -> (model: Model, json: [UInt8]?))
}

/// The generated keys of one call: the largest key, once read under the
/// collection's key lock, and the largest integer key given in the call (a batch
/// is prepared before it is inserted, so the table doesn't hold those yet).
struct KeyAllocation {
    var largest: Int64?
    var largestGiven: Int64?
}

/// Documents ready to insert in batches: their keys and JSON texts, side by side.
struct PreparedBatch {
    var keys: [DocumentKey] = []
    var jsons: [String] = []

    mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(count)
        jsons.reserveCapacity(count)
    }

    mutating func append(key: DocumentKey, json: [UInt8]) {
        append(key: key, storable: String(decoding: JSONBNumberSpelling.storable(json), as: UTF8.self))
    }

    /// A document whose text is already as jsonb must receive it (``PostgresCollection/prepared(_:)``'s).
    mutating func append(key: DocumentKey, storable json: String) {
        keys.append(key)
        jsons.append(json)
    }
}

/// A document ready to insert: its key, its JSON text and the model as stored.
struct PreparedInsert<Model: Sendable>: Sendable {
    var key: DocumentKey
    var json: String
    var model: Model
}

extension PostgresCollection {
    /// The collection with the same documents and keys, in `transaction`.
    func within(_ transaction: PostgresTransaction) -> PostgresCollection {
        PostgresCollection(name: name, store: store, transaction: transaction, keyOf: keyOf, keySource: keySource)
    }

    /// Inserts one document; one without a key gets the next generated key, read
    /// and used in one transaction. Returns the key and the model as stored.
    func insertOne(_ model: Model) async throws -> (key: DocumentKey, model: Model) {
        if keyOf(model) == nil, transaction == nil {
            return try await store.ownTransaction { try await within($0).insertOne(model) }
        }
        var keys = KeyAllocation()
        let document = try await preparedInsert(model, keys: &keys)
        try await mappingUniqueViolation {
            try await session.rows(reusing: PostgresStoreSQL.insert(name, alone: writesAlone), [document.key.binding, .text(document.json)], collection: name, key: document.key)
        }
        return (document.key, document.model)
    }

    /// Inserts documents in one transaction (the caller's, or one of its own).
    func insertAll(_ models: [Model]) async throws -> (keys: [DocumentKey], stored: [Model]) {
        if transaction != nil { return try await insertEach(models) }
        return try await store.ownTransaction { try await within($0).insertEach(models) }
    }

    /// A document's key and JSON text, the collection created first when
    /// missing: the model's own key, or the next generated one.
    func preparedInsert(_ model: Model, keys: inout KeyAllocation) async throws -> PreparedInsert<Model> {
        if keyOf(model) != nil {
            let (key, json) = try await prepared(model)
            if case .integer(let given) = key { keys.largestGiven = Swift.max(keys.largestGiven ?? given, given) }
            return PreparedInsert(key: key, json: json, model: model)
        }
        try refuseUnkeyable(model)
        guard let transaction else {
            throw DocStoreError.missingKey(collection: name, reason: "a generated key is read and used in one transaction")
        }
        let kind = try await ensureCollection(kind: .integer)
        guard kind == .integer else {
            // Made anew by another session (or dropped) since this store read
            // its catalog: the call runs again on the catalog read anew (helper-54).
            if try await recordedKeyKind(in: transaction.session) != kind { throw CollectionMadeAnewElsewhere(collection: name) }
            throw DocStoreError.missingKey(collection: name, reason: Model.self == JSONValue.self
                ? "the collection has \(kind) keys, which can't be generated: give the document an \"id\""
                : "the model's id is nil and the collection has \(kind) keys, which can't be generated: give the model an id")
        }
        let key = DocumentKey.integer(try await nextKey(&keys, in: transaction))
        var stored = model
        var json: [UInt8]?
        if case .writtenBack(let write) = keySource {
            (stored, json) = try write(model, key)
        }
        let text = try json ?? BackendSupport.encode(stored, collection: name, key: key)
        try refuseNUL(in: text, key: key)
        return PreparedInsert(key: key, json: String(decoding: JSONBNumberSpelling.storable(text), as: UTF8.self), model: stored)
    }

    /// One more than the largest key (of the table, and of those given in this
    /// call), under the collection's key lock, held until the transaction ends:
    /// concurrent writers generate keys one after the other.
    private func nextKey(_ keys: inout KeyAllocation, in transaction: PostgresTransaction) async throws -> Int64 {
        if keys.largest == nil {
            try await transaction.session.rows(PostgresStoreSQL.lockKeyGeneration, [.text(name)], collection: name)
            let rows = try await transaction.session.rows(PostgresStoreSQL.largestKey(name), [], collection: name)
            keys.largest = try rows.first?.decode(Int64?.self) ?? 0
        }
        let largest = Swift.max(keys.largest ?? 0, keys.largestGiven ?? .min)
        guard largest < Int64.max else {
            throw DocStoreError.numericOverflow(
                collection: name, field: nil, key: .integer(largest),
                reason: "the collection's largest key is \(Int64.max), so no larger key can be generated; give new documents their own keys")
        }
        keys.largest = largest + 1
        return largest + 1
    }

    /// Refuses what can't get a generated key: nothing for a collection whose
    /// documents always have one, an untyped document that is not an object or
    /// whose `"id"` is neither an integer nor a string.
    private func refuseUnkeyable(_ model: Model) throws {
        if case .given = keySource {
            throw DocStoreError.missingKey(collection: name, reason: "the model has no id")
        }
        guard let document = model as? JSONValue else { return }
        guard case .object(let members) = document else {
            throw DocStoreError.missingKey(collection: name, reason: "a document must be a JSON object")
        }
        if let id = members["id"] {
            throw DocStoreError.missingKey(collection: name, reason: BackendSupport.unusableIdReason(id))
        }
    }

    /// Why a document without a key can't be saved or replaced.
    var missingKeyReason: String {
        switch keySource {
        case .generated:
            "the model has no id, so save can't tell which document to replace; insert it, or change stored ones with a query's update { … }"
        case .writtenBack where Model.self == JSONValue.self, .given where Model.self == JSONValue.self:
            "the document has no usable \"id\" member (an integer or a string)"
        case .writtenBack, .given:
            "the model's id is nil, so save can't tell which document to replace; use save(&model) or insert(&model), which generate the key and set the id"
        }
    }
}

extension KeySource where Model == JSONValue {
    /// An untyped document's generated key, written as its first member `"id"`.
    static var untypedId: KeySource {
        .writtenBack { document, key in
            guard case .object(var members) = document else { return (document, nil) }  // refused before
            members.updateValue(key.jsonValue, forKey: "id", insertingAt: 0)
            return (.object(members), nil)
        }
    }
}

extension KeySource where Model: Identifiable & Codable, Model.ID: OptionalDocumentKeyRepresentable {
    /// A model's generated key, written as its `id` (encoded with the key as its
    /// `"id"` member and decoded again, so that what `get` returns and what
    /// `insert(&model)` writes back are the same value).
    static func writingId(collection: String) -> KeySource {
        .writtenBack { model, key in
            let stored = try BackendSupport.writingGeneratedKey(key, into: model, collection: collection)
            return (stored.model, stored.document)
        }
    }
}
