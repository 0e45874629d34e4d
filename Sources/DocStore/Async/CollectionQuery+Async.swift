// The async forms of a typed query's execution methods: the same work as their
// synchronous namesakes, on the store's own threads, cancellable.

extension CollectionQuery where Model: SendableMetatype {
    /// The selected documents, decoded, in the query's order.
    ///
    ///     let roster = try await players.filter { $0.teamId == 1 }.sorted { $0.number }.fetch()
    public func fetch() async throws -> [Model] {
        try await run(.read) { try $0.fetch() }
    }

    /// The first selected document in the query's order, or `nil`.
    public func first() async throws -> Model? {
        try await run(.read) { try $0.first() }
    }

    /// The number of selected documents.
    public func count() async throws -> Int {
        try await run(.read) { try $0.count() }
    }

    /// Whether the query selects at least one document.
    public func exists() async throws -> Bool {
        try await run(.read) { try $0.exists() }
    }

    /// The keys of the selected documents, in the query's order.
    public func keys() async throws -> [DocumentKey] {
        try await run(.read) { try $0.keys() }
    }

    /// How the query runs: its SQL, bindings and SQLite's plan.
    public func explain() async throws -> QueryExplanation {
        try await run(.read) { try $0.explain() }
    }

    /// Deletes the selected documents, in one statement. Returns how many.
    @discardableResult
    public func delete() async throws -> Int {
        try await run(.write) { try $0.delete() }
    }

    /// Changes the selected documents, in one statement. Returns how many changed.
    @discardableResult
    public func update(
        @UpdateBuilder<Model.Fields> _ body: (Model.Fields) -> [DocumentFieldUpdate]
    ) async throws -> Int {
        let updates = try fieldUpdates(body)
        if updates.isEmpty { return 0 }
        let query = try documentQuery()
        return try await collection.update(query, updates)
    }

    // MARK: Aggregates

    /// The smallest value of the field among the selected documents.
    public func min<Value: Comparable & Decodable & SendableMetatype>(_ field: KeyPath<Model.Fields, DocumentField<Value>> & Sendable) async throws -> Value? {
        try await run(.read) { try $0.min(field) }
    }

    /// The largest value of the field among the selected documents.
    public func max<Value: Comparable & Decodable & SendableMetatype>(_ field: KeyPath<Model.Fields, DocumentField<Value>> & Sendable) async throws -> Value? {
        try await run(.read) { try $0.max(field) }
    }

    /// The sum of the field over the selected documents.
    public func sum<Value: Numeric & Decodable & SendableMetatype>(_ field: KeyPath<Model.Fields, DocumentField<Value>> & Sendable) async throws -> Value {
        try await run(.read) { try $0.sum(field) }
    }

    /// The average of the field over the selected documents.
    public func average<Value: Numeric & Decodable & SendableMetatype>(_ field: KeyPath<Model.Fields, DocumentField<Value>> & Sendable) async throws -> Double? {
        try await run(.read) { try $0.average(field) }
    }

    /// The distinct values of the field among the selected documents.
    public func distinctValues<Value: Decodable & SendableMetatype>(of field: KeyPath<Model.Fields, DocumentField<Value>> & Sendable) async throws -> [Value] {
        try await run(.read) { try $0.distinctValues(of: field) }
    }

    /// The smallest value of the optional field among the selected documents.
    public func min<Value: Comparable & Decodable & SendableMetatype>(_ field: KeyPath<Model.Fields, DocumentField<Value?>> & Sendable) async throws -> Value? {
        try await run(.read) { try $0.min(field) }
    }

    /// The largest value of the optional field among the selected documents.
    public func max<Value: Comparable & Decodable & SendableMetatype>(_ field: KeyPath<Model.Fields, DocumentField<Value?>> & Sendable) async throws -> Value? {
        try await run(.read) { try $0.max(field) }
    }

    /// The sum of the optional field over the selected documents (`nil`s skipped).
    public func sum<Value: Numeric & Decodable & SendableMetatype>(_ field: KeyPath<Model.Fields, DocumentField<Value?>> & Sendable) async throws -> Value {
        try await run(.read) { try $0.sum(field) }
    }

    /// The average of the optional field over the selected documents that have one.
    public func average<Value: Numeric & Decodable & SendableMetatype>(_ field: KeyPath<Model.Fields, DocumentField<Value?>> & Sendable) async throws -> Double? {
        try await run(.read) { try $0.average(field) }
    }

    /// Runs a synchronous method of the query on the store's threads.
    private func run<R>(_ work: DatabaseExecutor.Work, _ body: @escaping @Sendable (CollectionQuery) throws -> sending R) async throws -> sending R {
        try await collection.store.executor.run(work) { try body(self) }
    }
}
