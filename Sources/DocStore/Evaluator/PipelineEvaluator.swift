import Foundation

extension QueryPipeline {
    /// Runs the pipeline on documents in memory, with the semantics of
    /// ``DocumentCollection/rows(_:)`` on a collection holding them (the
    /// differential tests hold the two to the same results).
    ///
    /// - Parameters:
    ///   - collection: The collection's name, for errors.
    ///   - collections: The documents of another collection a join reads, nil when
    ///     it doesn't exist.
    /// - Throws: ``DocStoreError/invalidQuery(collection:field:reason:)`` as the
    ///   collection would; ``AggregateOverflow`` when an integer sum or computation
    ///   overflows.
    public func run(
        on documents: [(key: DocumentKey, document: JSONValue)], collection: String = "documents",
        collections: (String) -> [(key: DocumentKey, document: JSONValue)]? = { _ in nil },
        subqueryValues: (Subquery) -> [JSONValue] = { _ in [] }
    ) throws -> [JSONValue] {
        _ = try RowShape.of(self, collection: collection)
        var rows = query.run(on: documents, subqueryValues: subqueryValues).map(\.document)
        for stage in stages {
            switch stage {
            case .refine(let query):
                rows = Self.refine(rows, query, subqueryValues: subqueryValues)
            case .join(let join):
                let others = collections(join.collection)?.sorted { JSONOrder.compare($0.key, $1.key) == .orderedAscending }
                rows = rows.map { row in
                    let value = row.value(at: join.field)
                    if join.many {
                        let matches = others?.filter { Self.joins(value, $0, join.target) }.map(\.document) ?? []
                        return row.setting(.array(matches), at: [.key(join.name)])
                    }
                    let match = others?.first { Self.joins(value, $0, join.target) }
                    return row.setting(match?.document ?? .null, at: [.key(join.name)])
                }
            case .select(let expressions):
                rows = try rows.map { row in
                    try expressions.reduce(JSONValue.object([:])) { result, named in
                        // A field is selected exactly as stored; computed values as queries read numbers.
                        let value = if case .field(let path) = named.expression { row.value(at: path) }
                            else { try Self.evaluate(named.expression, on: row) }
                        return result.setting(value ?? .null, at: [.key(named.name)])
                    }
                }
            case .group(let grouping):
                rows = try Self.group(rows, grouping)
            }
        }
        return rows
    }

    /// Filters, sorts (stably: ties keep the rows' order) and limits rows.
    static func refine(_ rows: [JSONValue], _ query: DocumentQuery, subqueryValues: (Subquery) -> [JSONValue]) -> [JSONValue] {
        let selected = rows.filter { query.condition.matches($0, subqueryValues: subqueryValues) }
        let sorted = selected.sorted(by: query.sort)
        let start = Swift.min(Swift.max(query.offset ?? 0, 0), sorted.count)
        let remaining = sorted[start...]
        guard let limit = query.limit, limit >= 0 else { return Array(remaining) }
        return Array(remaining.prefix(limit))
    }

    /// Whether a row's field value joins a document of the other collection.
    static func joins(_ value: JSONValue?, _ other: (key: DocumentKey, document: JSONValue), _ target: Join.Target) -> Bool {
        let rank = JSONRank(value)
        guard rank >= .bool, rank <= .string else { return false }
        let candidate: JSONValue? = switch target {
        case .key: other.key.jsonValue
        case .field(let path): other.document.value(at: path)
        }
        return JSONRank(candidate) == rank && JSONOrder.equal(value?.asQueried, candidate?.asQueried)
    }

