extension CollectionQuery {
    /// The values of a few fields of each selected document, or values computed
    /// from them (and from joined documents), as typed tuples, without decoding
    /// whole documents:
    ///
    ///     let numbers = try players.filter { $0.teamId == 1 }
    ///         .select { ($0.lastName, $0.number) }        // [(String, Int)]
    ///     let names = try players.query.select { $0.lastName }   // [String]
    ///     let labels = try players.query.select { ($0.firstName + " " + $0.lastName, $0.number * 2) }
    ///
    /// Integers divide as in Swift (truncating); a missing operand or a division
    /// by zero gives `nil`, which decodes only into an optional.
    ///
    /// - Throws: ``DocStoreError/decodingFailed(collection:key:codingPath:reason:)``
    ///   when a value doesn't decode as its type (a missing non-optional field…);
    ///   ``DocStoreError/invalidQuery(collection:field:reason:)`` when an integer
    ///   computation overflows.
    public func select<each Column: QueryExpression>(
        _ body: (Model.Fields) -> (repeat each Column)
    ) throws -> [(repeat (each Column).Value)] where repeat (each Column).Value: Decodable {
        let columns = body(Model.Fields(_path: .root))
        var expressions: [ValueExpression] = []
        for column in repeat each columns {
            expressions.append(column.valueExpression)
        }
        let paths = expressions.compactMap { expression -> FieldPath? in
            if case .field(let path) = expression { return path }
            return nil
        }
        let columnPaths = expressions.map { expression in
            if case .field(let path) = expression { path } else { FieldPath(expression.description) }
        }
        // Each column's type is looked at once, not on every row.
        var scalarTypes: [DocumentCodec.ScalarType] = []
        func addScalarType<T>(_ type: T.Type) { scalarTypes.append(DocumentCodec.ScalarType(type)) }
        repeat addScalarType((each Column).Value.self)
        // Per row, nothing here asks for this generic type's metadata (a method of
        // `self` would, at a few hundred instructions a call): W9's rows cost a
        // third more with it.
        let decoding = SelectedColumns(collection: collection.name, paths: columnPaths, scalarTypes: scalarTypes)
        func tuple(_ row: [JSONValue]) throws -> (repeat (each Column).Value) {
            var index = 0
            return (repeat try decoding.decode((each Column).Value.self, from: row, at: &index))
        }
        if stages.isEmpty && paths.count == expressions.count {
            return try collection.select(documentQuery(), fields: paths).map(tuple)
        }
        // Values computed, or read after a join: one pipeline whose last stage selects them, in order.
        var pipeline = try queryPipeline()
        pipeline.stages.append(.select(expressions.indices.map { NamedExpression("c\($0)", expressions[$0]) }))
        var rows: [(repeat (each Column).Value)] = []
        try collection.forEachRowParts(pipeline) { _, values in rows.append(try tuple(values)) }
        return rows
    }

    // MARK: Aggregates

