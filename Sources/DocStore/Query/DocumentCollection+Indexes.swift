import GRDB

extension DocumentCollection {
    /// Creates an index on one or several fields, recorded in the catalog. Queries
    /// whose conditions test the fields for equality or ranges, or sort by them (in
    /// the index's field order), use it. Creating an index that exists returns it.
    /// An index created before the collection's first document is built with it.
    ///
    ///     try players.createIndex(on: [FieldPath("teamId"), FieldPath("number")])
    ///
    /// - Parameter unique: Refuse two documents with the same values of all the
    ///   fields (documents missing a field never conflict): inserts, saves and
    ///   updates that would break the rule throw ``DocStoreError/uniqueConstraint(collection:fields:key:)``.
    /// - Throws: ``DocStoreError/duplicateIndexValues(collection:fields:keys:)`` when
    ///   a unique index can't be created over the documents already stored (nothing
    ///   changes); ``DocStoreError/invalidQuery(collection:field:reason:)`` for a field
    ///   no SQLite index can hold, or an index on the same fields that differs in uniqueness.
    @discardableResult
    public func createIndex(on fields: [FieldPath], unique: Bool = false) throws -> IndexInfo {
        guard !fields.isEmpty else {
            throw DocStoreError.invalidQuery(collection: name, field: nil, reason: "an index needs at least one field")
        }
        for path in fields { _ = try IndexSQL.indexableField(path, collection: name) }
        return try access {
            try store.writeAccess { db in
                try store.withinTransaction(db) {
                    if let existing = try Catalog.indexes(of: name, in: db).first(where: { $0.fields == fields }) {
                        guard existing.isUnique == unique else {
                            throw DocStoreError.invalidQuery(
                                collection: name, field: fields.map(\.description).joined(separator: ", "),
                                reason: "an index on these fields already exists (\(existing.isUnique ? "unique" : "not unique")); drop it first")
                        }
                        return existing
                    }
                    let known = try store.knownCollection(named: name, in: db) != nil
                    if !known { try Catalog.refuseNameClash(name, in: db) }
                    let index = IndexInfo(name: try Catalog.nextIndexName(in: db), collection: name, fields: fields, isUnique: unique)
                    try Catalog.recordIndex(index, in: db)
                    guard known else { return index }
                    do {
                        try diagnosingDamage(in: db) { try db.execute(sql: try IndexSQL.create(index)) }
                    } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                        throw DocStoreError.duplicateIndexValues(collection: name, fields: fields.map(\.description),
                                                                 keys: try duplicateKeys(on: fields, in: db))
                    }
                    return index
                }
            }
        }
    }

    /// Creates an index on one field (see the many-field `createIndex(on:unique:)`).
    @discardableResult
    public func createIndex(on field: FieldPath, unique: Bool = false) throws -> IndexInfo {
        try createIndex(on: [field], unique: unique)
    }

    /// Drops the index on exactly these fields. Returns whether there was one.
    @discardableResult
    public func dropIndex(on fields: [FieldPath]) throws -> Bool {
        try access {
            try store.writeAccess { db in
                try store.withinTransaction(db) {
                    guard let index = try Catalog.indexes(of: name, in: db).first(where: { $0.fields == fields }) else { return false }
                    try Catalog.dropIndex(named: index.name, in: db)
                    return true
                }
            }
        }
    }

    /// The collection's indexes, by name.
    public func indexes() throws -> [IndexInfo] {
        try access {
            try store.readAccess { db in try Catalog.indexes(of: name, in: db) }
        }
    }

    /// The keys of the first group of documents sharing the same values of `fields`
    /// (none of them missing or null), for the error of a failed unique index.
    private func duplicateKeys(on fields: [FieldPath], in db: Database) throws -> [DocumentKey] {
        guard let info = try store.knownCollection(named: name, in: db) else { return [] }
        let compiler = try queryCompiler(in: db)
        let condition = Condition.and(fields.map { .not(.isNull($0)) })
        let compiled = try compiler.fields(fields, DocumentQuery(condition, sort: fields.map { SortKey($0) }))
        var previous: [JSONValue]?
        var group: [DocumentKey] = []
        var found: [DocumentKey]?
        try run(compiled, in: db) { statement in
            guard found == nil else { return }
            let key = statement.key(at: 0, kind: info.keyKind)
            let values = try fields.indices.map { try statement.selectedField($0, collection: name, key: key) }
            if let previous, zip(previous, values).allSatisfy({ JSONOrder.equal($0, $1) }) {
                group.append(key)
            } else {
                if group.count > 1 { found = group }
                group = [key]
            }
            previous = values
        }
        return found ?? (group.count > 1 ? group : [])
    }
}
