import GRDB

extension DocumentCollection {
    /// Deletes the documents the query selects (its sort, limit and offset
    /// included), in one statement. Returns how many were deleted.
    ///
    /// - Throws: ``DocStoreError/invalidQuery(collection:field:reason:)``, deleting
    ///   nothing, when SQLite would compare a value other than as it is and so
    ///   could take documents the condition doesn't mean: the condition compares
    ///   with a number a `Double` can't hold or a string holding NUL, or a
    ///   document it selects (or one a subquery of it selects) holds one in a
    ///   compared field, named in the error. PostgreSQL compares them exactly.
    ///   ``DocStoreError/damagedDocuments(collection:keys:)``, deleting nothing,
    ///   naming a selected document whose body is not a JSON object (another
    ///   tool wrote it: `check` and `repair` deal with it).
    @discardableResult
    public func delete(_ query: DocumentQuery) throws -> Int {
        warnAboutUnknownFields(query.namedPaths)
        return try access {
            try store.writeAccess { db in
                let compiler = try queryCompiler(in: db)
                let compiled = try compiler.delete(query)
                guard let info = try store.knownCollection(named: name, in: db) else { return 0 }
                // The check and the delete in one transaction: no write between them.
                return try store.withinTransaction(db, unlessInsideOne: true) {
                    try refuseInexactComparisons(query, verb: "delete", in: db)
                    // A body that is not an object has every field missing, so
                    // `$0.y == nil` selected it: deleted, it was gone for good,
                    // where `repair` keeps it (helper-60).
                    if let damaged = try firstKey(compiler.firstNonObject(query), info: info, in: db) {
                        throw DocStoreError.damagedDocuments(collection: name, keys: [damaged])
                    }
                    guard store.changeTracker.isObserved(name) else {
                        try run(compiled, in: db)
                        return db.changesCount
                    }
                    // One statement, so all or nothing on its own: its rows are recorded
                    // only once it has run to the end.
                    var deleted: [RecordedWrite] = []
                    try run(compiled + " RETURNING key, body", in: db) { row in
                        deleted.append(.deleted(row.key(at: 0, kind: info.keyKind), .stored(Array(row.bytes(at: 1))), in: name))
                    }
                    let count = deleted.count
                    store.changeTracker.record(batch: consume deleted, in: db)
                    return count
                }
            }
        }
    }

