/// One change of an update-by-query, made by a field's `set(to:)`,
/// `increment(by:)` or `remove()`.
public struct DocumentFieldUpdate: Sendable {
    let result: Result<FieldUpdate, InvalidQuery>

    /// A change for an AST ``FieldUpdate``.
    public init(_ update: FieldUpdate) {
        result = .success(update)
    }

    init(_ result: Result<FieldUpdate, InvalidQuery>) {
        self.result = result
    }
}

/// Builds the changes of an `update { }` block, one per line, applied to every
/// selected document in one statement:
///
///     try players.filter { $0.teamId == 30 }.update {
///         $0.teamId.set(to: 31)
///         $0.number.increment(by: 1)
///         $0.nickname.remove()
///     }
@resultBuilder
public enum UpdateBuilder<Fields: DocumentFieldSet> {
    /// A line that is a change.
    public static func buildExpression(_ update: DocumentFieldUpdate) -> [DocumentFieldUpdate] {
        [update]
    }

    /// The changes of a block, in order.
    public static func buildBlock(_ updates: [DocumentFieldUpdate]...) -> [DocumentFieldUpdate] {
        updates.flatMap { $0 }
    }

    /// An `if` without `else`: no change when the condition is false.
    public static func buildOptional(_ updates: [DocumentFieldUpdate]?) -> [DocumentFieldUpdate] {
        updates ?? []
    }

    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first updates: [DocumentFieldUpdate]) -> [DocumentFieldUpdate] {
        updates
    }

    /// The other branch of an `if`/`else` or `switch`.
    public static func buildEither(second updates: [DocumentFieldUpdate]) -> [DocumentFieldUpdate] {
        updates
    }

    /// The changes of every iteration of a `for` loop.
    public static func buildArray(_ updates: [[DocumentFieldUpdate]]) -> [DocumentFieldUpdate] {
        updates.flatMap { $0 }
    }
}

extension DocumentField where Value: Encodable {
    /// Sets the field to `value`, creating it when missing; `set(to: nil)` on an
    /// optional field stores `null`.
    public func set(to value: Value) -> DocumentFieldUpdate {
        DocumentFieldUpdate(QueryValue.encode(value, for: fieldPath).map { .set(fieldPath, $0) })
    }
}

extension DocumentField where Value: Numeric & Encodable {
    /// Adds `amount` to the number: `$0.stats.hits.increment(by: 1)`.
    public func increment(by amount: Value) -> DocumentFieldUpdate {
        DocumentFieldUpdate(QueryValue.encode(amount, for: fieldPath).map { .increment(fieldPath, $0) })
    }
}

extension DocumentField {
    /// Removes the field from the document. Only optional fields can be removed:
    /// a document without a required field would no longer decode.
    public func remove<Wrapped>() -> DocumentFieldUpdate where Value == Wrapped? {
        DocumentFieldUpdate(.remove(fieldPath))
    }
}

extension DocumentField where Value == JSONValue {
    /// Removes the untyped field from the document.
    public func remove() -> DocumentFieldUpdate {
        DocumentFieldUpdate(.remove(fieldPath))
    }
}
