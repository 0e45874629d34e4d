// The async forms of grouped and pipeline queries: the same work as their
// synchronous namesakes, on the store's own threads, cancellable.

extension GroupedQuery where Model: SendableMetatype {
    /// The rows, in order.
    public func fetch() async throws -> [GroupRow<Model, Columns>] {
        let query = Unchecked(copying: self)
        return try await collection.store.executor.run(.read) { Unchecked(try query.value.fetch()) }.value
    }

    /// The rows decoded into `type`.
    public func fetch<Row: Decodable & SendableMetatype>(as type: Row.Type) async throws -> [Row] {
        let query = Unchecked(copying: self)
        return try await collection.store.executor.run(.read) { Unchecked(try query.value.fetch(as: type)) }.value
    }

    /// The first row, or `nil`.
    public func first() async throws -> GroupRow<Model, Columns>? {
        let query = Unchecked(copying: self)
        return try await collection.store.executor.run(.read) { Unchecked(try query.value.first()) }.value
    }

    /// The number of rows.
    public func count() async throws -> Int {
        let query = Unchecked(copying: self)
        return try await collection.store.executor.run(.read) { try query.value.count() }
    }

    /// How the query runs: its SQL, bindings and SQLite's plan.
    public func explain() async throws -> QueryExplanation {
        let query = Unchecked(copying: self)
        return try await collection.store.executor.run(.read) { try query.value.explain() }
    }
}

extension DocumentCollection where Model: SendableMetatype {
    /// The rows of a pipeline (groups, joins, computed values), as JSON.
    public func rows(_ pipeline: QueryPipeline) async throws -> [JSONValue] {
        try await store.executor.run(.read) { try self.rows(pipeline) }
    }

    /// The number of rows of a pipeline.
    public func count(_ pipeline: QueryPipeline) async throws -> Int {
        try await store.executor.run(.read) { try self.count(pipeline) }
    }

    /// How a pipeline runs: its SQL, bindings and SQLite's plan.
    public func explain(_ pipeline: QueryPipeline) async throws -> QueryExplanation {
        try await store.executor.run(.read) { try self.explain(pipeline) }
    }
}
