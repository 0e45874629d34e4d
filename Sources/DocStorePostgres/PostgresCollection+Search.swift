@_spi(Backends) import DocStore
import PostgresNIO

extension PostgresCollection {
    /// Creates a full-text search index on one or several string fields, as on
    /// SQLite: `matches` on those fields then finds documents by their words
    /// (every word, in any order, case- and diacritic-insensitively; `"a phrase"`;
    /// `prefix*`), and `sorted(byRelevanceTo:)` ranks them. Creating one that
    /// exists returns it; one created before the collection's first document is
    /// built with its table.
    ///
    ///     try await notes.createSearchIndex(on: [FieldPath("text")])
    ///
    /// On PostgreSQL each field gets a GIN index on a `tsvector` of its words,
    /// made by DocStore's own tokenizer (see `PostgresSearchSQL`), so the same
    /// documents match as on a file store. Relevance is PostgreSQL's
    /// `ts_rank_cd`, not FTS5's bm25: the order of equally good matches may
    /// differ between the backends. Snippets are not available here yet.
    ///
    /// - Throws: ``DocStore/DocStoreError/invalidQuery(collection:field:reason:)``
    ///   for no field, a field named twice, or the document itself.
    @discardableResult
    public func createSearchIndex(on fields: [FieldPath]) async throws -> SearchIndexInfo {
        guard !fields.isEmpty else {
            throw DocStoreError.invalidQuery(collection: name, field: nil, reason: "a search index needs at least one field")
        }
        for (offset, path) in fields.enumerated() {
            _ = try PostgresSearchSQL.create(SearchIndexInfo(name: "docstore_search_0", collection: name, fields: [path]))
            if fields[..<offset].contains(path) {
                throw DocStoreError.invalidQuery(collection: name, field: path.description, reason: "a search index names each field once")
            }
        }
        return try await inSchemaTransaction(sharedObjects: true) { session in
            if let existing = try await searchIndexes(in: session).first(where: { $0.fields == fields }) { return existing }
            if try await session.rows(PostgresSearchSQL.functionExists, [], collection: name).isEmpty {
                try await session.rows(PostgresSearchSQL.createFunction, [], collection: name)
            }
            let hasTable = try await hasTable(in: session)
            // Recorded ahead of its collection: only for one that can be made.
            if !hasTable { try await refuseOtherForm(in: session) }
            let paths = JSONValue.array(fields.map { .array($0.components.map(\.jsonValue)) })
            let recorded = try await session.rows(PostgresSearchSQL.recordIndex, [.text(name), .text(BackendSupport.serialize(paths))],
                                                  collection: name)
            let index = SearchIndexInfo(name: try recorded.first?.decode(String.self) ?? "", collection: name, fields: fields)
            if hasTable {
                for statement in try PostgresSearchSQL.create(index) { try await session.rows(statement, [], collection: name) }
            }
            return index
        }
    }

    /// Creates a search index on one field (see ``createSearchIndex(on:)-([FieldPath])``).
    @discardableResult
    public func createSearchIndex(on field: FieldPath) async throws -> SearchIndexInfo {
        try await createSearchIndex(on: [field])
    }

    /// Drops the search index on exactly these fields. Returns whether there was one.
    @discardableResult
    public func dropSearchIndex(on fields: [FieldPath]) async throws -> Bool {
        try await inSchemaTransaction { session in
            guard let index = try await searchIndexes(in: session).first(where: { $0.fields == fields }) else { return false }
            try await session.rows(PostgresSearchSQL.forgetIndex, [.text(index.name)], collection: name)
            for pgName in PostgresSearchSQL.indexNames(index) {
                try await session.rows(PostgresStoreSQL.dropIndex(pgName), [], collection: name)
            }
            return true
        }
    }

    /// The collection's search indexes, in the order they were created.
    public func searchIndexes() async throws -> [SearchIndexInfo] {
        try await searchIndexes(in: session)
    }

    /// Builds the search indexes again, with the search function of this
    /// version of DocStore (after an upgrade whose Unicode tables changed, say).
    /// The indexes follow every write on their own; nothing else needs this.
    public func rebuildSearchIndexes() async throws {
        try await inTransaction { session in
            let indexes = try await searchIndexes(in: session)
            guard !indexes.isEmpty else { return }
            try await session.rows(PostgresSearchSQL.createFunction, [], collection: name)
            guard try await hasTable(in: session) else { return }
            for index in indexes {
                for pgName in PostgresSearchSQL.indexNames(index) {
                    try await session.rows(PostgresStoreSQL.dropIndex(pgName), [], collection: name)
                }
                for statement in try PostgresSearchSQL.create(index) { try await session.rows(statement, [], collection: name) }
            }
        }
    }