    /// Changes the documents the query selects in one `UPDATE` statement
    /// (`json_set`/`json_remove`), without decoding them. Returns how many were
    /// changed. All or nothing: when one document can't be changed, none is.
    ///
    ///     try players.update(DocumentQuery(.compare(FieldPath("teamId"), .equal, 30)),
    ///                        [.increment(FieldPath("number"), 1), .remove(FieldPath("nickname"))])
    ///
    /// - `set` creates missing parent objects; `increment` treats a missing or null
    ///   field as 0.
    /// - Throws: ``DocStoreError/invalidUpdate(collection:field:key:reason:)`` when a
    ///   `set` or an increment meets a part of its path that can't hold the next (a member of a
    ///   number, string, boolean, array or null; an element of something other
    ///   than an array, or past its end), which would leave the document as it
    ///   was; or when an increment meets a value that is not a number (naming the first such
    ///   document); ``DocStoreError/uniqueConstraint(collection:fields:key:)`` naming
    ///   the first document whose change breaks a unique index;
    ///   ``DocStoreError/invalidQuery(collection:field:reason:)`` for overlapping
    ///   fields, the `id` of a keyed collection, paths SQLite can't write, or a
    ///   comparison SQLite would make inexactly (as for ``delete(_:)``);
    ///   ``DocStoreError/damagedDocuments(collection:keys:)`` naming a selected
    ///   document whose body is not a JSON object (another tool wrote it; it
    ///   takes no change: `check` and `repair` deal with it);
    ///   ``DocStoreError/nestingTooDeep(collection:key:limit:)`` when a `set` would
    ///   nest the document deeper than ``DocumentStore/maximumNestingDepth``.
    @discardableResult
    public func update(_ query: DocumentQuery, _ updates: [FieldUpdate]) throws -> Int {
        if updates.isEmpty { return 0 }
        warnAboutUnknownFields(query.namedPaths + updates.compactMap { update -> FieldPath? in if case .increment(let path, _) = update { path } else { nil } })
        try UpdateRules.check(updates, collection: name, keyed: keyOf != nil)
        return try access {
            try store.writeAccess { db in
                let compiler = try queryCompiler(in: db)
                let compiled = try compiler.update(updates, query)
                guard let info = try store.knownCollection(named: name, in: db) else { return 0 }
                return try store.withinTransaction(db) {
                    try refuseInexactComparisons(query, verb: "update", incrementing: updates.compactMap { update -> FieldPath? in
                        if case .increment(let path, _) = update { path } else { nil }
                    }, in: db)
                    // A body that is not an object takes no change (a damaged document).
                    if updates.contains(where: { $0.writtenPath != nil }),
                       let damaged = try firstKey(compiler.firstNonObject(query), info: info, in: db) {
                        throw DocStoreError.damagedDocuments(collection: name, keys: [damaged])
                    }
                    // A remove takes the first of a repeated name, bringing back
                    // the one reads hid (helper-47), as a field change's does.
                    for case .remove(let path) in updates {
                        try refuseDamaged(query, field: path, repeatedNames: true, info: info, compiler: compiler, in: db)
                        break
                    }
                    // A name the document spells otherwise would be written
                    // beside it, and reads see only the first (helper-48).
                    try refuseRespellings(writing: updates.compactMap(\.writtenPath), query, info: info, compiler: compiler, in: db)
                    for (index, update) in updates.enumerated() {
                        guard let path = update.writtenPath,
                              let blocked = try compiler.blockedSets(at: path, after: Array(updates[..<index]), query) else { continue }
                        var found: (key: DocumentKey, length: Int, type: String)?
                        try run(blocked, in: db) { found = ($0.key(at: 0, kind: info.keyKind), Int($0.int64(at: 1)), $0.string(at: 2)) }
                        if let found {
                            throw DocStoreError.invalidUpdate(collection: name, field: path.description, key: found.key,
                                                              reason: QueryCompiler.blockedSetReason(path, length: found.length, type: found.type))
                        }
                    }
                    for case .increment(let path, let amount) in updates {
                        if let offender = try firstKey(compiler.nonNumbers(at: path, query), info: info, in: db) {
                            throw DocStoreError.invalidUpdate(collection: name, field: path.description, key: offender,
                                                              reason: "an increment needs a number, a missing field or null")
                        }
                        if let offender = try firstKey(compiler.overflows(at: path, by: amount, query), info: info, in: db) {
                            throw DocStoreError.numericOverflow(
                                collection: name, field: path.description, key: offender,
                                reason: UpdateRules.overflowReason(adding: amount))
                        }
                    }
                    do {
                        guard store.changeTracker.isObserved(name) else {
                            try run(compiled, in: db)
                            return db.changesCount
                        }
                        var updated: [RecordedWrite] = []
                        try run(compiled + " RETURNING key, body", in: db) { row in
                            updated.append(RecordedWrite(
                                collection: name, kind: .update, key: row.key(at: 0, kind: info.keyKind),
                                old: .unknown, new: .stored(Array(row.bytes(at: 1))), changedPaths: updates.map(\.path)))
                        }
                        let count = updated.count
                        store.changeTracker.record(batch: consume updated, in: db)
                        return count
                    } catch let failure as SQLiteFailure where failure.isUniqueViolation {
                        // SQLite doesn't say which document broke the index: replay the
                        // update one document at a time to find it (the transaction
                        // then rolls back whatever the replay changed).
                        var keys: [DocumentKey] = []
                        try run(try compiler.keys(query), in: db) { keys.append($0.key(at: 0, kind: info.keyKind)) }
                        for key in keys {
                            let single = try compiler.update(updates, key: key)
                            let statement = try RawStatement(db, sql: single.sql, cached: false)
                            defer { statement.finish() }
                            statement.bind(single.bindings)
                            try step(statement, key: key, in: db)
                        }
                        throw uniqueViolation(failure, key: nil, in: db)
                    }
                }
            }
        }
    }

    /// The key in the first row of a compiled statement, or nil when it has none.
    private func firstKey(_ compiled: SQLFragment, info: CollectionInfo, in db: Database) throws -> DocumentKey? {
        var key: DocumentKey?
        try run(compiled, in: db) { key = $0.key(at: 0, kind: info.keyKind) }
        return key
    }

    /// Steps a compiled statement of this collection to the end, calling `row` for
    /// each row: every query, aggregate, update and delete by query runs here, so
    /// a failure caused by damaged documents is named here, once (see
    /// ``diagnosingDamage(in:_:)``).
    ///
    /// - Parameters:
    ///   - cached: Take the statement from GRDB's cache (for statements run again
    ///     and again), or prepare it for this use only (for a streaming read whose
    ///     `row` may run the same statement).
    ///   - catalog: Where a statement prepared by an earlier run of the same SQL
    ///     is taken from (out of use while this one runs), and this one kept once
    ///     it has run to the end.
    func run(_ compiled: SQLFragment, in db: Database, cached: Bool = false, reusing catalog: CompileCatalogCache.Lookups? = nil,
             _ row: (RawStatement) throws -> Void = { _ in }) throws {
        let statement = try catalog?.takeStatement(compiled.sql).map { RawStatement(prepared: $0, in: db) }
            ?? RawStatement(db, sql: compiled.sql, cached: cached)
        defer { statement.finish() }
        statement.bind(compiled.bindings)
        try diagnosingDamage(in: db) {
            while try statement.step() { try row(statement) }
        }
        if let catalog, let prepared = statement.prepared { catalog.putBack(prepared, sql: compiled.sql) }
    }
}
