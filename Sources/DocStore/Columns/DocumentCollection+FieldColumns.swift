import GRDB

extension DocumentCollection {
    /// Keeps some fields' values in columns beside the documents, which queries
    /// then read instead of parsing each document's JSON: filters, sorts and
    /// groups on those fields scan a narrow table of plain values (on SQLite 3.40,
    /// parsing the JSON is most of a scan's time). Answers never change: each
    /// column holds exactly what the query would have read from the document.
    ///
    ///     try batting.createFieldColumns(on: [FieldPath("HR"), FieldPath("playerID")])
    ///     try batting.count(DocumentQuery(.compare(FieldPath("HR"), .greaterOrEqual, 40)))  // reads the column
    ///
    /// The fields join those the collection has already; the values of the
    /// documents already stored are filled in at once, and every write keeps them
    /// in step in its own transaction (each field costs a write about what an
    /// index costs). A field that also starts an index is read from the index
    /// when a condition needs it, so its column serves only scans. Columns
    /// declared before the collection's first document are made with it.
    ///
    /// - Returns: The collection's field columns, all of them.
    /// - Throws: ``DocStoreError/invalidQuery(collection:field:reason:)`` for a
    ///   field no column can hold (the document itself, or a member name SQLite's
    ///   JSON paths can't spell); ``DocStoreError/damagedDocuments(collection:keys:)``
    ///   when stored documents aren't valid JSON (nothing changes).
    @discardableResult
    public func createFieldColumns(on fields: [FieldPath]) throws -> FieldColumnsInfo {
        guard !fields.isEmpty else {
            throw DocStoreError.invalidQuery(collection: name, field: nil, reason: "field columns need at least one field")
        }
        for path in fields { _ = try IndexSQL.indexableField(path, collection: name, purpose: "field column") }
        let columns = try changingFieldColumns { existing in
            var all = existing?.fields ?? []
            for path in fields where !all.contains(path) { all.append(path) }
            return all
        }
        // Never nil: the fields asked for are among the columns.
        guard let columns else { throw DocStoreError.invalidQuery(collection: name, field: nil, reason: "no field columns were made") }
        return columns
    }

    /// Stops keeping these fields in columns (queries read them from the
    /// documents again). Returns whether any of them had a column.
    @discardableResult
    public func dropFieldColumns(on fields: [FieldPath]) throws -> Bool {
        var had = false
        _ = try changingFieldColumns { existing in
            had = existing?.fields.contains(where: fields.contains) ?? false
            return (existing?.fields ?? []).filter { !fields.contains($0) }
        }
        return had
    }

    /// The collection's field columns, or nil when it has none.
    public func fieldColumns() throws -> FieldColumnsInfo? {
        try access {
            try store.readAccess { db in try Catalog.fieldColumns(of: name, in: db) }
        }
    }

    /// Runs `body`, a bulk load, with the field columns made after it from the
    /// documents when the collection is empty before it: one pass over the
    /// documents instead of the triggers' work on every insert (Batting's
    /// `.import` with six field columns: 1.0 s through the triggers, 0.64 s this
    /// way, 0.33 s without field columns). All in one transaction: if `body`
    /// throws, nothing changes.
    package func loadingWithFieldColumnsAfter<Result>(_ body: () throws -> Result) throws -> Result {
        try access {
            try store.writeAccess { db in
                try store.withinTransaction(db) { try loadingWithFieldColumnsAfter(in: db, body) }
            }
        }
    }

    /// ``loadingWithFieldColumnsAfter(_:)`` inside the caller's transaction.
    func loadingWithFieldColumnsAfter<Result>(in db: Database, _ body: () throws -> Result) throws -> Result {
        guard let columns = try Catalog.fieldColumns(of: name, in: db) else { return try body() }
        if try store.knownCollection(named: name, in: db) != nil {
            guard try Catalog.readableFieldColumns(of: name, in: db) != nil,
                  try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM \(quoteIdentifier(name)) LIMIT 1)") == 0
            else { return try body() }
        }
        // Forgotten while `body` runs (a collection it creates is made without
        // them), recorded and made again after.
        try Catalog.dropFieldColumns(columns, in: db)
        let result = try body()
        _ = try replaceFieldColumns(nil, with: columns.fields, in: db)
        return result
    }

    /// Replaces `old` (if any) by field columns on `fields` (each once; none: no
    /// columns) under a new name, recorded, and made from the documents when the
    /// collection's table exists. Returns the new columns.
    func replaceFieldColumns(_ old: FieldColumnsInfo?, with fields: [FieldPath], in db: Database) throws -> FieldColumnsInfo? {
        var unique: [FieldPath] = []
        for field in fields where !unique.contains(field) { unique.append(field) }
        // Named before the old ones are forgotten: a new name each time.
        let newName = try Catalog.nextFieldColumnsName(in: db)
        if let old { try Catalog.dropFieldColumns(old, in: db) }
        guard !unique.isEmpty else { return nil }
        let info = try store.knownCollection(named: name, in: db)
        if info == nil { try Catalog.refuseNameClash(name, in: db) }
        let columns = FieldColumnsInfo(name: newName, collection: name, fields: unique)
        try Catalog.recordFieldColumns(columns, in: db)
        guard let info else { return columns }
        try diagnosingDamage(in: db) {
            for statement in try FieldColumnsSQL.create(columns, keyKind: info.keyKind) { try db.execute(sql: statement) }
        }
        return columns
    }

    /// How many documents an `insert(contentsOf:)` must bring for an empty
    /// collection's field columns to be made after them rather than kept by
    /// their triggers row by row (the check costs a query).
    static var bulkLoadSize: Int { 1000 }

    /// Replaces the field columns by those `fields` returns for the current ones
    /// (none when empty), in one transaction: a new table under a new name,
    /// filled from the documents. Returns the new columns.
    private func changingFieldColumns(_ fields: (FieldColumnsInfo?) -> [FieldPath]) throws -> FieldColumnsInfo? {
        try access {
            try store.writeAccess { db in
                try store.withinTransaction(db) {
                    let existing = try Catalog.fieldColumns(of: name, in: db)
                    let wanted = fields(existing)
                    // The same fields, kept by their triggers: nothing to do. (Columns that
                    // lost their triggers are made again.)
                    if let existing, existing.fields == wanted, try Catalog.readableFieldColumns(of: name, in: db) != nil {
                        return existing
                    }
                    return try replaceFieldColumns(existing, with: wanted, in: db)
                }
            }
        }
    }
}

extension DocumentCollection where Model: QueryableDocument {
    /// Keeps these fields' values in columns beside the documents, named by key
    /// paths into the model's fields (see ``createFieldColumns(on:)-(_)``).
    ///
    ///     try batting.createFieldColumns(on: \.HR, \.playerID)
    @discardableResult
    public func createFieldColumns<each Value>(on fields: repeat KeyPath<Model.Fields, DocumentField<each Value>>) throws -> FieldColumnsInfo {
        try createFieldColumns(on: Self.paths(repeat each fields))
    }

    /// Stops keeping these fields in columns. Returns whether any had one.
    @discardableResult
    public func dropFieldColumns<each Value>(on fields: repeat KeyPath<Model.Fields, DocumentField<each Value>>) throws -> Bool {
        try dropFieldColumns(on: Self.paths(repeat each fields))
    }
}
