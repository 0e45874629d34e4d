import GRDB

/// Field changes for models that evolve: each rewrites the documents it concerns
/// in one `UPDATE` statement, without decoding them, and keeps the indexes in
/// step. All or nothing: when a document can't be changed, none is, and the
/// error names it. Inside a ``DocumentMigrator`` step they run in the step's
/// transaction (see ``MigrationCollection``).
extension DocumentCollection {
    /// Renames a field in every document that has it (null values included).
    /// An index on the field, or on a field inside it, follows it: it is dropped
    /// and created again on the new path, in the same transaction.
    ///
    ///     try players.renameField(FieldPath("nickName"), to: FieldPath("nickname"))
    ///
    /// - Throws: ``DocStoreError/invalidUpdate(collection:field:key:reason:)`` naming
    ///   the first document that has both fields (renaming would overwrite one), or
    ///   whose new path goes through a value that is not an object;
    ///   ``DocStoreError/invalidQuery(collection:field:reason:)`` for paths that
    ///   overlap, the key `id`, array positions in `new`, or names SQLite's JSON
    ///   paths can't spell. Nothing is changed then.
    @discardableResult
    public func renameField(_ old: FieldPath, to new: FieldPath) throws -> FieldChangeSummary {
        try checkMove(from: old, to: new)
        let change = "rename \(old) to \(new)"
        return try changingFields(change, columns: { FieldChangeRules.searchFields($0, renaming: old, to: new) }) { db, info, compiler in
            var summary = FieldChangeSummary(collection: name, change: change, documentsChanged: 0)
            if let info { try refuseOverwrites(moving: old, to: new, info: info, compiler: compiler, in: db) }
            let following = try Catalog.indexes(of: name, in: db).filter { FieldChangeRules.covers($0, old) }
            // Dropped before the update, so SQLite doesn't maintain what goes anyway.
            for index in following { try db.execute(sql: "DROP INDEX IF EXISTS \(quoteIdentifier(index.name))") }
            if let info {
                summary.documentsChanged = try runFieldChange(compiler.renameField(old, to: new), paths: [old, new], where: .exists(old),
                                                              removing: true, writing: new, info: info, compiler: compiler, in: db)
            }
            for index in following {
                let moved = FieldChangeRules.moved(index, from: old, to: new)
                if try Catalog.indexes(of: name, in: db).contains(where: { $0.name != index.name && $0.fields == moved.fields }) {
                    try Catalog.dropIndex(named: index.name, in: db)
                    summary.droppedIndexes.append(index)
                    continue
                }
                try Catalog.updateIndexFields(named: index.name, to: moved.fields, in: db)
                if info != nil { try diagnosingDamage(in: db) { try db.execute(sql: try IndexSQL.create(moved)) } }
                summary.movedIndexes.append(moved)
            }
            try remakeSearchIndexes({ FieldChangeRules.searchFields($0, renaming: old, to: new) }, info: info, in: db, summary: &summary)
            return summary
        }
    }

    /// Search indexes follow a renamed or removed field: each on it (or inside
    /// it) is dropped and made again on `fields`' answer, over the documents as
    /// changed (left on the old path, searching the new one was an error and the
    /// old field's words were still found).
    private func remakeSearchIndexes(_ fields: ([FieldPath]) -> [FieldPath]?, info: CollectionInfo?, in db: Database,
                                     summary: inout FieldChangeSummary) throws {
        for index in try Catalog.searchIndexes(of: name, in: db) {
            guard let remaining = fields(index.fields) else { continue }
            try Catalog.dropSearchIndex(index, in: db)
            guard !remaining.isEmpty, try !Catalog.searchIndexes(of: name, in: db).contains(where: { $0.fields == remaining }) else {
                summary.droppedSearchIndexes.append(index)
                continue
            }
            let remade = SearchIndexInfo(name: try Catalog.nextSearchIndexName(in: db), collection: name, fields: remaining)
            try Catalog.recordSearchIndex(remade, in: db)
            if let info {
                try diagnosingDamage(in: db) {
                    for statement in try SearchIndexSQL.create(remade, keyKind: info.keyKind) { try db.execute(sql: statement) }
                }
            }
            summary.movedSearchIndexes.append(remade)
        }
    }

    /// Copies a field to a new path in every document that has it. Indexes are
    /// unchanged.
    ///
    /// - Throws: as ``renameField(_:to:)``.
    @discardableResult
    public func copyField(_ source: FieldPath, to target: FieldPath) throws -> FieldChangeSummary {
        try checkMove(from: source, to: target)
        let change = "copy \(source) to \(target)"
        return try changingFields(change) { db, info, compiler in
            var summary = FieldChangeSummary(collection: name, change: change, documentsChanged: 0)
            guard let info else { return summary }
            try refuseOverwrites(moving: source, to: target, info: info, compiler: compiler, in: db)
            summary.documentsChanged = try runFieldChange(compiler.copyField(source, to: target), paths: [target], where: .exists(source),
                                                          writing: target, info: info, compiler: compiler, in: db)
            return summary
        }
    }

