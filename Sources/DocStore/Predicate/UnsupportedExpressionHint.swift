import Foundation

/// What to write instead of a `PredicateExpressions` type that has no DocStore
/// equivalent when it depends on the document.
enum UnsupportedExpressionHint {
    /// The reason given for `expression`, with a hint for the common kinds.
    static func reason(for expression: Any) -> String {
        let kind = PredicateConversionError.kind(of: expression)
        let name = kind.split(separator: ".").last.map(String.init) ?? kind
        let hint = hints[name].map { "; \($0)" } ?? ""
        return "\(name) on a document field has no DocStore equivalent\(hint)"
    }

    static let hints: [String: String] = [
        "Arithmetic": "compute the value to compare with before the predicate and compare the field with it",
        "UnaryMinus": "compute the value to compare with before the predicate",
        "IntDivision": "compute the value to compare with before the predicate",
        "IntRemainder": "store the value you need to test, or filter the fetched models in Swift",
        "FloatDivision": "compute the value to compare with before the predicate",
        "ForcedUnwrap": "compare the optional field directly (`$0.nickname == \"x\"`) or use `??`",
        "ForceCast": "compare the field as the type it is stored as",
        "ConditionalCast": "compare the field as the type it is stored as",
        "TypeCheck": "compare the field as the type it is stored as",
        "CollectionIndexSubscript": "index an array with `first`, or use contains(where:)",
        "CollectionRangeSubscript": "use starts(with:) or contains(_:) on the whole string",
        "SequenceMaximum": "use allSatisfy or contains(where:) with the bound",
        "SequenceMinimum": "use allSatisfy or contains(where:) with the bound",
        "Filter": "use contains(where:) or allSatisfy",
        "StringCaseInsensitiveCompare": "use DocStore's filter { $0.name.contains(\"x\", caseInsensitive: true) }",
        "StringLocalizedStandardContains": "use DocStore's filter { $0.name.contains(\"x\", caseInsensitive: true) }",
        "StringLocalizedCompare": "compare with <, <=, > or >=",
    ]
}