    /// One row per distinct key combination, in key order.
    static func group(_ rows: [JSONValue], _ grouping: Grouping) throws -> [JSONValue] {
        let keyed = rows.map { row in (keys: grouping.keys.map { row.value(at: $0)?.asQueried ?? .null }, row: row) }
        let sorted = keyed.enumerated().sorted { a, b in
            for (x, y) in zip(a.element.keys, b.element.keys) {
                let order = JSONOrder.compare(x, y)
                if order != .orderedSame { return order == .orderedAscending }
            }
            return a.offset < b.offset
        }.map(\.element)
        var groups: [(keys: [JSONValue], rows: [JSONValue])] = []
        for item in sorted {
            if let last = groups.last, zip(last.keys, item.keys).allSatisfy({ JSONOrder.equal($0, $1) }) {
                groups[groups.count - 1].rows.append(item.row)
            } else {
                groups.append((item.keys, [item.row]))
            }
        }
        return try groups.map { group in
            var row = JSONValue.object([:])
            for (index, path) in grouping.keys.enumerated() {
                // 2 and 2.0 are one group: its key is the integer when a row has one.
                let integer = group.rows.lazy.compactMap { row -> JSONValue? in
                    if case .integer = row.value(at: path) { return row.value(at: path) }
                    return nil
                }.first
                row = row.setting(integer ?? Self.positiveZero(group.keys[index]), at: path.components[...])
            }
            for named in grouping.aggregates {
                let values = group.rows.map { $0.value(at: named.aggregate.field ?? .root)?.asQueried }
                row = row.setting(try aggregate(named.aggregate, values), at: [.key(named.name)])
            }
            return row
        }
    }

    /// An aggregate over one group's values (missing as nil).
    static func aggregate(_ aggregate: GroupAggregate, _ values: [JSONValue?]) throws -> JSONValue {
        let present = values.compactMap { $0 }.filter { !$0.isNull }
        switch aggregate {
        case .count:
            return .integer(Int64(values.count))
        case .countDistinct:
            let ordered = present.sorted { JSONOrder.compare($0, $1) == .orderedAscending }
            var distinct = 0
            for (index, value) in ordered.enumerated() where index == 0 || !JSONOrder.equal(ordered[index - 1], value) {
                distinct += 1
            }
            return .integer(Int64(distinct))
        case .sum, .average:
            let isAverage = if case .average = aggregate { true } else { false }
            return try MirroredSum.of(present, average: isAverage)
        case .min, .max:
            let isMin = if case .min = aggregate { true } else { false }
            let best = present.reduce(nil as JSONValue?) { best, value in
                guard let best else { return value }
                let order = JSONOrder.compare(value, best)
                if order == .orderedSame, case .integer = value { return value }  // of 2 and 2.0, the integer
                return (isMin ? order == .orderedAscending : order == .orderedDescending) ? value : best
            }
            return best.map(positiveZero) ?? .null
        }
    }

    /// A real as `x + 0.0`: -0.0 becomes 0.0 (equal values, one way to show them).
    static func positiveZero(_ value: JSONValue) -> JSONValue {
        if case .double(let d) = value { return .double(d + 0.0) }
        return value
    }

    /// A computed value (nil for Swift's `nil`).
    static func evaluate(_ expression: ValueExpression, on row: JSONValue) throws -> JSONValue? {
        switch expression {
        case .field(let path):
            return row.value(at: path)?.asQueried
        case .literal(let value):
            if case .string(let text) = value { return .string(String(text.queryText)) }
            return value.isNull ? nil : value.asQueried
        case .double(let inner):
            return try evaluate(inner, on: row)?.numberValue.map(JSONValue.double)
        case let .arithmetic(op, lhs, rhs):
            let (l, r) = (try evaluate(lhs, on: row), try evaluate(rhs, on: row))
            switch (l, r) {
            case let (.integer(a)?, .integer(b)?):
                let (result, overflow): (Int64, Bool)
                switch op {
                case .add: (result, overflow) = a.addingReportingOverflow(b)
                case .subtract: (result, overflow) = a.subtractingReportingOverflow(b)
                case .multiply: (result, overflow) = a.multipliedReportingOverflow(by: b)
                case .divide:
                    if b == 0 { return nil }
                    (result, overflow) = a.dividedReportingOverflow(by: b)
                }
                if overflow { throw AggregateOverflow() }
                return .integer(result)
            case let (.string(a)?, .string(b)?) where op == .add:
                return .string(a + b)
            default:
                guard let a = l?.numberValue, let b = r?.numberValue,
                      JSONRank(l) == .number, JSONRank(r) == .number else { return nil }
                let result: Double
                switch op {
                case .add: result = a + b
                case .subtract: result = a - b
                case .multiply: result = a * b
                case .divide:
                    if b == 0 { return nil }
                    result = a / b
                }
                // PostgreSQL's numeric, which a computed real becomes, has no -0.
                return JSONOrder.reading == .postgres ? positiveZero(.double(result)) : .double(result)
            }
        }
    }
}
