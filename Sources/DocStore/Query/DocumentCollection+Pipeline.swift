extension DocumentCollection {
    /// The rows of a pipeline (groups, joins, computed values), in its order, as
    /// JSON objects: a group's keys at their paths and its aggregates by name; a
    /// select's values by name; documents, with joined documents as members.
    /// Missing values are `null`.
    ///
    ///     let rows = try batting.rows(QueryPipeline(stages: [
    ///         .group(Grouping(keys: [FieldPath("playerID")], aggregates: [NamedAggregate("hr", .sum(FieldPath("HR")))])),
    ///         .refine(DocumentQuery(sort: [SortKey(FieldPath("hr"), descending: true)], limit: 10)),
    ///     ]))
    ///     // [{"playerID": "bondsba01", "hr": 762}, …]
    ///
    /// - Throws: ``DocStoreError/invalidQuery(collection:field:reason:)`` for a path
    ///   the rows don't have, duplicate column names, an integer sum or computation
    ///   that overflows 64 bits.
    public func rows(_ pipeline: QueryPipeline) throws -> [JSONValue] {
        var rows: [JSONValue] = []
        try forEachRow(pipeline) { rows.append($0) }
        return rows
    }

    /// Calls `body` with each row of the pipeline, in order, streaming.
    public func forEachRow(_ pipeline: QueryPipeline, _ body: (JSONValue) throws -> Void) throws {
        try forEachRowParts(pipeline) { paths, values in
            var row: JSONValue = .object([:])
            for (path, value) in zip(paths, values) { row = row.setting(value, at: path.components[...]) }
            try body(row)
        }
    }

    /// Calls `body` with the parts of each row (the document, joined documents,
    /// columns): their paths in the row, and their values.
    func forEachRowParts(_ pipeline: QueryPipeline, _ body: ([FieldPath], [JSONValue]) throws -> Void) throws {
        var entries: [RowScope.Entry] = []
        var paths: [FieldPath] = []
        var values: [JSONValue] = []
        try mappingOverflow(pipeline) {
            try readRows(cached: false, reusable: true, { compiler in
                let compiled = try compiler.rememberedPipeline(pipeline) {
                    var pipelineCompiler = PipelineCompiler(compiler)
                    let (sql, entries) = try pipelineCompiler.compile(pipeline)
                    return CompiledPipeline(sql: sql, entries: entries)
                }
                entries = compiled.entries
                paths = entries.map(\.path)
                return compiled.sql
            }) { statement, _ in
                values.removeAll(keepingCapacity: true)  // one buffer for every row
                var column: Int32 = 1
                for entry in entries {
                    switch entry.source {
                    case .json:
                        values.append(statement.isNull(at: column) ? .null : try parsedColumn(statement.bytes(at: column), collection: name))
                        column += 1
                    case .column:
                        values.append(try statement.jsonValue(rankAt: column, collection: name, key: nil))
                        column += 2
                    }
                }
                try body(paths, values)
            }
        }
    }

    /// The number of rows of the pipeline.
    public func count(_ pipeline: QueryPipeline) throws -> Int {
        var count = 0
        try mappingOverflow(pipeline) {
            try readRows({ compiler in
                var pipelineCompiler = PipelineCompiler(compiler)
                return try pipelineCompiler.count(pipeline)
            }) { statement, _ in count = Int(statement.int64(at: 0)) }
        }
        return count
    }

    /// The column headers of the pipeline's rows (group keys then aggregate names;
    /// selected names), or nil when its rows are documents.
    public func columns(of pipeline: QueryPipeline) throws -> [(header: String, path: FieldPath)]? {
        try pipeline.columns(in: name)
    }

    /// The SQL that ``rows(_:)`` runs for the pipeline, its bindings and SQLite's plan.
    public func explain(_ pipeline: QueryPipeline) throws -> QueryExplanation {
        try explain { compiler in
            var pipelineCompiler = PipelineCompiler(compiler)
            return try pipelineCompiler.compile(pipeline).sql
        }
    }

    /// Overflow reported by SQLite, as an error naming the collection and fields.
    private func mappingOverflow(_ pipeline: QueryPipeline, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch DocStoreError.database(let message, _) where message.contains(ArithmeticOverflow.message) {
            throw DocStoreError.computedOverflow(collection: name)
        } catch DocStoreError.database(let message, _) where message.contains("integer overflow") {
            throw DocStoreError.groupSumOverflow(pipeline, collection: name)
        }
    }
}

/// A JSON column's value of a pipeline row. Not a member of the generic
/// collection type, so that no row asks for its metadata.
private func parsedColumn(_ bytes: UnsafeRawBufferPointer, collection name: String) throws -> JSONValue {
    // A string without escapes (most field values): its bytes are its UTF-8.
    if bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\""),
       !bytes.contains(UInt8(ascii: "\\")) {
        return .string(String(decoding: bytes[1..<(bytes.count - 1)], as: UTF8.self))
    }
    do {
        return try DocumentCodec.parse(bytes)
    } catch {
        throw DocStoreError.corruptDocument(collection: name, key: .integer(0), reason: error.description)
    }
}

extension DocStoreError {
    /// An integer computed by a pipeline's `select` that overflows 64 bits.
    static func computedOverflow(collection: String) -> DocStoreError {
        .invalidQuery(collection: collection, field: nil,
                      reason: "an integer computed by select overflows 64 bits (as it would trap in Swift); convert with Double(…)")
    }

    /// An integer sum of a pipeline's group that overflows 64 bits, naming the summed fields.
    static func groupSumOverflow(_ pipeline: QueryPipeline, collection: String) -> DocStoreError {
        var summed: [String] = []
        for case .group(let grouping) in pipeline.stages {
            for named in grouping.aggregates { if case .sum(let path) = named.aggregate { summed.append(path.description) } }
        }
        return .invalidQuery(collection: collection, field: summed.joined(separator: ", "),
                             reason: "the sum of these integers in a group overflows 64 bits")
    }

    /// An integer sum of a single aggregate that overflows 64 bits.
    static func sumOverflow(_ aggregate: Aggregate, collection: String) -> DocStoreError {
        .invalidQuery(collection: collection, field: aggregate.field?.description, reason: "the sum of these integers overflows 64 bits")
    }
}

extension QueryPipeline {
    /// The column headers of the pipeline's rows on a collection named
    /// `collection` (group keys then aggregate names; selected names), or nil when
    /// its rows are documents: the same on every backend, read from the pipeline
    /// alone.
    ///
    /// - Throws: ``DocStoreError/invalidQuery(collection:field:reason:)`` for a
    ///   pipeline no backend can run (a path its rows don't have…).
    public func columns(in collection: String) throws -> [(header: String, path: FieldPath)]? {
        try RowShape.of(self, collection: collection).columns?.map { ($0.header, $0.path) }
    }
}
