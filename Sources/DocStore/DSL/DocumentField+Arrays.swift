/// The value types of array fields: arrays, and optional arrays (a missing array
/// has no elements). They get `contains`, `isEmpty`, `count`, and, for arrays of
/// `@Document` values, `any { }` and `all { }`.
public protocol DocumentArrayValue {
    /// The type of the array's elements.
    associatedtype DocumentElement
}

extension Array: DocumentArrayValue {
    /// The array's element type.
    public typealias DocumentElement = Element
}

extension Optional: DocumentArrayValue where Wrapped: DocumentArrayValue {
    /// The wrapped array's element type.
    public typealias DocumentElement = Wrapped.DocumentElement
}

extension DocumentField where Value: DocumentArrayValue, Value.DocumentElement: Encodable & Equatable {
    /// The array has an element equal to `element`: `$0.tags.contains("captain")`.
    public func contains(_ element: Value.DocumentElement) -> DocumentCondition {
        switch QueryValue.encode(element, for: fieldPath) {
        case .success(let json): DocumentCondition(.arrayContains(fieldPath, json))
        case .failure(let failure): DocumentCondition(invalid: failure)
        }
    }
}

extension DocumentField where Value: DocumentArrayValue {
    /// The array has no elements (or is missing).
    public var isEmpty: DocumentCondition {
        DocumentCondition(.arrayCount(fieldPath, .equal, 0))
    }

    /// The number of elements, to compare with an integer: `$0.tags.count >= 2`.
    public var count: ElementCount {
        ElementCount(fieldPath: fieldPath)
    }
}

extension DocumentField where Value: DocumentArrayValue, Value.DocumentElement: QueryableDocument {
    /// Some element satisfies all the lines of `body`, whose fields are the element's:
    ///
    ///     $0.innings.any { $0.runs >= 2; $0.number > 6 }
    public func any(
        @ConditionBuilder<Value.DocumentElement.Fields> _ body: (Value.DocumentElement.Fields) -> [DocumentCondition]
    ) -> DocumentCondition {
        DocumentCondition.all(body(.init(_path: .root))).map { .any(fieldPath, $0) }
    }

    /// Every element satisfies all the lines of `body` (true for an empty array, as
    /// `allSatisfy` is):
    ///
    ///     $0.innings.all { $0.runs < 5 }
    public func all(
        @ConditionBuilder<Value.DocumentElement.Fields> _ body: (Value.DocumentElement.Fields) -> [DocumentCondition]
    ) -> DocumentCondition {
        DocumentCondition.all(body(.init(_path: .root))).map { .all(fieldPath, $0) }
    }
}

extension DocumentField where Value == JSONValue {
    /// The untyped field is an array with an element equal to `element`.
    /// (`contains` on an untyped field is the string test.)
    public func arrayContains(_ element: JSONValue) -> DocumentCondition {
        DocumentCondition(.arrayContains(fieldPath, element))
    }

    /// The untyped field is an array without elements, or missing.
    public var isEmpty: DocumentCondition {
        DocumentCondition(.arrayCount(fieldPath, .equal, 0))
    }

    /// The number of elements of the untyped array field.
    public var count: ElementCount {
        ElementCount(fieldPath: fieldPath)
    }

    /// Some element of the untyped array field satisfies `body`.
    public func any(@ConditionBuilder<DynamicFields> _ body: (DynamicFields) -> [DocumentCondition]) -> DocumentCondition {
        DocumentCondition.all(body(DynamicFields(_path: .root))).map { .any(fieldPath, $0) }
    }

    /// Every element of the untyped array field satisfies `body`.
    public func all(@ConditionBuilder<DynamicFields> _ body: (DynamicFields) -> [DocumentCondition]) -> DocumentCondition {
        DocumentCondition.all(body(DynamicFields(_path: .root))).map { .all(fieldPath, $0) }
    }
}

/// The number of elements of an array field, compared with an integer:
/// `$0.tags.count >= 2`, `$0.tags.count == 0`.
public struct ElementCount: Sendable {
    /// The array field.
    public let fieldPath: FieldPath

    /// The array has exactly `count` elements.
    public static func == (lhs: ElementCount, count: Int) -> DocumentCondition {
        DocumentCondition(.arrayCount(lhs.fieldPath, .equal, count))
    }

    /// The array has a number of elements other than `count`.
    public static func != (lhs: ElementCount, count: Int) -> DocumentCondition {
        DocumentCondition(.arrayCount(lhs.fieldPath, .notEqual, count))
    }

    /// The array has fewer than `count` elements.
    public static func < (lhs: ElementCount, count: Int) -> DocumentCondition {
        DocumentCondition(.arrayCount(lhs.fieldPath, .less, count))
    }

    /// The array has at most `count` elements.
    public static func <= (lhs: ElementCount, count: Int) -> DocumentCondition {
        DocumentCondition(.arrayCount(lhs.fieldPath, .lessOrEqual, count))
    }

    /// The array has more than `count` elements.
    public static func > (lhs: ElementCount, count: Int) -> DocumentCondition {
        DocumentCondition(.arrayCount(lhs.fieldPath, .greater, count))
    }

    /// The array has at least `count` elements.
    public static func >= (lhs: ElementCount, count: Int) -> DocumentCondition {
        DocumentCondition(.arrayCount(lhs.fieldPath, .greaterOrEqual, count))
    }
}
