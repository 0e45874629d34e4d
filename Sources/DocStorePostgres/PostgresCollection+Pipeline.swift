@_spi(Backends) import DocStore
import PostgresNIO

extension PostgresCollection {
    /// The rows of a pipeline (groups, joins, computed values), in its order,
    /// as JSON objects — the same rows as ``DocStore/DocumentCollection/rows(_:)``
    /// on SQLite: a group's keys at their paths and its aggregates by name; a
    /// select's values by name; documents, with joined documents as members.
    /// Missing values are `null`. (jsonb orders an object's members its own
    /// way: by length, then bytes.)
    ///
    /// - Throws: ``DocStore/DocStoreError/invalidQuery(collection:field:reason:)``
    ///   for a path the rows don't have, an integer sum or computation that
    ///   overflows 64 bits.
    public func rows(_ pipeline: QueryPipeline) async throws -> [JSONValue] {
        let (paths, rows) = try await rowsAndPaths(pipeline)
        return rows.map { BackendSupport.row(paths: paths, values: $0) }
    }

    /// The parts of each row of the pipeline (documents, joined documents,
    /// columns), in the order of its entries.
    func rowParts(_ pipeline: QueryPipeline) async throws -> [[JSONValue]] {
        try await rowsAndPaths(pipeline).rows
    }

    private func rowsAndPaths(_ pipeline: QueryPipeline) async throws -> (paths: [FieldPath], rows: [[JSONValue]]) {
        try await followingDrops(reading: PostgresCompiler.collections(of: pipeline)) { try await rowsAndPathsOnce(pipeline) }
    }

    private func rowsAndPathsOnce(_ pipeline: QueryPipeline) async throws -> (paths: [FieldPath], rows: [[JSONValue]]) {
        guard let compiler = try await compiler(reading: PostgresCompiler.collections(of: pipeline), searching: PostgresCompiler.searches(pipeline)) else {
            _ = try PostgresCompiler(collection: name, keyKinds: [name: .integer]).rows(pipeline)  // refuses what SQLite refuses
            return ([], [])
        }
        let (statement, paths) = try compiler.rows(pipeline)
        let rows = try await mappingOverflow(pipeline) { try await session.rows(statement, collection: name) }
        return (paths, try rows.map(rowValues))
    }

    /// A pipeline row's values: each cell is JSON text (NULL when missing),
    /// parsed from the row's bytes where they lie (no String, no copy).
    private func rowValues(_ row: PostgresRow) throws -> [JSONValue] {
        var values: [JSONValue] = []
        for cell in row.makeRandomAccess().dropFirst() {
            guard let bytes = cell.bytes else {
                values.append(.null)
                continue
            }
            values.append(try bytes.withUnsafeReadableBytes { try BackendSupport.parse($0, collection: name, key: nil) })
        }
        return values
    }

    /// Calls `body` with each row of a pipeline, in its order, as the server
    /// sends them: the rows of ``rows(_:)``, in the memory of one (a join of
    /// a million rows is never held). Throwing from `body` stops the query.
    public func forEachRow(_ pipeline: QueryPipeline, _ body: (JSONValue) throws -> Void) async throws {
        try await followingDropsUntilDelivering(reading: PostgresCompiler.collections(of: pipeline)) { delivering in
            try await forEachRowOnce(pipeline) { row in
                delivering()
                try body(row)
            }
        }
    }

    private func forEachRowOnce(_ pipeline: QueryPipeline, _ body: (JSONValue) throws -> Void) async throws {
        guard let compiler = try await compiler(reading: PostgresCompiler.collections(of: pipeline), searching: PostgresCompiler.searches(pipeline)) else {
            _ = try PostgresCompiler(collection: name, keyKinds: [name: .integer]).rows(pipeline)
            return
        }
        let (statement, paths) = try compiler.rows(pipeline)
        try await mappingOverflow(pipeline) {
            try await session.forEachRow(statement.sql, statement.bindings, collection: name) { row in
                try body(BackendSupport.row(paths: paths, values: try rowValues(row)))
            }
        }
    }

