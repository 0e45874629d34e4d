import GRDB
import GRDBSQLite

extension DocumentCollection {
    /// The documents the query selects, in its order (then by key).
    ///
    ///     let found = try players.fetch(DocumentQuery(.compare(FieldPath("teamId"), .equal, 1),
    ///                                                 sort: [SortKey(FieldPath("number"))], limit: 10))
    ///
    /// - Throws: ``DocStoreError/invalidQuery(collection:field:reason:)`` for a
    ///   query that can't run; a decoding error naming the key of a document that
    ///   doesn't decode into `Model`.
    public func fetch(_ query: DocumentQuery) throws -> [Model] {
        var models: [Model] = []
        try forEach(query) { models.append($0) }
        return models
    }

    /// Calls `body` with each document the query selects, in order, streaming: one
    /// statement, one document in memory at a time. `body` may run other reads.
    public func forEach(_ query: DocumentQuery, _ body: (Model) throws -> Void) throws {
        warnAboutUnknownFields(query.namedPaths)
        let decoding = DocumentDecoding<Model>()
        try readRows(cached: false, { try $0.documents(query) }) { statement, info in
            let key = statement.key(at: 0, kind: info.keyKind)
            try body(try ModelCoding.decode(Model.self, from: statement.bytes(at: 1), collection: name, key: key, decoding: decoding))
        }
    }

    /// The first document the query selects, or `nil`.
    public func first(_ query: DocumentQuery) throws -> Model? {
        var first: Model?
        try forEach(query.limited(to: 1)) { first = $0 }
        return first
    }

    /// The number of documents the query selects (its limit and offset applied).
    public func count(_ query: DocumentQuery) throws -> Int {
        warnAboutUnknownFields(query.namedPaths)
        var count = 0
        try readRows({ try $0.count(query) }) { statement, _ in count = Int(statement.int64(at: 0)) }
        return count
    }

    /// Whether the query selects any document.
    public func exists(_ query: DocumentQuery) throws -> Bool {
        try !keys(query.limited(to: 1)).isEmpty
    }

    /// The keys of the documents the query selects, in its order.
    public func keys(_ query: DocumentQuery) throws -> [DocumentKey] {
        warnAboutUnknownFields(query.namedPaths)
        var keys: [DocumentKey] = []
        try readRows({ try $0.keys(query) }) { statement, info in keys.append(statement.key(at: 0, kind: info.keyKind)) }
        return keys
    }

    /// The values of some fields of each document the query selects, one row per
    /// document in the query's order; a missing field reads as `.null`.
    ///
    ///     try players.select(query, fields: [FieldPath("lastName"), FieldPath("number")])
    ///     // [["Pedroia", 15], ["Ortiz", 34]]
    public func select(_ query: DocumentQuery, fields: [FieldPath]) throws -> [[JSONValue]] {
        warnAboutUnknownFields(query.namedPaths + fields)
        var rows: [[JSONValue]] = []
        try readRows({ try $0.fields(fields, query) }) { statement, info in
            let key = statement.key(at: 0, kind: info.keyKind)
            rows.append(try fields.indices.map { try statement.selectedField($0, collection: name, key: key) })
        }
        return rows
    }

    // MARK: Internals

    /// Compiles a statement for this collection and steps it in a read, calling
    /// `row` for each row. A collection that doesn't exist yet has no rows; the
    /// query is compiled first anyway, so an invalid query always throws.
    ///
    /// - Parameter reusable: Run a statement prepared by an earlier run of the
    ///   same SQL on the connection, and keep it for the next (read-only
    ///   connections; see ``CompileCatalogCache``).
    func readRows(cached: Bool = true, reusable: Bool = false, _ compile: (QueryCompiler) throws -> SQLFragment,
                  _ row: (RawStatement, CollectionInfo) throws -> Void) throws {
        try access {
            try store.readAccess { db in
                let catalog = try store.compileCatalogCache.lookups(in: db)
                let compiled = try compile(queryCompiler(in: db, catalog: catalog))
                guard let info = try store.knownCollection(named: name, in: db) else { return }
                try run(compiled, in: db, cached: cached, reusing: reusable ? catalog : nil) { try row($0, info) }
            }
        }
    }

