/// A comparison between a field and a value.
public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
}

/// How a string field is matched against a string.
public enum StringMatch: String, Hashable, Sendable, CaseIterable {
    case hasPrefix, hasSuffix, contains
}

/// A condition on a document: the node type of the query AST that the Swift DSL
/// and the REPL parser both build, and that the SQL compiler and the in-memory
/// evaluator both read.
///
/// Conditions mean what the same test means in Swift on the decoded value
/// (see README, "Query semantics"): a missing field and `null` both act as `nil`;
/// `!=` is true for a missing field; strings compare case-sensitively; integers
/// and reals compare numerically; values of different JSON types are never equal
/// and never ordered (every ordering comparison between them is false).
public indirect enum Condition: Hashable, Sendable {
    /// Always true: the condition of an unfiltered query.
    case always
    /// `field <op> value`. `value` is a scalar (null, bool, number, string);
    /// comparing with `null` is expressed by ``isNull(_:)`` instead.
    case compare(FieldPath, ComparisonOperator, JSONValue)
    /// The field is missing or null (`field == nil`).
    case isNull(FieldPath)
    /// The field is present in the document, even if its value is null.
    case exists(FieldPath)
    /// A string field matches: prefix, suffix or substring; case-insensitive only
    /// when asked (Unicode case folding, as Swift's `lowercased()`).
    case string(FieldPath, StringMatch, String, caseInsensitive: Bool)
    /// A string field holds the words of a search text (see ``SearchText``):
    /// every word, in any order, case- and diacritic-insensitively; `"a phrase"`
    /// as consecutive words; `prefix*` as any word starting so. Needs a search
    /// index on the field (``DocumentCollection/createSearchIndex(on:)``).
    case matches(FieldPath, String)
    /// The field equals one of the values.
    case isIn(FieldPath, [JSONValue])
    /// The field equals one of the keys (or field values) that another query selects.
    case isInSubquery(FieldPath, Subquery)
    /// An array field has an element equal to the value.
    case arrayContains(FieldPath, JSONValue)
    /// An array field's element count compares with a number (`isEmpty` is `== 0`).
    case arrayCount(FieldPath, ComparisonOperator, Int)
    /// Some element of an array field satisfies the condition, whose paths are
    /// relative to the element.
    case any(FieldPath, Condition)
    /// Every element of an array field satisfies the condition (true for an empty
    /// or missing array, as Swift's `allSatisfy` on an empty array).
    case all(FieldPath, Condition)
    /// All of the conditions (true when empty).
    case and([Condition])
    /// At least one of the conditions (false when empty).
    case or([Condition])
    /// The opposite of the condition.
    case not(Condition)
}

/// A query whose keys (or one field's values) feed ``Condition/isInSubquery(_:_:)``.
public struct Subquery: Hashable, Sendable {
    /// The collection queried.
    public var collection: String
    /// Its condition.
    public var condition: Condition
    /// The field whose values are selected; `nil` selects the documents' keys.
    public var field: FieldPath?

    /// A subquery on `collection` selecting the keys (or `field`'s values) of the
    /// documents matching `condition`.
    public init(collection: String, condition: Condition, field: FieldPath? = nil) {
        self.collection = collection
        self.condition = condition
        self.field = field
    }
}