    /// The number of rows of a pipeline.
    public func count(_ pipeline: QueryPipeline) async throws -> Int {
        try await followingDrops(reading: PostgresCompiler.collections(of: pipeline)) { try await countOnce(pipeline) }
    }

    private func countOnce(_ pipeline: QueryPipeline) async throws -> Int {
        guard let compiler = try await compiler(reading: PostgresCompiler.collections(of: pipeline), searching: PostgresCompiler.searches(pipeline)) else {
            _ = try PostgresCompiler(collection: name, keyKinds: [name: .integer]).rows(pipeline)
            return 0
        }
        let statement = try compiler.count(pipeline)
        let rows = try await mappingOverflow(pipeline) { try await session.rows(statement, collection: name) }
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }

    /// The SQL ``rows(_:)`` runs for a pipeline, its bindings and PostgreSQL's plan.
    public func explain(_ pipeline: QueryPipeline) async throws -> QueryExplanation {
        guard let compiler = try await compiler(reading: PostgresCompiler.collections(of: pipeline), searching: PostgresCompiler.searches(pipeline)) else {
            return try notYet(PostgresCompiler(collection: name, keyKinds: [name: .integer]).rows(pipeline).statement)
        }
        return try await explain(compiler.rows(pipeline).statement)
    }

    /// The SQL ``fetch(_:)`` runs for a query, its bindings and PostgreSQL's plan.
    public func explain(_ query: DocumentQuery) async throws -> QueryExplanation {
        guard let compiler = try await compiler(for: query.condition, relevance: query.relevance != nil) else {
            return try notYet(PostgresCompiler(collection: name, keyKinds: [name: .integer]).documents(query))
        }
        return try await explain(compiler.documents(query))
    }

    private func explain(_ statement: CompiledStatement) async throws -> QueryExplanation {
        let rows = try await session.rows("EXPLAIN " + statement.sql, statement.bindings, collection: name)
        let plan = try rows.map { try $0.decode(String.self) }
        return QueryExplanation(sql: statement.sql, bindings: statement.bindings, plan: plan)
    }

    private func notYet(_ statement: CompiledStatement) -> QueryExplanation {
        QueryExplanation(sql: statement.sql, bindings: statement.bindings,
                         plan: ["(collection \"\(name)\" does not exist yet: no rows)"])
    }

    /// Changes the documents a query selects, in one statement (and the checks
    /// before it, in one transaction); returns how many it changed.
    ///
    /// - Throws: ``DocStore/DocStoreError/invalidUpdate(collection:field:key:reason:)``
    ///   when a `set` or an increment meets a part of its path that can't hold the next (see
    ///   ``DocStore/PostgresCompiler/blockedSets(at:after:_:)``), or an increment
    ///   something other than a number;
    ///   ``DocStore/DocStoreError/numericOverflow(collection:field:key:reason:)``
    ///   when it would go past what DocStore's numbers hold exactly.
    @discardableResult
    public func update(_ query: DocumentQuery, _ updates: [FieldUpdate]) async throws -> Int {
        try UpdateRules.check(updates, collection: name, keyed: isKeyedById)
        try BackendSupport.refuseCutStrings(query, collection: name, verb: "update")
        return try await followingDrops(reading: PostgresCompiler.subqueryCollections(of: query.condition)) {
            try await updateOnce(query, updates)
        }
    }

