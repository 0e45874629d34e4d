@_spi(Backends) import DocStore

/// Field changes for models that evolve, as on SQLite: each rewrites the
/// documents it concerns in one `UPDATE` of their jsonb, without decoding them,
/// and keeps the indexes in step. All or nothing: when a document can't be
/// changed, none is, and the error names it.
extension PostgresCollection {
    /// Renames a field in every document that has it (null values included).
    /// An index on the field, or on a field inside it, follows it: it is dropped
    /// and built again on the new path, in the same transaction.
    ///
    ///     try await players.renameField(FieldPath("nickName"), to: FieldPath("nickname"))
    ///
    /// - Throws: ``DocStore/DocStoreError/invalidUpdate(collection:field:key:reason:)``
    ///   naming the first document that has both fields, or whose new path goes
    ///   through a value that is not an object;
    ///   ``DocStore/DocStoreError/invalidQuery(collection:field:reason:)`` for
    ///   paths that overlap, the key `id`, or array positions in `new`.
    @discardableResult
    public func renameField(_ old: FieldPath, to new: FieldPath) async throws -> FieldChangeSummary {
        try BackendSupport.checkFieldMove(from: old, to: new, collection: name, keyed: isKeyedById)
        let change = "rename \(old) to \(new)"
        return try await changingFields(change) { session, compiler, summary in
            if let compiler { try await refuseOverwrites(moving: old, to: new, compiler: compiler, in: session) }
            let following = try await indexes(in: session).filter { BackendSupport.index($0, covers: old) }
            // Dropped before the update, so PostgreSQL doesn't maintain what goes anyway.
            for index in following { try await dropBuilt(index, in: session) }
            if let compiler {
                summary.documentsChanged = try await session.rows(try compiler.renameField(old, to: new), collection: name).count
            }
            for index in following {
                let moved = BackendSupport.index(index, movedFrom: old, to: new)
                if try await indexes(in: session).contains(where: { $0.name != index.name && $0.fields == moved.fields }) {
                    try await session.rows(PostgresStoreSQL.forgetIndex, [.text(index.name)], collection: name)
                    summary.droppedIndexes.append(index)
                    continue
                }
                try await session.rows(PostgresStoreSQL.moveIndex, [.text(index.name), .text(Self.fieldsJSON(moved.fields))], collection: name)
                if compiler != nil { try await build(moved, in: session) }
                // Only the SQL's shape follows this (see indexedPaths): kept on a rollback, it costs nothing wrong.
                store.indexedPaths.withLock { $0[name, default: []].formUnion(moved.fields) }
                summary.movedIndexes.append(moved)
            }
            try await remakeSearchIndexes({ BackendSupport.searchFields($0, renaming: old, to: new) }, built: compiler != nil,
                                          in: session, summary: &summary)
        }
    }

    /// Search indexes follow a renamed or removed field, as on a file store:
    /// each on it is dropped and made again on `fields`' answer.
    private func remakeSearchIndexes(_ fields: ([FieldPath]) -> [FieldPath]?, built: Bool, in session: PostgresSession,
                                     summary: inout FieldChangeSummary) async throws {
        for index in try await searchIndexes(in: session) {
            guard let remaining = fields(index.fields) else { continue }
            try await session.rows(PostgresSearchSQL.forgetIndex, [.text(index.name)], collection: name)
            for pgName in PostgresSearchSQL.indexNames(index) {
                try await session.rows(PostgresStoreSQL.dropIndex(pgName), [], collection: name)
            }
            guard !remaining.isEmpty, try await !searchIndexes(in: session).contains(where: { $0.fields == remaining }) else {
                summary.droppedSearchIndexes.append(index)
                continue
            }
            let paths = JSONValue.array(remaining.map { .array($0.components.map(\.jsonValue)) })
            let recorded = try await session.rows(PostgresSearchSQL.recordIndex, [.text(name), .text(BackendSupport.serialize(paths))],
                                                  collection: name)
            let remade = SearchIndexInfo(name: try recorded.first?.decode(String.self) ?? "", collection: name, fields: remaining)
            if built {
                for statement in try PostgresSearchSQL.create(remade) { try await session.rows(statement, [], collection: name) }
            }
            summary.movedSearchIndexes.append(remade)
        }
    }

    /// Copies a field to a new path in every document that has it. Indexes are unchanged.
    ///
    /// - Throws: as ``renameField(_:to:)``.
    @discardableResult
    public func copyField(_ source: FieldPath, to target: FieldPath) async throws -> FieldChangeSummary {
        try BackendSupport.checkFieldMove(from: source, to: target, collection: name, keyed: isKeyedById)
        return try await changingFields("copy \(source) to \(target)") { session, compiler, summary in
            guard let compiler else { return }
            try await refuseOverwrites(moving: source, to: target, compiler: compiler, in: session)
            summary.documentsChanged = try await session.rows(try compiler.copyField(source, to: target), collection: name).count
        }
    }

    /// Removes a field from every document that has it. Indexes on the field (or
    /// on a field inside it) are dropped, and listed in the summary.
    ///
    /// - Throws: ``DocStore/DocStoreError/invalidQuery(collection:field:reason:)`` for the key `id`.
    @discardableResult
    public func removeField(_ path: FieldPath) async throws -> FieldChangeSummary {
        try BackendSupport.checkFieldNotKey(path, collection: name, keyed: isKeyedById)
        return try await changingFields("remove \(path)") { session, compiler, summary in
            for index in try await indexes(in: session) where BackendSupport.index(index, covers: path) {
                try await session.rows(PostgresStoreSQL.forgetIndex, [.text(index.name)], collection: name)
                try await dropBuilt(index, in: session)
                summary.droppedIndexes.append(index)
            }
            if let compiler {
                summary.documentsChanged = try await session.rows(try compiler.removeField(path), collection: name).count
            }
            try await remakeSearchIndexes({ BackendSupport.searchFields($0, removing: path) }, built: compiler != nil,
                                          in: session, summary: &summary)
        }
    }

