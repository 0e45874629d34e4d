extension CollectionQuery {
    /// The selected documents, decoded, in the query's order.
    ///
    /// - Throws: ``DocStoreError`` for store failures, undecodable documents and
    ///   invalid queries.
    public func fetch() throws -> [Model] {
        var models: [Model] = []
        try forEach { models.append($0) }
        return models
    }

    /// Calls `body` with each selected document, in the query's order, streaming:
    /// memory stays flat however many documents match.
    public func forEach(_ body: (Model) throws -> Void) throws {
        guard !stages.isEmpty else { return try collection.forEach(documentQuery(), body) }
        try collection.forEachRow(queryPipeline()) { row in
            do {
                try body(try DocumentCodec.decode(Model.self, from: row))
            } catch let error as DocumentCodingError {
                throw DocStoreError.decodingFailed(collection: collection.name, key: nil, codingPath: "", reason: error.reason)
            }
        }
    }

    /// The first selected document in the query's order, or `nil` when none is.
    public func first() throws -> Model? {
        guard !stages.isEmpty else { return try collection.first(documentQuery()) }
        return try limit(1).fetch().first
    }

    /// The number of selected documents (limit and offset apply).
    public func count() throws -> Int {
        guard !stages.isEmpty else { return try collection.count(documentQuery()) }
        return try collection.count(queryPipeline())
    }

    /// Whether the query selects at least one document.
    public func exists() throws -> Bool {
        try collection.exists(documentQuery())
    }

    /// The keys of the selected documents, in the query's order. To use them in
    /// another query, pass the query itself: `$0.teamId.in(teams.filter { … })`
    /// runs as one statement.
    public func keys() throws -> [DocumentKey] {
        try collection.keys(documentQuery())
    }

    /// Deletes the selected documents, in one statement. Returns how many.
    ///
    ///     try players.filter { $0.teamId == 30 }.delete()
    @discardableResult
    public func delete() throws -> Int {
        try collection.delete(documentQuery())
    }

    /// Changes the selected documents, in one statement. Returns how many changed.
    ///
    ///     try players.filter { $0.teamId == 30 }.update {
    ///         $0.teamId.set(to: 31)
    ///         $0.stats.games.increment(by: 1)
    ///         $0.nickname.remove()
    ///     }
    ///
    /// A block without changes changes nothing and returns 0.
    ///
    /// - Throws: ``DocStoreError/invalidQuery(collection:field:reason:)`` when a value has
    ///   no JSON form.
    @discardableResult
    public func update(
        @UpdateBuilder<Model.Fields> _ body: (Model.Fields) -> [DocumentFieldUpdate]
    ) throws -> Int {
        let updates = try fieldUpdates(body)
        if updates.isEmpty { return 0 }
        return try collection.update(documentQuery(), updates)
    }

    /// How the query runs: its SQL, bindings and SQLite's plan.
    public func explain() throws -> QueryExplanation {
        guard !stages.isEmpty else { return try collection.explain(documentQuery()) }
        return try collection.explain(queryPipeline())
    }
}

extension DocumentCollection where Model: QueryableDocument {
    /// The number of documents that satisfy `condition`: `players.count { $0.nickname == nil }`.
    public func count(
        @ConditionBuilder<Model.Fields> where condition: (Model.Fields) -> [DocumentCondition]
    ) throws -> Int {
        try filter(condition).count()
    }

    /// The first document, in key order, that satisfies `condition`.
    public func first(
        @ConditionBuilder<Model.Fields> where condition: (Model.Fields) -> [DocumentCondition]
    ) throws -> Model? {
        try filter(condition).first()
    }

    /// Whether some document satisfies `condition`.
    public func contains(
        @ConditionBuilder<Model.Fields> where condition: (Model.Fields) -> [DocumentCondition]
    ) throws -> Bool {
        try filter(condition).exists()
    }

    /// Deletes the documents that satisfy `condition`, in one statement. Returns how many.
    @discardableResult
    public func delete(
        @ConditionBuilder<Model.Fields> where condition: (Model.Fields) -> [DocumentCondition]
    ) throws -> Int {
        try filter(condition).delete()
    }
}