    private func updateOnce(_ query: DocumentQuery, _ updates: [FieldUpdate]) async throws -> Int {
        guard let compiler = try await compiler(for: query.condition, relevance: query.relevance != nil) else {
            _ = try PostgresCompiler(collection: name, keyKinds: [name: .integer]).update(updates, query)
            return 0
        }
        let statement = try compiler.update(updates, query)
        let kind = keyKind()
        let run = { (session: PostgresSession) async throws -> Int in
            try await session.rows(PostgresStoreSQL.lockCollectionUpdates, [.text(name)], collection: name)
            // A body that is not an object takes no change (a damaged document).
            if updates.contains(where: { $0.writtenPath != nil }),
               let row = try await session.rows(compiler.firstNonObject(query), collection: name).first {
                throw DocStoreError.damagedDocuments(collection: name, keys: [try decodeKey(row.makeRandomAccess()[0], kind: kind)])
            }
            try await refuseRespellings(writing: updates.compactMap(\.writtenPath), query, compiler: compiler, kind: kind, in: session)
            for (index, update) in updates.enumerated() {
                guard let path = update.writtenPath,
                      let blocked = try compiler.blockedSets(at: path, after: Array(updates[..<index]), query),
                      let row = try await session.rows(blocked, collection: name).first?.makeRandomAccess() else { continue }
                let (length, type) = (try row[1].decode(Int.self), try row[2].decode(String.self))
                throw DocStoreError.invalidUpdate(collection: name, field: path.description, key: try decodeKey(row[0], kind: kind),
                                                  reason: PostgresCompiler.blockedSetReason(path, length: length, type: type))
            }
            for case .increment(let path, let amount) in updates {
                if let row = try await session.rows(compiler.nonNumbers(at: path, query), collection: name).first {
                    throw DocStoreError.invalidUpdate(collection: name, field: path.description, key: try decodeKey(row.makeRandomAccess()[0], kind: kind),
                                                      reason: "an increment needs a number, a missing field or null")
                }
                // It adds in a Double: a number a Double can't hold would be
                // stored as the rounded sum, as on a file store (helper-51).
                for row in try await session.rows(compiler.longNumbers(at: path, query), collection: name) {
                    let cells = row.makeRandomAccess()
                    guard let number = JSONNumberLiteral(try cells[1].decode(String.self)), number.isReadRounded else { continue }
                    throw DocStoreError.invalidUpdate(
                        collection: name, field: path.description, key: try decodeKey(cells[0], kind: kind),
                        reason: "it holds \(number.text), a number a Double can't hold: an increment adds to it as \(number.doubleValue) and would store the rounded sum (set the field instead)")
                }
                if let row = try await session.rows(compiler.overflows(at: path, by: amount, query), collection: name).first {
                    throw DocStoreError.numericOverflow(
                        collection: name, field: path.description, key: try decodeKey(row.makeRandomAccess()[0], kind: kind),
                        reason: UpdateRules.overflowReason(adding: amount))
                }
            }
            return try await mappingUniqueViolation { try await session.rows(statement, collection: name).count }
        }
        if let transaction { return try await run(transaction.session) }
        return try await store.ownTransaction { try await run($0.session) }
    }

    /// Overflow reported by PostgreSQL, as an error naming the collection and fields.
    private func mappingOverflow<T>(_ pipeline: QueryPipeline, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PostgresStoreError {
            // 22003: numeric value out of range.
            guard case .server(let state, let message, _, _, _) = error, state == "22003" else { throw error }
            let overflow = PostgresCompiler.overflow(inMessage: message)
            guard overflow.arithmetic || overflow.sum else { throw error }
            throw BackendSupport.pipelineOverflow(pipeline, collection: name, sum: overflow.sum)
        }
    }
}

extension PostgresCollection {
    /// Refuses a write of any of `paths` into a selected document that spells
    /// one of their names otherwise (``DocStore/NameSpelling``), as a file
    /// store does. Reads the documents only for paths with a name that has
    /// another spelling at all.
    func refuseRespellings(writing paths: [FieldPath], _ query: DocumentQuery, compiler: PostgresCompiler, kind: KeyKind?,
                           in session: PostgresSession) async throws {
        let paths = paths.filter(NameSpelling.mayBeSpelledOtherwise)
        guard !paths.isEmpty else { return }
        for row in try await session.rows(compiler.documents(query), collection: name) {
            let cells = row.makeRandomAccess()
            let key = try decodeKey(cells[0], kind: kind)
            guard let bytes = cells[1].bytes else { continue }
            for path in paths {
                if let refusal = bytes.withUnsafeReadableBytes({ NameSpelling.refusal(writing: path, into: $0, key: key, collection: name) }) {
                    throw refusal
                }
            }
        }
    }
}