    /// Removes a field from every document that has it. Indexes on the field (or
    /// on a field inside it) are dropped, and listed in the summary.
    ///
    /// - Throws: ``DocStoreError/invalidQuery(collection:field:reason:)`` for the
    ///   key `id` or names SQLite's JSON paths can't spell.
    @discardableResult
    public func removeField(_ path: FieldPath) throws -> FieldChangeSummary {
        try checkNotKey(path)
        let change = "remove \(path)"
        return try changingFields(change, columns: { FieldChangeRules.searchFields($0, removing: path) }) { db, info, compiler in
            var summary = FieldChangeSummary(collection: name, change: change, documentsChanged: 0)
            for index in try Catalog.indexes(of: name, in: db) where FieldChangeRules.covers(index, path) {
                try Catalog.dropIndex(named: index.name, in: db)
                summary.droppedIndexes.append(index)
            }
            if let info {
                summary.documentsChanged = try runFieldChange(compiler.removeField(path), paths: [path], where: .exists(path),
                                                              removing: true, writing: nil, info: info, compiler: compiler, in: db)
            }
            try remakeSearchIndexes({ FieldChangeRules.searchFields($0, removing: path) }, info: info, in: db, summary: &summary)
            return summary
        }
    }

    /// Sets a field to `value` in every document where it is missing or null (both
    /// are `nil` to Swift), so that a new non-optional property decodes.
    ///
    /// - Throws: ``DocStoreError/invalidUpdate(collection:field:key:reason:)`` naming
    ///   the first document whose path goes through a value that is not an object;
    ///   ``DocStoreError/uniqueConstraint(collection:fields:key:)`` when a unique
    ///   index refuses the value; ``DocStoreError/invalidQuery(collection:field:reason:)``
    ///   as ``renameField(_:to:)``.
    @discardableResult
    public func setDefault(_ path: FieldPath, to value: JSONValue) throws -> FieldChangeSummary {
        try checkTarget(path)
        try FieldChangeRules.checkDefault(value, at: path, collection: name)
        let change = FieldChangeRules.setDefaultChange(path, value)
        return try changingFields(change) { db, info, compiler in
            var summary = FieldChangeSummary(collection: name, change: change, documentsChanged: 0)
            guard let info else { return summary }
            try refuseBlockedParents(writing: path, where: .isNull(path), info: info, compiler: compiler, in: db)
            summary.documentsChanged = try runFieldChange(compiler.setDefault(path, value), paths: [path], where: .isNull(path),
                                                          writing: path, info: info, compiler: compiler, in: db)
            return summary
        }
    }

    // MARK: Shared steps

    /// Runs a field change in one transaction (a savepoint inside another), with
    /// the collection's entry (nil when it doesn't exist yet) and its compiler.
    ///
    /// Field columns are dropped before the change and made again after it, on
    /// the fields `columns` gives for theirs (nil: the same): one pass over the
    /// changed documents instead of their triggers on every updated row, and
    /// columns that follow a renamed field, as indexes do.
    func changingFields(_ change: String, columns: ([FieldPath]) -> [FieldPath]? = { _ in nil },
                        _ body: (Database, CollectionInfo?, QueryCompiler) throws -> FieldChangeSummary) throws -> FieldChangeSummary {
        try access {
            try store.writeAccess { db in
                try store.withinTransaction(db) {
                    let info = try store.knownCollection(named: name, in: db)
                    let kept = try Catalog.fieldColumns(of: name, in: db)
                    if let kept { for statement in FieldColumnsSQL.drop(kept) { try db.execute(sql: statement) } }
                    let summary = try body(db, info, queryCompiler(in: db))
                    if let kept { _ = try replaceFieldColumns(kept, with: columns(kept.fields) ?? kept.fields, in: db) }
                    return summary
                }
            }
        }
    }

    /// Runs one compiled field change over the documents matching `condition`
    /// and returns how many it changed, recording them for observers of the
    /// collection. First refuses, naming it, a document the change would
    /// rewrite that is damaged in a way SQLite's JSON functions don't see.
    func runFieldChange(_ compiled: SQLFragment, paths: [FieldPath], where condition: Condition, removing: Bool = false,
                        writing written: FieldPath?, info: CollectionInfo, compiler: QueryCompiler, in db: Database) throws -> Int {
        try refuseDamaged(DocumentQuery(condition), field: paths[0], repeatedNames: removing, info: info, compiler: compiler, in: db)
        if let written {
            try refuseRespellings(writing: [written], DocumentQuery(condition), info: info, compiler: compiler, in: db)
        }
        do {
            guard store.changeTracker.isObserved(name) else {
                try run(compiled, in: db)
                return db.changesCount
            }
            var updated: [RecordedWrite] = []
            try run(compiled + " RETURNING key, body", in: db) { row in
                updated.append(RecordedWrite(collection: name, kind: .update, key: row.key(at: 0, kind: info.keyKind),
                                             old: .unknown, new: .stored(Array(row.bytes(at: 1))), changedPaths: paths))
            }
            let count = updated.count
            store.changeTracker.record(batch: consume updated, in: db)
            return count
        } catch let failure as SQLiteFailure where failure.isUniqueViolation {
            throw uniqueViolation(failure, key: nil, in: db)
        }
    }