    /// Sets a field to `value` in every document where it is missing or null (both
    /// are `nil` to Swift), so that a new non-optional property decodes.
    ///
    /// - Throws: ``DocStore/DocStoreError/invalidUpdate(collection:field:key:reason:)``
    ///   naming the first document whose path goes through a value that is not an
    ///   object; ``DocStore/DocStoreError/uniqueConstraint(collection:fields:key:)``
    ///   when a unique index refuses the value.
    @discardableResult
    public func setDefault(_ path: FieldPath, to value: JSONValue) async throws -> FieldChangeSummary {
        try BackendSupport.checkFieldDefault(value, at: path, collection: name, keyed: isKeyedById)
        return try await changingFields(BackendSupport.setDefaultChange(path, value)) { session, compiler, summary in
            guard let compiler else { return }
            try await refuseBlockedParents(writing: path, where: .isNull(path), compiler: compiler, in: session)
            try await refuseRespellings(writing: [path], DocumentQuery(.isNull(path)), compiler: compiler, kind: keyKind(), in: session)
            summary.documentsChanged = try await mappingUniqueViolation {
                try await session.rows(try compiler.setDefault(path, value), collection: name).count
            }
        }
    }

    // MARK: Shared steps

    /// Whether the `id` member is the document's key (it is, but for models without an `id`).
    var isKeyedById: Bool {
        if case .generated = keySource { false } else { true }
    }

    /// Runs a field change in the caller's transaction or one of its own, with
    /// a compiler (nil when the collection doesn't exist yet) and the summary to fill.
    func changingFields(
        _ change: String,
        _ body: (PostgresSession, PostgresCompiler?, inout FieldChangeSummary) async throws -> Void
    ) async throws -> FieldChangeSummary {
        try await inTransaction { session in
            // One field change of a collection at a time, and no other write to
            // it until this one commits. Two at once deadlocked, each holding
            // rows the other's UPDATE wanted; and a document written between
            // the checks below and the UPDATE escaped them (a rename would move
            // `a` onto a `z` the check never saw). The schema lock first, in the
            // order index changes take it.
            try await session.rows(PostgresStoreSQL.lockCollectionSchema, [.text(name)], collection: name)
            let compiler = try await compiler(reading: [])
            if compiler != nil { try await session.rows(PostgresStoreSQL.lockForRewrite(name), [], collection: name) }
            var summary = BackendSupport.fieldChangeSummary(collection: name, change: change)
            try await body(session, compiler, &summary)
            return summary
        }
    }

    /// Refuses a rename or copy that would overwrite a value, or write through
    /// one that is not an object.
    private func refuseOverwrites(moving source: FieldPath, to target: FieldPath, compiler: PostgresCompiler,
                                  in session: PostgresSession) async throws {
        if let key = try await firstKey(try compiler.firstKey(where: .and([.exists(source), .exists(target)])), in: session) {
            throw BackendSupport.fieldOverwriteError(moving: source, to: target, key: key, collection: name)
        }
        try await refuseBlockedParents(writing: target, where: .exists(source), compiler: compiler, in: session)
        try await refuseRespellings(writing: [target], DocumentQuery(.exists(source)), compiler: compiler, kind: keyKind(), in: session)
        if let room = BackendSupport.movedValueRoom(from: source, to: target) {
            for row in try await session.rows(try compiler.longContainers(at: source, minimumLength: 2 * (room + 1)), collection: name) {
                let cells = row.makeRandomAccess()
                if BackendSupport.nestingDepth(ofJSON: try cells[1].decode(String.self).utf8) > room {
                    throw BackendSupport.fieldTooDeepError(moving: source, to: target, key: try decodeKey(cells[0], kind: keyKind()), collection: name)
                }
            }
        }
    }

    private func refuseBlockedParents(writing target: FieldPath, where condition: Condition, compiler: PostgresCompiler,
                                      in session: PostgresSession) async throws {
        guard let statement = try compiler.firstBlockedKey(writing: target, where: condition),
              let key = try await firstKey(statement, in: session) else { return }
        throw BackendSupport.blockedParentError(writing: target, key: key, collection: name)
    }

    private func firstKey(_ statement: CompiledStatement, in session: PostgresSession) async throws -> DocumentKey? {
        guard let row = try await session.rows(statement, collection: name).first else { return nil }
        return try decodeKey(row.makeRandomAccess()[0], kind: keyKind())
    }

    /// Drops the PostgreSQL indexes a DocStore index is built as (its catalog row stays).
    private func dropBuilt(_ index: IndexInfo, in session: PostgresSession) async throws {
        for built in BackendSupport.postgresIndexNames(index.name) {
            try await session.rows(PostgresStoreSQL.dropIndex(built), [], collection: name)
        }
    }

    /// Index fields as the index catalog records them: a JSON array of paths.
    static func fieldsJSON(_ fields: [FieldPath]) -> String {
        BackendSupport.serialize(.array(fields.map { .array($0.components.map(\.jsonValue)) }))
    }
}
