/// Builds the sort keys of a `sorted { }` block, one per line, the first one
/// deciding first: `sorted { $0.lastName; $0.number.descending }`.
/// Documents that tie on every key come in key order, so results are stable.
@resultBuilder
public enum SortBuilder<Fields: DocumentFieldSet> {
    /// A field alone on its line: sorted ascending.
    public static func buildExpression<Value>(_ field: DocumentField<Value>) -> [SortKey] {
        [SortKey(field.fieldPath)]
    }

    /// A sort key: `$0.number.descending`.
    public static func buildExpression(_ key: SortKey) -> [SortKey] {
        [key]
    }

    /// The keys of a block, in order.
    public static func buildBlock(_ keys: [SortKey]...) -> [SortKey] {
        keys.flatMap { $0 }
    }

    /// An `if` without `else`: no key when the condition is false.
    public static func buildOptional(_ keys: [SortKey]?) -> [SortKey] {
        keys ?? []
    }

    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first keys: [SortKey]) -> [SortKey] {
        keys
    }

    /// The other branch of an `if`/`else` or `switch`.
    public static func buildEither(second keys: [SortKey]) -> [SortKey] {
        keys
    }

    /// The keys of every iteration of a `for` loop.
    public static func buildArray(_ keys: [[SortKey]]) -> [SortKey] {
        keys.flatMap { $0 }
    }
}

extension DocumentField {
    /// Sorts by this field, smallest first (the default for a field alone on its line).
    public var ascending: SortKey {
        SortKey(fieldPath)
    }

    /// Sorts by this field, largest first: `sorted { $0.number.descending }`.
    public var descending: SortKey {
        SortKey(fieldPath, descending: true)
    }
}
