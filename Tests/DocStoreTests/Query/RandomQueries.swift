import Foundation
@testable import DocStore

/// Random documents and conditions over the whole query AST, drawing values and
/// member names from small pools full of edge cases so that matches are frequent.
struct RandomQueries {
    var rng: SeededGenerator

    static let memberNames = [
        "a", "b", "n", "s", "tags", "obj", "x.y", "q\"k", "sp ace", "$d", "[0]", "emoji😀", "back\\slash",
        "sl/ash", "", "it's", "ctl\u{1}", "ß",
    ]
    static let strings = [
        "", "a", "A", "ab", "abc", "Abc", "aBC", "b", "é", "e\u{301}", "ÉCOLE", "école", "5", "2", "x'y",
        "'; DROP TABLE t; --", "nul\u{0}byte", "nul", "emoji😀", "😀", "ß", "SS", "ss", "İ", "i̇", "ǅ", "ǆ", "[1]",
        "{\"a\":1}", "true", "Σ", "σ", "ς", "\\", "\"", "%", "_", "zz", String(repeating: "long", count: 50),
    ]
    static let integers: [Int64] = [-2, -1, 0, 1, 2, 3, 5, 10, 9_007_199_254_740_993, Int64.max, Int64.min]
    static let doubles: [Double] = [-1.5, 0.0, 0.5, 1.0, 2.0, 2.5, 3.0, 1e20, 9_007_199_254_740_992.0, 0.1, -0.0, 1e-7]
    /// Numbers that neither Int64 nor Double holds exactly (next to ones they do).
    static let exactNumbers: [JSONValue] = [
        "18446744073709551615", "9223372036854775808", "-9223372036854775809", "100000000000000000000",
        "123456789012345678901234567890", "0.1000000000000000055511151231257827", "2.50000000000000000001",
    ].compactMap { JSONNumberLiteral($0).map(JSONValue.exactNumber) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    mutating func scalar() -> JSONValue {
        switch int(0...9) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2, 3: return .integer(pick(Self.integers))
        case 4: return .double(pick(Self.doubles))
        case 5: return chance(50) ? .double(pick(Self.doubles)) : pick(Self.exactNumbers)
        default: return .string(pick(Self.strings))
        }
    }

    mutating func value(depth: Int) -> JSONValue {
        guard depth > 0 else { return scalar() }
        switch int(0...9) {
        case 0, 1: return .array((0..<int(0...4)).map { _ in value(depth: depth - 1) })
        case 2: return object(depth: depth - 1, fields: int(0...4))
        default: return scalar()
        }
    }

    mutating func object(depth: Int, fields: Int) -> JSONValue {
        var members: [(String, JSONValue)] = []
        for _ in 0..<fields {
            let name = pick(Self.memberNames)
            if members.contains(where: { $0.0 == name }) { continue }
            members.append((name, value(depth: depth)))
        }
        return .object(.init(uniqueKeysWithValues: members))
    }

    mutating func document(id: Int64) -> JSONValue {
        guard case .object(var members) = object(depth: 2, fields: int(2...8)) else { fatalError() }
        members["id"] = .integer(id)
        return .object(members)
    }

    mutating func path(depth: Int = 2) -> FieldPath {
        var components: [FieldPath.Component] = [.key(pick(Self.memberNames))]
        while components.count < depth, chance(35) {
            components.append(chance(70) ? .key(pick(Self.memberNames)) : .index(int(-1...3)))
        }
        return FieldPath(components)
    }

    mutating func relativePath() -> FieldPath {
        chance(40) ? .root : path(depth: 2)
    }

    mutating func condition(depth: Int, relative: Bool = false, subqueries: Bool = true) -> Condition {
        let path = relative ? relativePath() : path()
        let leaves = 11
        let choice = depth > 0 ? int(0...(leaves + 4)) : int(0...(leaves - 1))
        switch choice {
        case 0: return .compare(path, pick(ComparisonOperator.allCases), scalar())
        case 1: return .compare(path, pick(ComparisonOperator.allCases), scalar())
        case 2: return .isNull(path)
        case 3: return .exists(path)
        case 4: return .string(path, pick(StringMatch.allCases), pick(Self.strings).prefix(int(0...4)).description, caseInsensitive: chance(40))
        case 5: return .isIn(path, (0..<int(0...4)).map { _ in scalar() })
        case 6:
            if !subqueries { return .always }
            let sub = Subquery(collection: chance(85) ? "other" : "nowhere",
                               condition: condition(depth: 1, subqueries: false),
                               field: chance(50) ? nil : self.path())
            return .isInSubquery(path, sub)
        case 7: return .arrayContains(path, scalar())
        case 8: return .arrayCount(path, pick(ComparisonOperator.allCases), int(0...3))
        case 9: return chance(10) ? .always : .compare(path, .equal, scalar())
        case 10: return .string(path, pick(StringMatch.allCases), pick(Self.strings), caseInsensitive: chance(50))
        case leaves: return .any(self.path(), condition(depth: depth - 1, relative: true, subqueries: subqueries))
        case leaves + 1: return .all(self.path(), condition(depth: depth - 1, relative: true, subqueries: subqueries))
        case leaves + 2: return .and((0..<int(0...3)).map { _ in condition(depth: depth - 1, relative: relative, subqueries: subqueries) })
        case leaves + 3: return .or((0..<int(0...3)).map { _ in condition(depth: depth - 1, relative: relative, subqueries: subqueries) })
        default: return .not(condition(depth: depth - 1, relative: relative, subqueries: subqueries))
        }
    }

    mutating func query() -> DocumentQuery {
        DocumentQuery(condition(depth: 3),
                      sort: (0..<int(0...2)).map { _ in SortKey(path(), descending: chance(50)) },
                      limit: chance(25) ? int(0...10) : nil,
                      offset: chance(15) ? int(0...5) : nil)
    }

    mutating func aggregate() -> Aggregate {
        let path = path()
        switch int(0...6) {
        case 0: return .count
        case 1: return .min(path)
        case 2: return .max(path)
        case 3: return .sum(path)
        case 4: return .average(path)
        case 5: return .distinct(path)
        default: return .countBy(path)
        }
    }
}
