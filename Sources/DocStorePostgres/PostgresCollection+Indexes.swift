@_spi(Backends) import DocStore
import PostgresNIO

extension PostgresCollection {
    /// Creates an index on one or several fields, recorded in the store's
    /// catalog: a btree on exactly the terms queries compare and sort the
    /// fields by, so equality, ranges and sorts on them use it (`EXPLAIN` shows
    /// an Index Scan). Creating an index that exists returns it; one created
    /// before the collection's first document is built with its table.
    ///
    ///     try await players.createIndex(on: [FieldPath("teamId"), FieldPath("number")])
    ///     try await players.createIndex(on: .root)    // containment: tags.contains(x), == on several fields
    ///
    /// An index on the document itself (`.root`) is a GIN `jsonb_path_ops`
    /// index: queries whose conditions are (ANDed) equalities with scalars and
    /// `contains` of scalars on member paths find their candidates in it.
    ///
    /// - Parameter unique: Refuse two documents with the same values of all the
    ///   fields (documents missing a field, or holding null, never conflict):
    ///   writes that would break the rule throw ``DocStore/DocStoreError/uniqueConstraint(collection:fields:key:)``.
    /// - Throws: ``DocStore/DocStoreError/duplicateIndexValues(collection:fields:keys:)``
    ///   when a unique index can't be created over the documents stored (nothing
    ///   changes); ``DocStore/DocStoreError/invalidQuery(collection:field:reason:)``
    ///   for a field no index can hold, or an index on the same fields that
    ///   differs in uniqueness.
    @discardableResult
    public func createIndex(on fields: [FieldPath], unique: Bool = false) async throws -> IndexInfo {
        guard !fields.isEmpty else {
            throw DocStoreError.invalidQuery(collection: name, field: nil, reason: "an index needs at least one field")
        }
        _ = try BackendSupport.postgresCreateIndex(IndexInfo(name: "docstore_ix_0", collection: name, fields: fields, isUnique: unique))
        return try await inSchemaTransaction { session in
            if let existing = try await indexes(in: session).first(where: { $0.fields == fields }) {
                guard existing.isUnique == unique else {
                    throw DocStoreError.invalidQuery(
                        collection: name, field: fields.map(\.description).joined(separator: ", "),
                        reason: "an index on these fields already exists (\(existing.isUnique ? "unique" : "not unique")); drop it first")
                }
                return existing
            }
            let hasTable = try await hasTable(in: session)
            // Recorded ahead of its collection: only for one that can be made.
            if !hasTable { try await refuseOtherForm(in: session) }
            let paths = JSONValue.array(fields.map { .array($0.components.map(\.jsonValue)) })
            let recorded = try await session.rows(PostgresStoreSQL.recordIndex, [.text(name), .text(BackendSupport.serialize(paths)),
                                                                                   .integer(unique ? 1 : 0)], collection: name)
            let index = IndexInfo(name: try recorded.first?.decode(String.self) ?? "", collection: name, fields: fields, isUnique: unique)
            if hasTable { try await build(index, in: session) }
            if fields == [.root] { store.containmentIndexed.withLock { _ = $0.insert(name) } }
            store.indexedPaths.withLock { $0[name, default: []].formUnion(fields) }
            return index
        }
    }

    /// Creates an index on one field (see ``createIndex(on:unique:)-([FieldPath],_)``).
    @discardableResult
    public func createIndex(on field: FieldPath, unique: Bool = false) async throws -> IndexInfo {
        try await createIndex(on: [field], unique: unique)
    }

    /// Drops the index on exactly these fields. Returns whether there was one.
    @discardableResult
    public func dropIndex(on fields: [FieldPath]) async throws -> Bool {
        let remaining: Set<FieldPath>? = try await inSchemaTransaction { session in
            guard let index = try await indexes(in: session).first(where: { $0.fields == fields }) else { return nil }
            try await session.rows(PostgresStoreSQL.forgetIndex, [.text(index.name)], collection: name)
            for pgName in BackendSupport.postgresIndexNames(index.name) {
                try await session.rows(PostgresStoreSQL.dropIndex(pgName), [], collection: name)
            }
            if fields == [.root] { store.containmentIndexed.withLock { _ = $0.remove(name) } }
            return Set(try await indexes(in: session).flatMap(\.fields))
        }
        guard let remaining else { return false }
        // The fields still indexed: a field whose last index went compares by
        // jsonb's `=` again (see indexedPaths). Set once the drop has run.
        store.indexedPaths.withLock { $0[name] = remaining }
        return true
    }

    /// The collection's indexes, in the order they were created.
    public func indexes() async throws -> [IndexInfo] {
        try await indexes(in: session)
    }

