import Foundation

/// Why a Foundation `Predicate` can't be turned into a DocStore query: one of its
/// expressions has no equivalent with the same meaning. A predicate is converted
/// completely or not at all; it never runs with a part left out.
///
/// A query filtered by such a predicate throws
/// ``DocStoreError/invalidQuery(collection:field:reason:)`` with this text when it runs.
public struct PredicateConversionError: LocalizedError, Hashable, Sendable {
    /// The kind of expression, as Foundation names its type (`PredicateExpressions.Arithmetic`).
    public var expressionKind: String
    /// The expression as Foundation describes it (shortened when long).
    public var expression: String
    /// The document field the expression is about, when there is one.
    public var field: FieldPath?
    /// What has no equivalent, and what to write instead.
    public var reason: String

    /// An error about `expression`.
    init(_ expression: Any, field: FieldPath? = nil, reason: String) {
        expressionKind = Self.kind(of: expression)
        let text = String(describing: expression)
        self.expression = text.count > 240 ? String(text.prefix(240)) + "…" : text
        self.field = field
        self.reason = reason
    }

    /// `#Predicate: <reason> (field <path>), in <kind>: <expression>`.
    public var errorDescription: String? {
        "#Predicate: \(reason)\(field.map { " (field \($0))" } ?? ""), in \(expressionKind): \(expression)"
    }

    /// The text without the field, for errors that name the field themselves.
    var detail: String {
        "#Predicate: \(reason), in \(expressionKind): \(expression)"
    }

    /// The type's name without its generic arguments: `PredicateExpressions.Comparison`.
    static func kind(of expression: Any) -> String {
        let name = String(reflecting: type(of: expression))
        let plain = name.prefix { $0 != "<" }
        for module in ["Foundation.", "FoundationEssentials."] where plain.hasPrefix(module) {
            return String(plain.dropFirst(module.count))
        }
        return String(plain)
    }
}

extension PredicateConversionError {
    /// The same error, as the query that holds the predicate reports it when it runs.
    var invalidQuery: InvalidQuery {
        InvalidQuery(reason: detail, field: field)
    }
}