    /// Refuses a write of any of `paths` into a selected document that spells
    /// one of their names otherwise (``NameSpelling``). Reads the documents
    /// only for paths with a name that has another spelling at all.
    func refuseRespellings(writing paths: [FieldPath], _ query: DocumentQuery, info: CollectionInfo,
                           compiler: QueryCompiler, in db: Database) throws {
        let paths = paths.filter(NameSpelling.mayBeSpelledOtherwise)
        guard !paths.isEmpty else { return }
        try run(compiler.documents(query), in: db) { row in
            for path in paths {
                if let refusal = NameSpelling.refusal(writing: path, into: row.bytes(at: 1), key: row.key(at: 0, kind: info.keyKind),
                                                      collection: name) { throw refusal }
            }
        }
    }

    /// Refuses to rewrite a document that `check` calls damaged, or, when
    /// `repeatedNames` (the change removes a member), that holds a member name
    /// twice (helper-45). SQLite rewrote text holding invalid UTF-8 or a lone
    /// surrogate escape, and `check` then found nothing: the evidence `repair`
    /// would have kept, text unchanged, was gone. And of a name held twice
    /// (whose first member reads count) `json_remove` takes only the first, so
    /// removing or renaming the field brought the hidden one back; `json_set`
    /// sets the first, as reads see it.
    func refuseDamaged(_ query: DocumentQuery, field: FieldPath, repeatedNames: Bool, info: CollectionInfo,
                       compiler: QueryCompiler, in db: Database) throws {
        try run(compiler.documents(query), in: db) { row in
            let key = row.key(at: 0, kind: info.keyKind)
            let repeatsAName: Bool
            do {
                repeatsAName = try DocumentCodec.validate(row.bytes(at: 1))
            } catch {
                throw DocStoreError.corruptDocument(collection: name, key: key, reason: String(describing: error)
                    + "; the change would rewrite it, so nothing was changed")
            }
            if repeatsAName, repeatedNames {
                throw DocStoreError.invalidUpdate(collection: name, field: field.description, key: key, reason:
                    "the document holds a member name twice (another tool wrote it; reads take the first), and removing or moving one would bring the other back; save the document again from a read of it (which keeps the first), then run the change")
            }
        }
    }

    /// Refuses a rename or copy that would overwrite a value, or write through one
    /// that is not an object.
    private func refuseOverwrites(moving source: FieldPath, to target: FieldPath, info: CollectionInfo,
                                  compiler: QueryCompiler, in db: Database) throws {
        if let key = try firstMatchingKey(compiler.firstKey(where: .and([.exists(source), .exists(target)])), info: info, in: db) {
            throw FieldChangeRules.overwriteError(moving: source, to: target, key: key, collection: name)
        }
        try refuseBlockedParents(writing: target, where: .exists(source), info: info, compiler: compiler, in: db)
        if let room = FieldChangeRules.movedValueRoom(from: source, to: target) {
            var tooDeep: DocumentKey?
            try run(compiler.longContainers(at: source, minimumLength: 2 * (room + 1)), in: db) { row in
                if tooDeep == nil, FieldChangeRules.nestingDepth(ofJSON: row.bytes(at: 1)) > room { tooDeep = row.key(at: 0, kind: info.keyKind) }
            }
            if let tooDeep { throw FieldChangeRules.tooDeepError(moving: source, to: target, key: tooDeep, collection: name) }
        }
    }

    private func refuseBlockedParents(writing target: FieldPath, where condition: Condition, info: CollectionInfo,
                                      compiler: QueryCompiler, in db: Database) throws {
        guard let query = try compiler.firstBlockedKey(writing: target, where: condition),
              let key = try firstMatchingKey(query, info: info, in: db) else { return }
        throw FieldChangeRules.blockedParentError(writing: target, key: key, collection: name)
    }

    private func firstMatchingKey(_ compiled: SQLFragment, info: CollectionInfo, in db: Database) throws -> DocumentKey? {
        var key: DocumentKey?
        try run(compiled, in: db) { key = $0.key(at: 0, kind: info.keyKind) }
        return key
    }

    /// A rename or copy needs two distinct paths, neither inside the other.
    private func checkMove(from source: FieldPath, to target: FieldPath) throws {
        try FieldChangeRules.checkMove(from: source, to: target, collection: name, keyed: keyOf != nil)
    }

    /// A field written by a change: member names only, and never the key.
    func checkTarget(_ path: FieldPath) throws {
        try FieldChangeRules.checkTarget(path, collection: name, keyed: keyOf != nil)
    }

    /// The `id` of a keyed collection is the document's key, which never changes.
    func checkNotKey(_ path: FieldPath) throws {
        try FieldChangeRules.checkNotKey(path, collection: name, keyed: keyOf != nil)
    }
}
