extension DocumentCollection where Model: QueryableDocument {
    /// Creates an index on one or several fields, named by key paths into the
    /// model's fields (nested ones too: `\.stats.battingAverage`). Equality,
    /// range and sort on those fields then use it. Creating an index that exists
    /// returns it.
    ///
    ///     try players.createIndex(on: \.teamId)
    ///     try players.createIndex(on: \.lastName, \.firstName)
    ///     try players.createIndex(on: \.teamId, \.number, unique: true)
    ///
    /// - Parameter unique: Whether two documents may not share the fields' values;
    ///   a write that would is refused with ``DocStoreError/uniqueConstraint(collection:fields:key:)``.
    @discardableResult
    public func createIndex<each Value>(
        on fields: repeat KeyPath<Model.Fields, DocumentField<each Value>>, unique: Bool = false
    ) throws -> IndexInfo {
        try createIndex(on: Self.paths(repeat each fields), unique: unique)
    }

    /// Drops the index on exactly these fields. Returns whether there was one.
    @discardableResult
    public func dropIndex<each Value>(on fields: repeat KeyPath<Model.Fields, DocumentField<each Value>>) throws -> Bool {
        try dropIndex(on: Self.paths(repeat each fields))
    }

    static func paths<each Value>(_ fields: repeat KeyPath<Model.Fields, DocumentField<each Value>>) -> [FieldPath] {
        let root = Model.Fields(_path: .root)
        var paths: [FieldPath] = []
        for field in repeat each fields {
            paths.append(root[keyPath: field].fieldPath)
        }
        return paths
    }
}