    /// The smallest value of the field among the selected documents (`nil` when none has one).
    public func min<Value: Comparable & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) throws -> Value? {
        try aggregate(.min(path(field)), as: Value?.self, field: field)
    }

    /// The smallest value of the optional field among the selected documents.
    public func min<Value: Comparable & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value?>>) throws -> Value? {
        try aggregate(.min(path(field)), as: Value?.self, field: field)
    }

    /// The largest value of the field among the selected documents (`nil` when none has one).
    public func max<Value: Comparable & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) throws -> Value? {
        try aggregate(.max(path(field)), as: Value?.self, field: field)
    }

    /// The largest value of the optional field among the selected documents.
    public func max<Value: Comparable & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value?>>) throws -> Value? {
        try aggregate(.max(path(field)), as: Value?.self, field: field)
    }

    /// The sum of the field over the selected documents (zero when none is selected).
    public func sum<Value: Numeric & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) throws -> Value {
        try aggregate(.sum(path(field)), as: Value?.self, field: field) ?? .zero
    }

    /// The sum of the optional field over the selected documents (`nil`s are skipped).
    public func sum<Value: Numeric & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value?>>) throws -> Value {
        try aggregate(.sum(path(field)), as: Value?.self, field: field) ?? .zero
    }

    /// The average of the field over the selected documents (`nil` when none is selected).
    public func average<Value: Numeric & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) throws -> Double? {
        try aggregate(.average(path(field)), as: Double?.self, field: field)
    }

    /// The average of the optional field over the selected documents that have a value.
    public func average<Value: Numeric & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value?>>) throws -> Double? {
        try aggregate(.average(path(field)), as: Double?.self, field: field)
    }

    /// The distinct values of the field among the selected documents:
    /// `players.query.distinctValues(of: \.position)` → `[Position]`.
    public func distinctValues<Value: Decodable>(of field: KeyPath<Model.Fields, DocumentField<Value>>) throws -> [Value] {
        try aggregate(.distinct(path(field)), as: [Value]?.self, field: field) ?? []
    }

    /// The number of selected documents for each value of the field:
    /// `players.query.count(groupedBy: \.teamId)` → `[1: 4, 2: 1]`.
    /// Documents without a value are counted under `nil` when the field is
    /// optional, and left out otherwise.
    public func count<Value: Hashable & Decodable>(
        groupedBy field: KeyPath<Model.Fields, DocumentField<Value>>
    ) throws -> [Value: Int] {
        let result = try collection.aggregate(documentQuery(), .countBy(path(field)))
        var counts: [Value: Int] = [:]
        for (value, count) in Self.groups(in: result) {
            if value.isNull, !(Value.self is any ExpressibleByNilLiteral.Type) { continue }
            counts[try decode(Value.self, from: value, at: path(field)), default: 0] += count
        }
        return counts
    }

    /// The (value, count) pairs of a `countBy` result: an array of `[value, count]`
    /// pairs or of `{"value": …, "count": …}` objects.
    static func groups(in result: JSONValue) -> [(JSONValue, Int)] {
        guard case .array(let rows) = result else { return [] }
        return rows.compactMap { row in
            switch row {
            case .array(let pair) where pair.count == 2:
                return pair[1].numberValue.map { (pair[0], Int($0)) }
            case .object(let members):
                return members["count"]?.numberValue.map { (members["value"] ?? .null, Int($0)) }
            default:
                return nil
            }
        }
    }

    // MARK: Helpers

    private func path<Value>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) -> FieldPath {
        Model.Fields(_path: .root)[keyPath: field].fieldPath
    }

    private func aggregate<Value, Result: Decodable>(
        _ aggregate: Aggregate, as type: Result.Type, field: KeyPath<Model.Fields, DocumentField<Value>>
    ) throws -> Result {
        let value = try collection.aggregate(documentQuery(), aggregate)
        return try decode(Result.self, from: value, at: path(field))
    }

    /// Decodes a value read from the field at `path`, naming the collection and
    /// field when it can't be.
    func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, at path: FieldPath,
                              as scalarType: DocumentCodec.ScalarType? = nil) throws -> T {
        try decodeQueried(T.self, from: value, as: scalarType ?? DocumentCodec.ScalarType(T.self),
                          collection: collection.name, path: path)
    }
}

/// Decodes a value a query read from the field at `path` of `collection`, as
/// `scalarType` (found from `T` once per column), naming the collection and
/// field when it can't be. Not a member of the generic query type, so that a row
/// decoded through it asks for no generic metadata.
private func decodeQueried<T: Decodable>(_ type: T.Type, from value: JSONValue, as scalarType: DocumentCodec.ScalarType,
                                         collection: String, path: FieldPath) throws -> T {
    if scalarType == .other, T.self == JSONValue.self { return unsafeBitCast(value, to: T.self) }
    do {
        return try DocumentCodec.decode(T.self, from: value, as: scalarType)
    } catch {
        throw DocStoreError.decodingFailed(collection: collection, key: nil, codingPath: path.description, reason: error.reason)
    }
}

/// How the columns of a typed `select` decode, found once per query; every
/// backend's typed `select` decodes its rows through it.
@_spi(Backends)
public struct SelectedColumns: Sendable {
    let collection: String
    let paths: [FieldPath]
    private(set) var scalarTypes: [DocumentCodec.ScalarType] = []

    init(collection: String, paths: [FieldPath], scalarTypes: [DocumentCodec.ScalarType]) {
        self.collection = collection
        self.paths = paths
        self.scalarTypes = scalarTypes
    }

    /// Columns read from `paths` of `collection`, whose types ``add(_:)`` gives, in order.
    public init(collection: String, paths: [FieldPath]) {
        self.collection = collection
        self.paths = paths
    }

    /// Adds the next column's type (looked at once, not on every row).
    public mutating func add<T>(_ type: T.Type) {
        scalarTypes.append(DocumentCodec.ScalarType(type))
    }

    /// Decodes the value of column `index` of `row` (`null` past its end) and
    /// moves `index` to the next column.
    public func decode<T: Decodable>(_ type: T.Type, from row: [JSONValue], at index: inout Int) throws -> T {
        defer { index += 1 }
        let value = index < row.count ? row[index] : .null
        return try decodeQueried(T.self, from: value, as: scalarTypes[index], collection: collection, path: paths[index])
    }
}
