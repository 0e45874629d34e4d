/// The value types of string fields: `String`, `String?` and untyped ``JSONValue``
/// fields, which get `hasPrefix`, `hasSuffix` and `contains`.
public protocol DocumentStringValue {}

extension String: DocumentStringValue {}
extension Optional: DocumentStringValue where Wrapped: DocumentStringValue {}
extension JSONValue: DocumentStringValue {}

extension DocumentField where Value: DocumentStringValue {
    /// The string starts with `prefix`, case-sensitively as in Swift, unless
    /// `caseInsensitive` (Unicode case folding, as comparing `lowercased()` strings).
    /// False when the field is `nil` or not a string.
    ///
    ///     $0.lastName.hasPrefix("Ped")                        // Pedroia, not pedroia
    ///     $0.lastName.hasPrefix("ped", caseInsensitive: true) // both
    public func hasPrefix(_ prefix: String, caseInsensitive: Bool = false) -> DocumentCondition {
        DocumentCondition(.string(fieldPath, .hasPrefix, prefix, caseInsensitive: caseInsensitive))
    }

    /// The string ends with `suffix`; case-sensitive unless `caseInsensitive`.
    public func hasSuffix(_ suffix: String, caseInsensitive: Bool = false) -> DocumentCondition {
        DocumentCondition(.string(fieldPath, .hasSuffix, suffix, caseInsensitive: caseInsensitive))
    }

    /// The string contains `other`; case-sensitive unless `caseInsensitive`.
    public func contains(_ other: String, caseInsensitive: Bool = false) -> DocumentCondition {
        DocumentCondition(.string(fieldPath, .contains, other, caseInsensitive: caseInsensitive))
    }
}

extension DocumentField where Value: DocumentStringValue {
    /// The string holds the words of a search text: every word in any order,
    /// case- and diacritic-insensitively (`Résumé` matches `resume`); `"a phrase"`
    /// in double quotes as consecutive words; `run*` as any word starting with
    /// `run`. Punctuation separates words and is otherwise ignored. False when the
    /// field is `nil` or not a string.
    ///
    ///     try notes.createSearchIndex(on: \.text)
    ///     try notes.filter { $0.text.matches("home run") && $0.year >= 2000 }.fetch()
    ///
    /// Running the query needs a search index on the field
    /// (``DocumentCollection/createSearchIndex(on:)``); without one, or for a
    /// search text with an unbalanced quote or no word at all, it throws
    /// ``DocStoreError/invalidQuery(collection:field:reason:)``. Filtering an
    /// array in memory needs no index.
    public func matches(_ text: String) -> DocumentCondition {
        DocumentCondition(.matches(fieldPath, text))
    }
}
