// Comparison operators. They are few and specific on purpose: each `==` or `<`
// a user writes is checked against every overload in scope, so each extra
// overload slows down the type-checking of every filter block.

extension DocumentField where Value: Encodable & Equatable {
    /// The field equals the value (compared as stored: an enum by its raw value, a
    /// `Date` or `UUID` in its stored form). `$0.nickname == nil` is true when the
    /// field is missing or null.
    ///
    ///     $0.teamId == 1          // .compare(teamId, ==, 1)
    ///     $0.nickname == nil      // .isNull(nickname)
    public static func == (field: DocumentField, value: Value) -> DocumentCondition {
        switch QueryValue.scalar(value, for: field.fieldPath) {
        case .success(.null): DocumentCondition(.isNull(field.fieldPath))
        case .success(let json): DocumentCondition(.compare(field.fieldPath, .equal, json))
        case .failure(let failure): DocumentCondition(invalid: failure)
        }
    }

    /// The field differs from the value; true when the field is missing, as
    /// `Optional != value` is in Swift. `$0.nickname != nil` is true when the
    /// field holds a value.
    public static func != (field: DocumentField, value: Value) -> DocumentCondition {
        switch QueryValue.scalar(value, for: field.fieldPath) {
        case .success(.null): DocumentCondition(.not(.isNull(field.fieldPath)))
        case .success(let json): DocumentCondition(.compare(field.fieldPath, .notEqual, json))
        case .failure(let failure): DocumentCondition(invalid: failure)
        }
    }

    /// The field equals one of the values: `$0.position.in([.shortstop, .firstBase])`.
    /// A `nil` among the values matches a missing or null field.
    public func `in`(_ values: some Sequence<Value>) -> DocumentCondition {
        var jsonValues: [JSONValue] = []
        var matchesNull = false
        for value in values {
            switch QueryValue.scalar(value, for: fieldPath) {
            case .success(.null): matchesNull = true
            case .success(let json): jsonValues.append(json)
            case .failure(let failure): return DocumentCondition(invalid: failure)
            }
        }
        let isIn = Condition.isIn(fieldPath, jsonValues)
        return DocumentCondition(matchesNull ? .or([isIn, .isNull(fieldPath)]) : isIn)
    }
}

extension DocumentField {
    /// The field equals the key of a document that `query` selects:
    ///
    ///     $0.teamId.in(teams.filter { $0.city == "Boston" })
    ///
    /// Runs as one statement with a subquery. The subquery can't have a limit or
    /// an offset (the query then throws ``DocStoreError/invalidQuery(collection:field:reason:)``).
    public func `in`<Other>(_ query: CollectionQuery<Other>) -> DocumentCondition {
        subquery(query, field: nil)
    }

    /// The field equals the value of `field` in a document that `query` selects:
    ///
    ///     $0.city.in(teams.filter { $0.abbreviation.hasPrefix("B") }, selecting: \.city)
    public func `in`<Other>(
        _ query: CollectionQuery<Other>, selecting field: KeyPath<Other.Fields, DocumentField<Value>>
    ) -> DocumentCondition {
        subquery(query, field: Other.Fields(_path: .root)[keyPath: field].fieldPath)
    }

    private func subquery<Other>(_ query: CollectionQuery<Other>, field: FieldPath?) -> DocumentCondition {
        switch query.subquery(selecting: field) {
        case .success(let subquery): DocumentCondition(.isInSubquery(fieldPath, subquery))
        case .failure(let failure): DocumentCondition(invalid: failure)
        }
    }
}

// MARK: Ordering

extension DocumentField where Value: Comparable & Encodable {
    /// The field is less than the value. Only `Comparable` fields can be ordered.
    public static func < (field: DocumentField, value: Value) -> DocumentCondition {
        field.ordering(.less, value)
    }

    /// The field is less than or equal to the value.
    public static func <= (field: DocumentField, value: Value) -> DocumentCondition {
        field.ordering(.lessOrEqual, value)
    }

    /// The field is greater than the value.
    public static func > (field: DocumentField, value: Value) -> DocumentCondition {
        field.ordering(.greater, value)
    }

    /// The field is greater than or equal to the value.
    public static func >= (field: DocumentField, value: Value) -> DocumentCondition {
        field.ordering(.greaterOrEqual, value)
    }
}

extension DocumentField {
    /// The optional field holds a value less than `value` (false when it is `nil`).
    public static func < <Wrapped: Comparable & Encodable>(field: DocumentField, value: Wrapped) -> DocumentCondition
    where Value == Wrapped? {
        field.ordering(.less, value)
    }

    /// The optional field holds a value less than or equal to `value` (false when it is `nil`).
    public static func <= <Wrapped: Comparable & Encodable>(field: DocumentField, value: Wrapped) -> DocumentCondition
    where Value == Wrapped? {
        field.ordering(.lessOrEqual, value)
    }

    /// The optional field holds a value greater than `value` (false when it is `nil`).
    public static func > <Wrapped: Comparable & Encodable>(field: DocumentField, value: Wrapped) -> DocumentCondition
    where Value == Wrapped? {
        field.ordering(.greater, value)
    }

    /// The optional field holds a value greater than or equal to `value` (false when it is `nil`).
    public static func >= <Wrapped: Comparable & Encodable>(field: DocumentField, value: Wrapped) -> DocumentCondition
    where Value == Wrapped? {
        field.ordering(.greaterOrEqual, value)
    }

    func ordering<Operand: Encodable>(_ op: ComparisonOperator, _ value: Operand) -> DocumentCondition {
        switch QueryValue.scalar(value, for: fieldPath) {
        case .success(.null): DocumentCondition(.or([]))   // nothing is ordered against nil
        case .success(let json): DocumentCondition(.compare(fieldPath, op, json))
        case .failure(let failure): DocumentCondition(invalid: failure)
        }
    }
}

extension DocumentField where Value == JSONValue {
    /// The untyped field is less than the value (values of different JSON types
    /// are never ordered).
    public static func < (field: DocumentField, value: JSONValue) -> DocumentCondition {
        field.ordering(.less, value)
    }

    /// The untyped field is less than or equal to the value.
    public static func <= (field: DocumentField, value: JSONValue) -> DocumentCondition {
        field.ordering(.lessOrEqual, value)
    }

    /// The untyped field is greater than the value.
    public static func > (field: DocumentField, value: JSONValue) -> DocumentCondition {
        field.ordering(.greater, value)
    }

    /// The untyped field is greater than or equal to the value.
    public static func >= (field: DocumentField, value: JSONValue) -> DocumentCondition {
        field.ordering(.greaterOrEqual, value)
    }
}
