import Foundation
@testable import DocStore

/// Random documents and pipelines (groups, joins, computed values, conditions and
/// sorts on their rows) for the pipeline differential test. Values come from
/// small pools so groups and joins are frequent: missing, null, booleans, small
/// integers, reals that are never integral (so `2` and `2.0` never tie and the
/// result of a tie is never ambiguous) and sums are exact, strings, nested paths.
struct RandomPipelines {
    var rng: SeededGenerator

    static let groupValues: [JSONValue] = [.null, true, false, 1, 2, 3, 0.5, 2.5, "a", "b", "B", "é", ""]
    static let numbers: [JSONValue] = [.null, 0, 1, 2, 3, 7, -4, 10, 0.5, 1.25, -2.75, "x", "10", true, huge, [1, 2]]
    /// A number neither Int64 nor Double holds: selected exactly, computed as SQLite reads it (a Double).
    static let huge = JSONValue.exactNumber(JSONNumberLiteral("18446744073709551615")!)
    static let strings: [JSONValue] = ["", "a", "b", "ab", "B", "é", "😀", 3, .null]
    static let codes: [JSONValue] = [1, 2, 3, 4, "a", "b", .null, 2.5]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    /// A member (or nothing, 15% of the time: missing).
    mutating func member(_ name: String, _ pool: [JSONValue], into members: inout OrderedJSON) {
        if chance(85) { members[name] = pick(pool) }
    }

    typealias OrderedJSON = [String: JSONValue]

    mutating func document() -> JSONValue {
        var members: OrderedJSON = [:]
        member("g", Self.groupValues, into: &members)
        member("t", Self.groupValues, into: &members)
        member("n", Self.numbers, into: &members)
        member("m", Self.numbers, into: &members)
        member("s", Self.strings, into: &members)
        member("ref", Self.codes, into: &members)
        if chance(70) {
            var nested: OrderedJSON = [:]
            member("k", Self.groupValues, into: &nested)
            member("v", Self.numbers, into: &nested)
            members["h"] = .object(.init(uniqueKeysWithValues: nested.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        }
        return .object(.init(uniqueKeysWithValues: members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
    }

    mutating func otherDocument() -> JSONValue {
        var members: OrderedJSON = [:]
        member("code", Self.codes, into: &members)
        member("name", Self.strings, into: &members)
        member("w", Self.numbers, into: &members)
        return .object(.init(uniqueKeysWithValues: members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
    }

    static let documentPaths = [FieldPath("g"), FieldPath("t"), FieldPath("n"), FieldPath("m"), FieldPath("s"),
                                FieldPath("h", "k"), FieldPath("h", "v"), FieldPath("nothing")]

    /// A path the rows have: any document field, a column, or a joined field.
    mutating func path(_ columns: [FieldPath]?, joins: [String]) -> FieldPath {
        if !joins.isEmpty, chance(30) {
            return FieldPath(pick(joins), pick(["code", "name", "w", "none"]))
        }
        return pick(columns ?? Self.documentPaths)
    }

    mutating func condition(_ columns: [FieldPath]?, joins: [String], depth: Int = 2) -> Condition {
        let path = path(columns, joins: joins)
        switch int(0...(depth > 0 ? 8 : 5)) {
        // Comparisons take scalars (the compiler refuses arrays, as the DSL does).
        case 0, 1: return .compare(path, pick(ComparisonOperator.allCases), pick(Self.groupValues + Self.numbers.dropLast()))
        case 2: return .isNull(path)
        case 3: return .isIn(path, [pick(Self.numbers.dropLast()), pick(Self.groupValues)])
        case 4: return .string(path, pick(StringMatch.allCases), pick(["", "a", "b"]), caseInsensitive: chance(30))
        case 5: return .exists(path)
        case 6: return .and([condition(columns, joins: joins, depth: depth - 1), condition(columns, joins: joins, depth: depth - 1)])
        case 7: return .or([condition(columns, joins: joins, depth: depth - 1), condition(columns, joins: joins, depth: depth - 1)])
        default: return .not(condition(columns, joins: joins, depth: depth - 1))
        }
    }

    mutating func refine(_ columns: [FieldPath]?, joins: [String]) -> DocumentQuery {
        DocumentQuery(chance(60) ? condition(columns, joins: joins) : .always,
                      sort: (0..<int(0...2)).map { _ in SortKey(path(columns, joins: joins), descending: chance(50)) },
                      limit: chance(40) ? int(0...8) : nil, offset: chance(20) ? int(0...3) : nil)
    }

    mutating func expression(_ columns: [FieldPath]?, joins: [String], depth: Int = 2) -> ValueExpression {
        switch int(0...(depth > 0 ? 6 : 2)) {
        case 0, 1: return .field(path(columns, joins: joins))
        case 2: return .literal(pick([2, 3, 0, -1, 0.5, "-", "x", .null] as [JSONValue]))
        case 3: return .double(expression(columns, joins: joins, depth: depth - 1))
        default:
            return .arithmetic(pick(ArithmeticOperator.allCases), expression(columns, joins: joins, depth: depth - 1),
                               expression(columns, joins: joins, depth: depth - 1))
        }
    }

    mutating func aggregate(_ columns: [FieldPath]?, joins: [String]) -> GroupAggregate {
        let path = path(columns, joins: joins)
        switch int(0...5) {
        case 0: return .count
        case 1: return .countDistinct(path)
        case 2: return .sum(path)
        case 3: return .average(path)
        case 4: return .min(path)
        default: return .max(path)
        }
    }

    mutating func pipeline() -> QueryPipeline {
        var columns: [FieldPath]?
        var joins: [String] = []
        var pipeline = QueryPipeline(chance(50) ? refine(nil, joins: []) : DocumentQuery())
        for _ in 0..<int(1...3) {
            switch int(0...3) {
            case 0:
                var keys: [FieldPath] = []
                for _ in 0..<int(1...2) {
                    let key = path(columns, joins: joins)
                    if !keys.contains(where: { $0.components.starts(with: key.components) || key.components.starts(with: $0.components) }),
                       key.components.count == 1 || columns == nil || joins.contains(where: { key.components.first == .key($0) }) {
                        keys.append(key)
                    }
                }
                if keys.isEmpty { keys = [columns?.first ?? FieldPath("g")] }
                var aggregates: [NamedAggregate] = []
                for index in 0..<int(0...3) { aggregates.append(NamedAggregate("a\(index)", aggregate(columns, joins: joins))) }
                pipeline.stages.append(.group(Grouping(keys: keys, aggregates: aggregates)))
                columns = keys + aggregates.map { FieldPath($0.name) }
                joins = []
            case 1:
                let name = pick(["j", "k"])
                let target: Join.Target = chance(40) ? .key : .field(FieldPath("code"))
                pipeline.stages.append(.join(Join("other", on: path(columns, joins: joins), equals: target, as: name, many: chance(25))))
                joins.removeAll { $0 == name }
                joins.append(name)
                columns?.removeAll { $0.components.first == .key(name) }
            case 2:
                let expressions = (0..<int(1...3)).map { NamedExpression("c\($0)", expression(columns, joins: joins)) }
                pipeline.stages.append(.select(expressions))
                columns = expressions.map { FieldPath($0.name) }
                joins = []
            default:
                pipeline.stages.append(.refine(refine(columns, joins: joins)))
            }
        }
        return pipeline
    }
}
