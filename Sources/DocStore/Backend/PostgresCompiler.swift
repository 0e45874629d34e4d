/// A statement compiled for another backend: SQL text with numbered parameters
/// (`$1`, `$2`…) and the values bound to them, in order.
@_spi(Backends)
public struct CompiledStatement: Hashable, Sendable {
    /// The SQL text; values never appear in it.
    public let sql: String
    /// The values of `$1`, `$2`…
    public let bindings: [SQLBinding]

    init(_ fragment: SQLFragment) {
        sql = numberPostgresParameters(fragment.sql)
        bindings = fragment.bindings
    }
}

/// The statements of DocStore's PostgreSQL backend (the `DocStorePostgres`
/// product), compiled here so that the query compiler stays the only place that
/// writes SQL. Rows come back as `key, body::text` (documents), `key` (keys),
/// one count, or `rank, value::text` (`min`/`max`).
@_spi(Backends)
public struct PostgresCompiler: Sendable {
    /// The collection queried.
    public let collection: String
    private let keyKinds: [String: KeyKind]

    /// - Parameters:
    ///   - collection: the collection queried.
    ///   - keyKinds: the key kind of each existing collection (subqueries read
    ///     other collections; a missing one selects nothing).
    public init(collection: String, keyKinds: [String: KeyKind]) {
        self.collection = collection
        self.keyKinds = keyKinds
    }

    private var compiler: QueryCompiler {
        var compiler = QueryCompiler(collection: collection, keyKind: { [keyKinds] in keyKinds[$0] })
        compiler.dialect = .postgres
        return compiler
    }

    /// The selected documents' keys and bodies (as JSON text), in the query's order.
    public func documents(_ query: DocumentQuery) throws -> CompiledStatement {
        CompiledStatement(try compiler.select("key, body::text", query))
    }

    /// The selected documents' keys, in the query's order.
    public func keys(_ query: DocumentQuery) throws -> CompiledStatement {
        CompiledStatement(try compiler.keys(query))
    }

    /// The number of documents selected.
    public func count(_ query: DocumentQuery) throws -> CompiledStatement {
        CompiledStatement(try compiler.count(query))
    }

    /// Deletes the selected documents, returning their keys.
    public func delete(_ query: DocumentQuery) throws -> CompiledStatement {
        CompiledStatement(try compiler.delete(query) + " RETURNING key")
    }

    /// An aggregate: one count, or `rank, value::text` (no row when there is no value).
    public func aggregate(_ aggregate: Aggregate, _ query: DocumentQuery) throws -> CompiledStatement {
        CompiledStatement(try compiler.aggregate(aggregate, query))
    }

    /// The collections a condition's subqueries read, which must be known
    /// (``init(collection:keyKinds:)``) before it compiles.
    public static func subqueryCollections(of condition: Condition) -> Set<String> {
        switch condition {
        case .isInSubquery(_, let subquery):
            return Set([subquery.collection]).union(subqueryCollections(of: subquery.condition))
        case .any(_, let inner), .all(_, let inner), .not(let inner):
            return subqueryCollections(of: inner)
        case .and(let conditions), .or(let conditions):
            return conditions.reduce(into: Set()) { $0.formUnion(subqueryCollections(of: $1)) }
        default:
            return []
        }
    }
}