    /// The compiler for this collection, looking other collections up in `db`.
    func queryCompiler(in db: Database) throws -> QueryCompiler {
        try queryCompiler(in: db, catalog: store.compileCatalogCache.lookups(in: db))
    }

    func queryCompiler(in db: Database, catalog: CompileCatalogCache.Lookups) -> QueryCompiler {
        var compiler = QueryCompiler(collection: name, keyKind: { [store] other in try store.knownCollection(named: other, in: db)?.keyKind })
        compiler.rememberedPipeline = { [name] pipeline, compile in try catalog.pipeline(pipeline, of: name, compile: compile) }
        compiler.indexedFields = { collection in try catalog.indexes(of: collection).map(\.fields) }
        compiler.fieldColumns = { collection in try catalog.fieldColumns(of: collection) }
        compiler.searchIndexes = { collection in try catalog.searchIndexes(of: collection) }
        return compiler
    }
}

extension DocumentQuery {
    /// This query with its limit lowered to `count`.
    func limited(to count: Int) -> DocumentQuery {
        var query = self
        query.limit = Swift.min(limit ?? count, count)
        return query
    }
}

extension RawStatement {
    /// Whether field `index` of a row of ``QueryCompiler/fields(_:_:)`` may hold
    /// what SQLite reads inexactly: its exact JSON text was selected (a real, a
    /// string with NUL) or it is an array or object. Other values are read exactly.
    func mayReadInexactly(_ index: Int) -> Bool {
        let rank = Int32(1 + 3 * index)
        return columnType(at: rank + 2) == SQLITE_TEXT || int64(at: rank) >= Int64(JSONRank.array.rawValue)
    }

    /// The JSON value a field's `rank, value` column pair holds (see ``FieldSQL``).
    /// Field `index` of a row of ``QueryCompiler/fields(_:_:)``: its value, a
    /// number with every digit its JSON text has, a string with its NULs.
    func selectedField(_ index: Int, collection: String, key: DocumentKey?) throws -> JSONValue {
        let rank = Int32(1 + 3 * index)
        if columnType(at: rank + 2) == SQLITE_TEXT {
            let text = bytes(at: rank + 2)
            if text.first == UInt8(ascii: "\"") {
                do {
                    return try DocumentCodec.parse(text)
                } catch {
                    throw DocStoreError.corruptDocument(collection: collection, key: key ?? .integer(0), reason: error.description)
                }
            }
            if let number = JSONNumberLiteral(String(decoding: text, as: UTF8.self)) {
                return number.value
            }
        }
        return try jsonValue(rankAt: rank, collection: collection, key: key)
    }

    func jsonValue(rankAt column: Int32, collection: String, key: DocumentKey?) throws -> JSONValue {
        let value = column + 1
        switch int64(at: column) {
        case Int64(JSONRank.bool.rawValue): return .bool(int64(at: value) != 0)
        case Int64(JSONRank.number.rawValue):
            if columnType(at: value) == SQLITE_INTEGER { return .integer(int64(at: value)) }
            let real = double(at: value)
            // A sum or a computed value past a Double's range: SQLite's infinity,
            // which JSON can't hold (it came out as null, silently).
            guard real.isFinite else {
                throw DocStoreError.invalidQuery(collection: collection, field: nil,
                                                 reason: "a sum or computed value goes past a Double's range (±1.8e308)")
            }
            return .double(real)
        case Int64(JSONRank.string.rawValue): return .string(string(at: value))
        case Int64(JSONRank.array.rawValue), Int64(JSONRank.object.rawValue):
            do {
                return try DocumentCodec.parse(bytes(at: value))
            } catch {
                throw DocStoreError.corruptDocument(collection: collection, key: key ?? .integer(0), reason: error.description)
            }
        default: return .null
        }
    }
}
