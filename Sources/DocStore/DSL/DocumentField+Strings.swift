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
