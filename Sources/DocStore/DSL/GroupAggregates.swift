/// The group a `group(by:)` closure receives (`$0`): its aggregates, typed by the
/// field they summarize. Name them in a tuple:
///
///     batting.group(by: \.playerID) { (hr: $0.sum(\.homeRuns), seasons: $0.count()) }
///
/// Only what makes sense compiles: `sum` and `average` need a numeric field,
/// `min` and `max` a `Comparable` one.
public struct GroupAggregates<Model: QueryableDocument>: Sendable {
    init() {}

    private func path<Value>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) -> FieldPath {
        Model.Fields(_path: .root)[keyPath: field].fieldPath
    }

    /// How many documents the group holds.
    public func count() -> GroupValue<Int> {
        GroupValue(.count)
    }

    /// How many distinct values the field has in the group (`nil` not counted).
    public func count<Value>(distinct field: KeyPath<Model.Fields, DocumentField<Value>>) -> GroupValue<Int> {
        GroupValue(.countDistinct(path(field)))
    }

    /// The sum of the field over the group (zero for none; integers stay integers,
    /// and their overflow is an error).
    public func sum<Value: Numeric & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) -> GroupValue<Value> {
        GroupValue(.sum(path(field)))
    }

    /// The sum of the optional field over the group (`nil`s skipped).
    public func sum<Value: Numeric & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value?>>) -> GroupValue<Value> {
        GroupValue(.sum(path(field)))
    }

    /// The average of the field over the group (`nil` when none has a value).
    public func average<Value: Numeric>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) -> GroupValue<Double?> {
        GroupValue(.average(path(field)))
    }

    /// The average of the optional field over the group's values.
    public func average<Value: Numeric>(_ field: KeyPath<Model.Fields, DocumentField<Value?>>) -> GroupValue<Double?> {
        GroupValue(.average(path(field)))
    }

    /// The smallest value of the field in the group, in DocStore's order.
    public func min<Value: Comparable & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) -> GroupValue<Value?> {
        GroupValue(.min(path(field)))
    }

    /// The smallest value of the optional field in the group.
    public func min<Value: Comparable & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value?>>) -> GroupValue<Value?> {
        GroupValue(.min(path(field)))
    }

    /// The largest value of the field in the group, in DocStore's order.
    public func max<Value: Comparable & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) -> GroupValue<Value?> {
        GroupValue(.max(path(field)))
    }

    /// The largest value of the optional field in the group.
    public func max<Value: Comparable & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value?>>) -> GroupValue<Value?> {
        GroupValue(.max(path(field)))
    }

    // Untyped collections (`$0` of a `DocumentCollection<JSONValue>`): the results are JSON values.

    /// The sum of an untyped field's numbers over the group.
    public func sum(_ field: KeyPath<Model.Fields, DocumentField<JSONValue>>) -> GroupValue<JSONValue> {
        GroupValue(.sum(path(field)))
    }

    /// The average of an untyped field's numbers over the group (`null` when none).
    public func average(_ field: KeyPath<Model.Fields, DocumentField<JSONValue>>) -> GroupValue<JSONValue> {
        GroupValue(.average(path(field)))
    }

    /// The smallest value of an untyped field in the group, in DocStore's order.
    public func min(_ field: KeyPath<Model.Fields, DocumentField<JSONValue>>) -> GroupValue<JSONValue> {
        GroupValue(.min(path(field)))
    }

    /// The largest value of an untyped field in the group, in DocStore's order.
    public func max(_ field: KeyPath<Model.Fields, DocumentField<JSONValue>>) -> GroupValue<JSONValue> {
        GroupValue(.max(path(field)))
    }
}

/// An aggregate of a group, typed by its result: what `$0.sum(\.homeRuns)` is in
/// a `group(by:)` closure. After the group, `$0.hr` reads it by its tuple label.
public struct GroupValue<Value>: Sendable {
    /// The aggregate in the AST.
    public let aggregate: GroupAggregate

    init(_ aggregate: GroupAggregate) {
        self.aggregate = aggregate
    }

    /// The aggregate itself: how a group of one unnamed aggregate reads it
    /// (Swift has no one-element labeled tuples), as in
    /// `group(by: \.teamId) { $0.count() }.sorted { $0.value.descending }`
    /// and `row.value`.
    public var value: GroupValue<Value> { self }
}

/// What a column of a group's or a select's tuple computes.
enum ColumnSource: Hashable, Sendable {
    case aggregate(GroupAggregate)
    case expression(ValueExpression)
}

/// A column of a tuple given to `group(by:)` or `select`: its source, and how a
/// row's value of it decodes.
protocol ResultColumn {
    var columnSource: ColumnSource { get }
    func decodeColumn(_ value: JSONValue) throws -> Any
}

extension GroupValue: ResultColumn where Value: Decodable {
    var columnSource: ColumnSource { .aggregate(aggregate) }
    func decodeColumn(_ value: JSONValue) throws -> Any { try DocumentCodec.decode(Value.self, from: value) }
}

extension DocumentField: ResultColumn where Value: Decodable {
    var columnSource: ColumnSource { .expression(.field(fieldPath)) }
    func decodeColumn(_ value: JSONValue) throws -> Any { try DocumentCodec.decode(Value.self, from: value) }
}

extension ComputedValue: ResultColumn where Value: Decodable {
    var columnSource: ColumnSource { .expression(valueExpression) }
    func decodeColumn(_ value: JSONValue) throws -> Any { try DocumentCodec.decode(Value.self, from: value) }
}

/// The named columns of a tuple (or of one value): tuple labels name them; an
/// unlabeled field is named by its path, an unlabeled aggregate by its function.
struct NamedColumns {
    var columns: [(name: String, column: any ResultColumn)] = []
    /// Set when a member of the tuple is not a column (a plain Swift value).
    var invalid: InvalidQuery?

    init<Columns>(_ value: Columns) {
        if let single = value as? any ResultColumn {
            columns = [(Self.defaultName(single, index: 0), single)]
            return
        }
        for (index, child) in Mirror(reflecting: value).children.enumerated() {
            guard let column = child.value as? any ResultColumn else {
                invalid = InvalidQuery(reason: "member \(child.label ?? String(index)) of the tuple is not a field, a computed value or an aggregate")
                continue
            }
            let label = child.label.flatMap { $0.hasPrefix(".") ? nil : $0 }
            columns.append((label ?? Self.defaultName(column, index: index), column))
        }
    }

    static func defaultName(_ column: any ResultColumn, index: Int) -> String {
        switch column.columnSource {
        case .expression(.field(let path)): path.description
        case .expression(let expression): expression.description
        case .aggregate(.count): "count"
        case .aggregate(.countDistinct(let path)): "count(distinct: \(path))"
        case .aggregate(.sum(let path)): "sum(\(path))"
        case .aggregate(.average(let path)): "average(\(path))"
        case .aggregate(.min(let path)): "min(\(path))"
        case .aggregate(.max(let path)): "max(\(path))"
        }
    }

    /// The name of the first column computing `source`.
    func name(of source: ColumnSource) -> String? {
        columns.first { $0.column.columnSource == source }?.name
    }
}
