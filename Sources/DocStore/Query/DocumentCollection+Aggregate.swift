import GRDBSQLite

extension DocumentCollection {
    /// Computes a summary of the documents the query selects (after its limit and offset).
    ///
    /// - `count`: `.integer`.
    /// - `min`/`max`: the least/greatest value in DocStore's sort order, ignoring
    ///   missing and null fields; `.null` when there is none.
    /// - `sum`: the sum of the numbers (other values are skipped): `.integer` when
    ///   all are integers (`0` for none), else `.double`.
    /// - `average`: the mean of the numbers as `.double`; `.null` when there is none.
    /// - `distinct`: `.array` of the distinct values (one `null` for missing and
    ///   null) in sort order; `2` and `2.0` are one value.
    /// - `countBy`: `.array` of `{"value": v, "count": n}` objects in value order.
    ///
    /// - Throws: ``DocStoreError/invalidQuery(collection:field:reason:)`` when an
    ///   integer sum overflows 64 bits.
    public func aggregate(_ query: DocumentQuery, _ aggregate: Aggregate) throws -> JSONValue {
        warnAboutUnknownFields(query.namedPaths + (aggregate.field.map { [$0] } ?? []))
        var rows: [JSONValue] = []
        var result: JSONValue?
        do {
            try readRows({ try $0.aggregate(aggregate, query) }) { statement, _ in
                switch aggregate {
                case .count:
                    result = .integer(statement.int64(at: 0))
                case .min, .max:
                    result = try statement.jsonValue(rankAt: 0, collection: name, key: nil)
                case .sum, .average:
                    if statement.isNull(at: 0) { break }
                    if statement.columnType(at: 0) == SQLITE_INTEGER {
                        result = .integer(statement.int64(at: 0))
                        break
                    }
                    // SQLite's sum of reals past a Double's range is infinity,
                    // which came out as null: an overflow, as for integers.
                    let real = statement.double(at: 0)
                    guard real.isFinite else {
                        throw DocStoreError.invalidQuery(collection: name, field: aggregate.field?.description,
                                                         reason: "the sum of these numbers goes past a Double's range (±1.8e308)")
                    }
                    result = .double(real)
                case .distinct:
                    rows.append(try statement.jsonValue(rankAt: 0, collection: name, key: nil))
                case .countBy:
                    let value = try statement.jsonValue(rankAt: 0, collection: name, key: nil)
                    rows.append(["value": value, "count": .integer(statement.int64(at: 2))])
                }
            }
        } catch DocStoreError.database(let message, _) where message.contains("integer overflow") {
            throw DocStoreError.sumOverflow(aggregate, collection: name)
        }
        switch aggregate {
        case .count, .sum: return result ?? .integer(0)
        case .min, .max, .average: return result ?? .null
        case .distinct, .countBy: return .array(rows)
        }
    }
}

extension Aggregate {
    /// The field summarized, nil for `count`.
    var field: FieldPath? {
        switch self {
        case .count: nil
        case .min(let path), .max(let path), .sum(let path), .average(let path), .distinct(let path), .countBy(let path): path
        }
    }
}
