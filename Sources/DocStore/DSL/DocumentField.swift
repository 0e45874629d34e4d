/// A typed field of a document: the `$0.number` of `filter { $0.number >= 10 }`.
///
/// A field is a path into the stored JSON with the Swift type of the property
/// it comes from. Its operators and functions build ``DocumentCondition``s, and
/// only the ones that make sense for `Value` exist: ordering (`<`, `>=`…) needs a
/// `Comparable` value, `hasPrefix` a string, `contains` and `count` an array, so
/// a query that can't mean anything in Swift does not compile.
///
/// - Fields of nested `@Document` types reach into them: `$0.stats.battingAverage`
///   (through an optional one the field becomes optional: `$0.manager.name` is a
///   `DocumentField<String?>` when `manager` is optional).
/// - Dictionaries by key: `$0.extra["glove"]`; array elements by position: `$0.tags[0]`.
@dynamicMemberLookup
public struct DocumentField<Value>: Sendable {
    /// Where the field is in the document.
    public let fieldPath: FieldPath

    /// The field at `path`. The ``Document()`` macro creates fields; create one
    /// yourself only for a handwritten ``DocumentFieldSet``.
    public init(_ path: FieldPath) {
        self.fieldPath = path
    }

    /// The field present in the document, even when its value is `null`.
    ///
    /// To test for a value, compare with `nil`: `$0.nickname != nil`.
    public var exists: DocumentCondition {
        DocumentCondition(.exists(fieldPath))
    }

    /// This field as an untyped ``JSONValue`` field, for comparisons its type
    /// doesn't offer.
    public var untyped: DocumentField<JSONValue> {
        DocumentField<JSONValue>(fieldPath)
    }
}

// MARK: Nested documents

extension DocumentField where Value: QueryableDocument {
    /// A field of the nested document: `$0.stats.battingAverage`.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Value.Fields, Member>) -> Member {
        Value.Fields(_path: fieldPath)[keyPath: keyPath]
    }
}

/// Optional `@Document` values: their fields are reachable through the optional,
/// and become optional themselves.
public protocol OptionalDocumentValue {
    /// The fields of the wrapped document.
    associatedtype WrappedDocumentFields: DocumentFieldSet
}

extension Optional: OptionalDocumentValue where Wrapped: QueryableDocument {
    /// The wrapped document's fields.
    public typealias WrappedDocumentFields = Wrapped.Fields
}

extension DocumentField where Value: OptionalDocumentValue {
    /// A field of an optional nested document, optional itself: `$0.agent.name`
    /// is `nil` when there is no agent.
    public subscript<Member>(
        dynamicMember keyPath: KeyPath<Value.WrappedDocumentFields, DocumentField<Member>>
    ) -> DocumentField<Member?> {
        DocumentField<Member?>(Value.WrappedDocumentFields(_path: fieldPath)[keyPath: keyPath].fieldPath)
    }

    /// An optional field of an optional nested document (stays singly optional).
    public subscript<Member>(
        dynamicMember keyPath: KeyPath<Value.WrappedDocumentFields, DocumentField<Member?>>
    ) -> DocumentField<Member?> {
        Value.WrappedDocumentFields(_path: fieldPath)[keyPath: keyPath]
    }
}

// MARK: Dictionaries and array elements

extension DocumentField {
    /// The dictionary's value for `key` (`nil` when there is none): `$0.extra["glove"]`.
    public subscript<Element>(key: String) -> DocumentField<Element?> where Value == [String: Element] {
        DocumentField<Element?>(fieldPath.appending(key))
    }

    /// The optional dictionary's value for `key`.
    public subscript<Element>(key: String) -> DocumentField<Element?> where Value == [String: Element]? {
        DocumentField<Element?>(fieldPath.appending(key))
    }

    /// The array's element at `index` (`nil` when the array is shorter).
    public subscript<Element>(index: Int) -> DocumentField<Element?> where Value == [Element] {
        DocumentField<Element?>(fieldPath.appending(index: index))
    }
}

// MARK: Untyped fields

extension DocumentField where Value == JSONValue {
    /// The member named `name` of this untyped field.
    public subscript(dynamicMember name: String) -> DocumentField<JSONValue> {
        DocumentField(fieldPath.appending(name))
    }

    /// A member of this untyped field, by name (for names that aren't identifiers).
    public subscript(_ key: String) -> DocumentField<JSONValue> {
        DocumentField(fieldPath.appending(key))
    }

    /// An element of this untyped field, by position.
    public subscript(_ index: Int) -> DocumentField<JSONValue> {
        DocumentField(fieldPath.appending(index: index))
    }
}
