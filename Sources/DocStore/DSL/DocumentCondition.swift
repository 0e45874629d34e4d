/// A condition built by the typed DSL: `$0.number >= 10`, `$0.lastName.hasPrefix("Ped")`,
/// `AnyOf { … }`. It holds the AST ``Condition`` it stands for.
///
/// Building a condition never throws: when a value can't be turned into JSON (a
/// `Double.nan`, a value whose `encode(to:)` throws) or a construct can't be
/// expressed, the condition remembers why, and the query that uses it throws
/// ``DocStoreError/invalidQuery(collection:field:reason:)`` when it runs.
///
/// Combine conditions with `&&`, `||` and `!`, or with the lines of a filter
/// block (ANDed), ``AnyOf``, ``AllOf`` and ``Not``.
public struct DocumentCondition: Sendable {
    enum Storage: Sendable, Hashable {
        case valid(Condition)
        case invalid(InvalidQuery)
    }

    let storage: Storage

    /// A condition for an AST ``Condition`` (as the REPL's parser builds them).
    public init(_ condition: Condition) {
        storage = .valid(condition)
    }

    init(invalid: InvalidQuery) {
        storage = .invalid(invalid)
    }

    /// The AST condition, or why it could not be built.
    func condition() throws(InvalidQuery) -> Condition {
        switch storage {
        case .valid(let condition): return condition
        case .invalid(let invalid): throw invalid
        }
    }

    /// The condition, or the reason it could not be built.
    var result: Result<Condition, InvalidQuery> {
        switch storage {
        case .valid(let condition): .success(condition)
        case .invalid(let invalid): .failure(invalid)
        }
    }

    /// Combines conditions, or keeps the first reason one of them is invalid.
    static func combining(_ conditions: [DocumentCondition], _ combine: ([Condition]) -> Condition) -> DocumentCondition {
        var parts: [Condition] = []
        parts.reserveCapacity(conditions.count)
        for condition in conditions {
            switch condition.storage {
            case .valid(let part): parts.append(part)
            case .invalid: return condition
            }
        }
        return DocumentCondition(combine(parts))
    }

    /// All of `conditions`: `.always` for none, the condition itself for one.
    static func all(_ conditions: [DocumentCondition]) -> DocumentCondition {
        combining(conditions, conjunction)
    }

    /// The AND of `parts`, flattened: `.always` for none, the part itself for one.
    static func conjunction(_ parts: [Condition]) -> Condition {
        let parts = parts.flatMap { part -> [Condition] in
            switch part {
            case .always: []
            case .and(let inner): inner
            default: [part]
            }
        }
        return parts.isEmpty ? .always : parts.count == 1 ? parts[0] : .and(parts)
    }

    /// Any of `conditions`: `.or([])` (false) for none, the condition itself for one.
    static func any(_ conditions: [DocumentCondition]) -> DocumentCondition {
        combining(conditions) { parts in
            let parts = parts.flatMap { part -> [Condition] in
                if case .or(let inner) = part, !inner.isEmpty { return inner }
                return [part]
            }
            return parts.count == 1 ? parts[0] : .or(parts)
        }
    }

    /// Transforms a valid condition.
    func map(_ transform: (Condition) -> Condition) -> DocumentCondition {
        switch storage {
        case .valid(let condition): DocumentCondition(transform(condition))
        case .invalid: self
        }
    }
}

/// Why a typed query could not be built; thrown as
/// ``DocStoreError/invalidQuery(collection:field:reason:)`` when the query runs.
struct InvalidQuery: Error, Hashable, Sendable {
    var reason: String
    var field: FieldPath?
    /// The field as another backend's error already named it (instead of `field`).
    var fieldName: String? = nil

    /// The error a query on `collection` throws.
    func error(collection: String) -> DocStoreError {
        .invalidQuery(collection: collection, field: fieldName ?? field?.description, reason: reason)
    }
}

// MARK: Logical operators

extension DocumentCondition {
    /// Both conditions: `$0.teamId == 1 && $0.number < 20`.
    public static func && (lhs: DocumentCondition, rhs: DocumentCondition) -> DocumentCondition {
        all([lhs, rhs])
    }

    /// Either condition: `$0.position == .shortstop || $0.number == 34`.
    public static func || (lhs: DocumentCondition, rhs: DocumentCondition) -> DocumentCondition {
        any([lhs, rhs])
    }

    /// The opposite condition: `!$0.tags.contains("injured")`.
    public static prefix func ! (condition: DocumentCondition) -> DocumentCondition {
        condition.map { inner in
            if case .not(let original) = inner { return original }
            return .not(inner)
        }
    }
}

extension DocumentCondition: CustomStringConvertible {
    /// The AST condition, or why it could not be built.
    public var description: String {
        switch storage {
        case .valid(let condition): String(describing: condition)
        case .invalid(let invalid): "invalid condition: \(invalid.reason)"
        }
    }
}