    func searchIndexes(in session: PostgresSession) async throws -> [SearchIndexInfo] {
        try await session.rows(PostgresSearchSQL.indexes, [.text(name)], collection: name).map { row in
            let (indexName, fieldsText) = try row.decode((String, String).self)
            let fields = try BackendSupport.parse(Array(fieldsText.utf8), collection: name, key: nil)
            guard case .array(let paths) = fields else {
                throw PostgresStoreError.server(sqlState: nil, message: "the catalog \(PostgresSearchSQL.catalogTable) gives search index \(indexName) the fields \(fieldsText), not an array of paths",
                                                detail: nil, hint: nil, collection: name)
            }
            return SearchIndexInfo(name: indexName, collection: name, fields: try paths.map { try Self.searchPath(from: $0, index: indexName) })
        }
    }

    private static func searchPath(from value: JSONValue, index: String) throws -> FieldPath {
        guard case .array(let steps) = value else { throw SearchCatalogDamage(index: index) }
        return FieldPath(try steps.map { step in
            switch step {
            case .string(let key): return .key(key)
            case .integer(let position): return .index(Int(position))
            default: throw SearchCatalogDamage(index: index)
            }
        })
    }
}

/// A search index whose recorded fields aren't paths.
struct SearchCatalogDamage: Error, CustomStringConvertible {
    var index: String
    var description: String {
        "the catalog \(PostgresSearchSQL.catalogTable) gives search index \(index) a field that is not a path (an array of names and positions)"
    }
}

extension PostgresCollection where Model: QueryableDocument {
    /// Creates a search index on string fields named by key paths, as on SQLite:
    ///
    ///     try await notes.createSearchIndex(on: \.text, \.title)
    ///     let found = try await notes.filter { $0.text.matches("home run") }.fetch()
    @discardableResult
    public func createSearchIndex<each Value: DocumentStringValue>(
        on fields: repeat KeyPath<Model.Fields, DocumentField<each Value>>
    ) async throws -> SearchIndexInfo {
        let root = Model.Fields(_path: .root)
        var paths: [FieldPath] = []
        for field in repeat each fields { paths.append(root[keyPath: field].fieldPath) }
        return try await createSearchIndex(on: paths)
    }
}

extension PostgresCollectionQuery {
    /// The documents in order of relevance to `text` in the field the query
    /// searches (its `matches` conditions name exactly one field), best first
    /// (PostgreSQL's `ts_rank_cd`); earlier sort keys then break ties.
    ///
    ///     let best = try await notes.filter { $0.text.matches("home run") }
    ///         .sorted(byRelevanceTo: "home run")
    ///         .limit(10)
    ///         .fetch()
    public func sorted(byRelevanceTo text: String) -> PostgresCollectionQuery {
        var fields: [FieldPath] = []
        func collect(_ condition: Condition) {
            switch condition {
            case .matches(let path, _): if !fields.contains(path) { fields.append(path) }
            case .and(let conditions), .or(let conditions): conditions.forEach(collect)
            case .not(let inner): collect(inner)
            default: break
            }
        }
        collect(query.condition)
        guard fields.count == 1, let field = fields.first else {
            var copy = self
            copy.invalid = copy.invalid ?? DocStoreError.invalidQuery(
                collection: collection.name, field: nil,
                reason: fields.isEmpty
                    ? "sorted(byRelevanceTo:) ranks the field the query searches, and this query has no matches condition; name the field: sorted(byRelevanceTo:in:)"
                    : "the query searches several fields (\(fields.map(\.description).joined(separator: ", "))); name the one to rank by: sorted(byRelevanceTo:in:)")
            return copy
        }
        return sorted(byRelevanceTo: text, in: field)
    }

    /// The documents in order of relevance of `field` to `text`, best first;
    /// documents not matching the whole text come last. Needs a search index on
    /// the field.
    public func sorted(byRelevanceTo text: String, in field: FieldPath) -> PostgresCollectionQuery {
        var copy = self
        guard stages.isEmpty else {
            copy.invalid = copy.invalid ?? DocStoreError.invalidQuery(collection: collection.name, field: field.description,
                                                                      reason: "sorting by relevance comes before any join, group or select")
            return copy
        }
        copy.query.relevance = SearchRelevance(field: field, text: text)
        return copy
    }
}
