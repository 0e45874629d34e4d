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
    ///   - hasContainmentIndex: whether the collection has a GIN index on its
    ///     documents, which conditions then help with containment terms.
    ///   - searchIndexes: the collection's search indexes, which `matches`
    ///     conditions and relevance need.
    ///   - indexedPaths: the fields the collection's indexes are on, or nil when
    ///     not known; equalities on other fields compile to jsonb's `=` alone.
    public init(collection: String, keyKinds: [String: KeyKind], hasContainmentIndex: Bool = false,
                searchIndexes: [SearchIndexInfo] = [], indexedPaths: Set<FieldPath>? = nil) {
        self.collection = collection
        self.keyKinds = keyKinds
        self.hasContainmentIndex = hasContainmentIndex
        self.searchIndexes = searchIndexes
        self.indexedPaths = indexedPaths
    }

    private let hasContainmentIndex: Bool
    private let searchIndexes: [SearchIndexInfo]
    private let indexedPaths: Set<FieldPath>?

    private var compiler: QueryCompiler {
        var compiler = QueryCompiler(collection: collection, keyKind: { [keyKinds] in keyKinds[$0] })
        compiler.dialect = .postgres
        compiler.hasContainmentIndex = hasContainmentIndex
        compiler.indexedPaths = indexedPaths
        compiler.searchIndexes = { [collection, searchIndexes] in $0 == collection ? searchIndexes : [] }
        return compiler
    }

    /// Whether a query searches text (a `matches` condition, or relevance), so
    /// its compiler needs the collection's search indexes.
    public static func searches(_ query: DocumentQuery) -> Bool {
        query.relevance != nil || searches(query.condition)
    }

    /// Whether a condition has a `matches`.
    public static func searches(_ condition: Condition) -> Bool {
        switch condition {
        case .matches: return true
        case .any(_, let inner), .all(_, let inner), .not(let inner): return searches(inner)
        case .and(let conditions), .or(let conditions): return conditions.contains(where: searches)
        default: return false
        }
    }

    /// Whether a pipeline searches text, in its query or a later refinement.
    public static func searches(_ pipeline: QueryPipeline) -> Bool {
        searches(pipeline.query) || pipeline.stages.contains {
            if case .refine(let query) = $0 { return searches(query) }
            return false
        }
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

    /// The rows of a pipeline (groups, joins, computed values): the statement,
    /// whose columns are the row's order key then one JSON text (NULL when
    /// missing) per part of the row, and the path of each part in the row.
    public func rows(_ pipeline: QueryPipeline) throws -> (statement: CompiledStatement, paths: [FieldPath]) {
        var pipelineCompiler = PipelineCompiler(compiler)
        let (sql, entries) = try pipelineCompiler.compile(pipeline)
        return (CompiledStatement(sql), entries.map(\.path))
    }

    /// The number of rows of a pipeline.
    public func count(_ pipeline: QueryPipeline) throws -> CompiledStatement {
        var pipelineCompiler = PipelineCompiler(compiler)
        return CompiledStatement(try pipelineCompiler.count(pipeline))
    }

    /// Changes the selected documents in one statement, returning their keys.
    public func update(_ updates: [FieldUpdate], _ query: DocumentQuery) throws -> CompiledStatement {
        CompiledStatement(try compiler.postgresUpdate(updates, query))
    }

    /// The first selected document in which a `set` of `path` would change
    /// nothing (see ``DocStore/QueryCompiler/blockedSets(at:after:_:)``): its key, how
    /// many parts of the path lead to the value in the way, and its `jsonb_typeof`.
    /// Nil for a path of one part.
    /// The first selected document whose body is not a JSON object.
    public func firstNonObject(_ query: DocumentQuery) throws -> CompiledStatement {
        CompiledStatement(try compiler.firstNonObject(query))
    }

    /// The document is judged as the `earlier` changes of the same update leave it.
    public func blockedSets(at path: FieldPath, after earlier: [FieldUpdate], _ query: DocumentQuery) throws -> CompiledStatement? {
        try compiler.blockedSets(at: path, after: earlier, query).map(CompiledStatement.init)
    }

    /// Why a `set` of `path` changes nothing in a document whose first `length`
    /// parts hold a value of JSON type `type`.
    public static func blockedSetReason(_ path: FieldPath, length: Int, type: String) -> String {
        QueryCompiler.blockedSetReason(path, length: length, type: type)
    }

    /// The key of the first selected document whose field an increment can't
    /// change (something other than a number, missing or null); no row when none.
    public func nonNumbers(at path: FieldPath, _ query: DocumentQuery) throws -> CompiledStatement {
        CompiledStatement(try compiler.postgresNonNumbers(at: path, query))
    }

    /// The keys and texts of the selected documents whose field holds a number
    /// written with more than 15 characters: those an increment, which adds in
    /// a Double, may round (``DocStore/JSONNumberLiteral/isReadRounded`` tells).
    public func longNumbers(at path: FieldPath, _ query: DocumentQuery) throws -> CompiledStatement {
        CompiledStatement(try compiler.postgresLongNumbers(at: path, query))
    }

    /// The key of the first selected document whose field an increment by
    /// `amount` would push past what DocStore's numbers hold exactly.
    public func overflows(at path: FieldPath, by amount: JSONValue, _ query: DocumentQuery) throws -> CompiledStatement {
        CompiledStatement(try compiler.postgresOverflows(at: path, by: amount, query))
    }

    /// Whether a server error's message is an integer computation's overflow
    /// (`select`), or an integer sum's (`group`, `sum`).
    public static func overflow(inMessage message: String) -> (arithmetic: Bool, sum: Bool) {
        (message.contains(RowScope.postgresArithmeticOverflow), message.contains(RowScope.postgresSumOverflow))
    }

    /// The collections a pipeline reads besides its own: its joins' and its
    /// conditions' subqueries'.
    public static func collections(of pipeline: QueryPipeline) -> Set<String> {
        var names = subqueryCollections(of: pipeline.query.condition)
        for stage in pipeline.stages {
            switch stage {
            case .join(let join): names.insert(join.collection)
            case .refine(let query): names.formUnion(subqueryCollections(of: query.condition))
            case .group, .select: break
            }
        }
        return names
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

extension PostgresCompiler {
    // Field changes (migrations): see QueryCompiler+PostgresFieldChanges.
    /// Moves `old` to `new` in every document that has it, returning their keys.
    public func renameField(_ old: FieldPath, to new: FieldPath) throws -> CompiledStatement {
        CompiledStatement(try compiler.postgresRenameField(old, to: new))
    }

    /// Copies `source` to `target` in every document that has it, returning their keys.
    public func copyField(_ source: FieldPath, to target: FieldPath) throws -> CompiledStatement {
        CompiledStatement(try compiler.postgresCopyField(source, to: target))
    }

    /// Removes `path` from every document that has it, returning their keys.
    public func removeField(_ path: FieldPath) throws -> CompiledStatement {
        CompiledStatement(try compiler.postgresRemoveField(path))
    }

    /// Sets `path` to `value` where it is missing or null, returning the keys changed.
    public func setDefault(_ path: FieldPath, _ value: JSONValue) throws -> CompiledStatement {
        CompiledStatement(try compiler.postgresSetDefault(path, value))
    }

    /// `key, value::text` of the documents whose array or object at `source` is
    /// at least `minimumLength` characters long: the only ones a move deeper can push past the nesting limit.
    public func longContainers(at source: FieldPath, minimumLength: Int) throws -> CompiledStatement {
        CompiledStatement(try compiler.longContainers(at: source, minimumLength: minimumLength))
    }

    /// One batch of a conversion: `key, value::text` of up to `limit` documents
    /// after `key` where `path` is present and not null, in key order.
    public func fieldValues(_ path: FieldPath, after key: DocumentKey?, limit: Int) throws -> CompiledStatement {
        CompiledStatement(try compiler.postgresFieldValues(path, after: key, limit: limit))
    }

    /// Sets `path` to the JSON text `value` in the document stored under `key`.
    public func setField(_ path: FieldPath, to value: [UInt8], key: DocumentKey) throws -> CompiledStatement {
        CompiledStatement(try compiler.postgresSetField(path, to: value, key: key))
    }

    /// The first key of a document matching `condition`; no row when none does.
    public func firstKey(where condition: Condition) throws -> CompiledStatement {
        CompiledStatement(try compiler.firstKey(where: condition))
    }

    /// The first key of a document matching `condition` where a parent of
    /// `target` is not an object; nil for a top-level target.
    public func firstBlockedKey(writing target: FieldPath, where condition: Condition) throws -> CompiledStatement? {
        try compiler.firstBlockedKey(writing: target, where: condition).map(CompiledStatement.init)
    }
}