    func indexes(in session: PostgresSession) async throws -> [IndexInfo] {
        try await session.rows(PostgresStoreSQL.indexes, [.text(name)], collection: name).map { row in
            let (indexName, fieldsText, isUnique) = try row.decode((String, String, Bool).self)
            return IndexInfo(name: indexName, collection: name, fields: try Self.indexFields(fieldsText, index: indexName, collection: name),
                             isUnique: isUnique)
        }
    }

    /// An index's fields from the catalog's JSON text.
    static func indexFields(_ fieldsText: String, index: String, collection: String) throws -> [FieldPath] {
        let fields = try BackendSupport.parse(Array(fieldsText.utf8), collection: collection, key: nil)
        guard case .array(let paths) = fields else {
            throw PostgresStoreError.server(sqlState: nil, message: "the catalog \(PostgresStoreSQL.indexTable) gives index \(index) the fields \(fieldsText), not an array of paths",
                                            detail: nil, hint: nil, collection: collection)
        }
        return try paths.map { try path(from: $0, index: index, collection: collection) }
    }

    /// Builds an index on the collection's table: refuses a unique one that the
    /// stored documents already break, naming them.
    func build(_ index: IndexInfo, in session: PostgresSession) async throws {
        if index.isUnique {
            let keys = try await session.rows(BackendSupport.postgresDuplicates(index), [], collection: name).map {
                try decodeKey($0.makeRandomAccess()[0], kind: keyKind())
            }
            if !keys.isEmpty {
                throw DocStoreError.duplicateIndexValues(collection: name, fields: index.fields.map(\.description), keys: keys)
            }
        }
        for statement in try BackendSupport.postgresCreateIndex(index) {
            try await session.rows(statement, [], collection: name)
        }
    }

    /// A write's unique-index violation as DocStore's error, naming the index's fields.
    @discardableResult
    func mappingUniqueViolation<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let violation as UniqueIndexViolation {
            let indexes = try await indexes(in: .pool(store.client))
            let fields = indexes.first { BackendSupport.postgresIndexNames($0.name).contains(violation.index) }?.fields
            throw DocStoreError.uniqueConstraint(collection: name, fields: fields?.map(\.description) ?? [violation.index], key: violation.key)
        }
    }

    /// Runs `body` in the caller's transaction, or in one of its own.
    func inTransaction<T: Sendable>(_ body: (PostgresSession) async throws -> T) async throws -> T {
        if let transaction { return try await body(transaction.session) }
        return try await store.ownTransaction { try await body($0.session) }
    }

    /// Runs `body` in a transaction holding the collection's schema lock (and,
    /// with `sharedObjects`, the store's, for functions all collections share):
    /// two processes creating the same index at once would otherwise both find
    /// it missing and record it twice, or fail replacing the same function.
    func inSchemaTransaction<T: Sendable>(sharedObjects: Bool = false, _ body: (PostgresSession) async throws -> T) async throws -> T {
        try await inTransaction { session in
            if sharedObjects { try await session.rows(PostgresStoreSQL.lockSchemaCreation, [], collection: name) }
            try await session.rows(PostgresStoreSQL.lockCollectionSchema, [.text(name)], collection: name)
            return try await body(session)
        }
    }

    private static func path(from value: JSONValue, index: String, collection: String) throws -> FieldPath {
        guard case .array(let steps) = value else {
            throw PostgresStoreError.server(sqlState: nil, message: "the catalog \(PostgresStoreSQL.indexTable) gives index \(index) a path that is not an array",
                                            detail: nil, hint: nil, collection: collection)
        }
        return FieldPath(try steps.map { step in
            switch step {
            case .string(let key): return .key(key)
            case .integer(let position): return .index(Int(position))
            default:
                throw PostgresStoreError.server(sqlState: nil, message: "the catalog \(PostgresStoreSQL.indexTable) gives index \(index) a path step that is neither a name nor a position",
                                                detail: nil, hint: nil, collection: collection)
            }
        })
    }
}

extension FieldPath.Component {
    /// The step as the index catalog records it: a name as a string, a position as an integer.
    var jsonValue: JSONValue {
        switch self {
        case .key(let key): .string(key)
        case .index(let position): .integer(Int64(position))
        }
    }
}

extension PostgresCollection where Model: QueryableDocument {
    /// Creates an index on fields named by key paths into the model's fields,
    /// as on SQLite:
    ///
    ///     try await players.createIndex(on: \.teamId)
    ///     try await players.createIndex(on: \.teamId, \.number, unique: true)
    @discardableResult
    public func createIndex<each Value>(
        on fields: repeat KeyPath<Model.Fields, DocumentField<each Value>>, unique: Bool = false
    ) async throws -> IndexInfo {
        let root = Model.Fields(_path: .root)
        var paths: [FieldPath] = []
        for field in repeat each fields { paths.append(root[keyPath: field].fieldPath) }
        return try await createIndex(on: paths, unique: unique)
    }
}
