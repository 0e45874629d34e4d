import DocStore

extension SQLiteBackend {
    /// The sample of `collection` (``DocumentCollection/sampleFields(size:)``,
    /// shared with the library's field warnings): every document of a small
    /// collection, of a larger one documents spread evenly over its keys, damaged
    /// ones left out and counted.
    func sample(_ collection: String, size: Int) throws -> FieldSample {
        try store.collection(named: collection).sampleFields(size: size)
    }

    /// The result of `command` as a stream, for the commands whose results can be
    /// long (a query's documents, a select's rows, a group's or join's rows); nil
    /// for the others, which ``CommandRunner/run(_:)`` answers whole.
    ///
    /// Nothing is read until the stream's `forEach` runs; each run compiles and
    /// steps the same SQL as the collection's query API, and stops with
    /// ``Interruption/Interrupted`` on ctrl-C.
    func stream(_ command: REPLCommand, interruption: Interruption) throws -> ResultStream? {
        switch command {
        case .query(let name, let query, .fetch):
            let collection = store.collection(named: name)
            return ResultStream(columns: nil, noun: "document", isLimited: query.limit != nil) { body in
                var count = 0
                try collection.forEachStoredDocument(query) { key, text in
                    try interruption.check("interrupted after \(CommandResult.plural(count, "document"))")
                    try body(.stored(key: key, collection: name, text: text))
                    count += 1
                }
            }
        case .query(let name, let query, .select(let fields)):
            let collection = store.collection(named: name)
            return ResultStream(columns: fields.map(\.description), noun: "row", isLimited: query.limit != nil) { body in
                var count = 0
                try collection.forEachSelected(query, fields: fields) { values in
                    try interruption.check("interrupted after \(CommandResult.plural(count, "row"))")
                    try body(.row(values.map(Optional.some)))
                    count += 1
                }
            }
        case .pipeline(let name, let pipeline, .rows):
            let collection = store.collection(named: name)
            return ResultStream.pipelineRows(pipeline, columns: try collection.columns(of: pipeline), interruption: interruption) { body in
                try collection.forEachRow(pipeline, body)
            }
        default:
            return nil
        }
    }
}
