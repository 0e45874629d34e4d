import Foundation

/// Evaluates a ``Condition`` on a JSON value in memory, with exactly the semantics
/// of the SQL the compiler emits (the differential tests hold them to it):
/// missing and null are `nil`; values of different types are never equal nor
/// ordered; numbers compare numerically; strings by UTF-8 bytes.
struct ConditionEvaluator {
    /// The values a subquery selects (keys as JSON values, or field values).
    var subqueryValues: (Subquery) -> [JSONValue]

    /// Whether `value` (a document, or an array element for `any`/`all`) satisfies `condition`.
    func matches(_ condition: Condition, _ value: JSONValue?) -> Bool {
        switch condition {
        case .always:
            return true
        case let .compare(path, op, literal):
            return Self.compare(value?.value(at: path), op, literal)
        case let .isNull(path):
            return JSONRank(value?.value(at: path)) == .null
        case let .exists(path):
            return value?.value(at: path) != nil
        case let .string(path, match, needle, caseInsensitive):
            guard case .string(let text)? = value?.value(at: path) else { return false }
            return Self.matches(text, match, needle, caseInsensitive: caseInsensitive)
        case let .matches(path, text):
            // A search text the SQL compiler refuses matches nothing here.
            guard case .string(let field)? = value?.value(at: path), let search = try? SearchText(parsing: text) else { return false }
            return search.isMatched(by: field)
        case let .isIn(path, literals):
            let field = value?.value(at: path)
            return literals.contains { Self.compare(field, .equal, $0) }
        case let .isInSubquery(path, subquery):
            let field = value?.value(at: path)
            guard JSONRank(field) <= .string else { return false }
            return subqueryValues(subquery).contains { JSONRank($0) <= .string && JSONOrder.equal(field, $0) }
        case let .arrayContains(path, literal):
            return matches(.any(path, literal.isNull ? .isNull(.root) : .compare(.root, .equal, literal)), value)
        case let .arrayCount(path, op, count):
            guard case .array(let elements)? = value?.value(at: path) else { return op == .notEqual }
            return op.holds(elements.count < count ? .orderedAscending : (elements.count == count ? .orderedSame : .orderedDescending))
        case let .any(path, element):
            guard case .array(let elements)? = value?.value(at: path) else { return false }
            return elements.contains { matches(element, $0) }
        case let .all(path, element):
            return !matches(.any(path, .not(element)), value)
        case let .and(conditions):
            return conditions.allSatisfy { matches($0, value) }
        case let .or(conditions):
            return conditions.contains { matches($0, value) }
        case let .not(condition):
            return !matches(condition, value)
        }
    }

    /// `field <op> literal`: false between different types, except `!=`, which is
    /// the negation of `==` (so true for a missing field).
    static func compare(_ field: JSONValue?, _ op: ComparisonOperator, _ literal: JSONValue) -> Bool {
        switch literal {
        case .array, .object:
            return op == .notEqual  // the compiler rejects these; never equal here
        case .double(let d) where d.isNaN:
            return op == .notEqual
        case .null where op != .equal && op != .notEqual:
            return false  // nil is not ordered
        default:
            guard JSONRank(field) == JSONRank(literal) else { return op == .notEqual }
            return op.holds(JSONOrder.compare(field, literal))
        }
    }

    /// Byte-wise prefix/suffix/substring, after Swift's case mapping when asked.
    static func matches(_ text: String, _ match: StringMatch, _ needle: String, caseInsensitive: Bool) -> Bool {
        let (text, needle) = (String(text.queryText), String(needle.queryText))
        let haystack = Array((caseInsensitive ? CaseFolding.fold(text) : text).utf8)
        let bytes = Array((caseInsensitive ? CaseFolding.fold(needle) : needle).utf8)
        if bytes.isEmpty { return true }
        if bytes.count > haystack.count { return false }
        switch match {
        case .hasPrefix: return haystack.starts(with: bytes)
        case .hasSuffix: return haystack.suffix(bytes.count).elementsEqual(bytes)
        case .contains:
            for start in 0...(haystack.count - bytes.count) where haystack[start] == bytes[0] {
                if haystack[start..<(start + bytes.count)].elementsEqual(bytes) { return true }
            }
            return false
        }
    }
}

extension ComparisonOperator {
    /// Whether the operator holds for an ordering result.
    func holds(_ order: ComparisonResult) -> Bool {
        switch self {
        case .equal: order == .orderedSame
        case .notEqual: order != .orderedSame
        case .less: order == .orderedAscending
        case .lessOrEqual: order != .orderedDescending
        case .greater: order == .orderedDescending
        case .greaterOrEqual: order != .orderedAscending
        }
    }
}

extension JSONValue {
    /// The value at `path`, or `nil` when it is missing (a member that isn't
    /// there, a position past the end or negative, a step into a non-container).
    public func value(at path: FieldPath) -> JSONValue? {
        var current = self
        for component in path.components {
            switch (component, current) {
            case let (.key(key), .object(members)):
                // By bytes, as the databases' paths match (see ExactText): the
                // dictionary's lookup would take a decomposed "é" for a composed one.
                guard let index = members.index(forKey: key), ExactText.same(members.keys[index], key) else { return nil }
                current = members.values[index]
            case let (.index(index), .array(elements)):
                guard elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}
