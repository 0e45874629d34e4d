import OrderedCollections

/// What the rows of a pipeline stage hold, and so which paths a later stage may
/// name. The SQL compiler and the evaluator both check every stage against it
/// first, so a query they can't both run is refused the same way by both.
struct RowShape: Hashable, Sendable {
    /// One named value of a row: its header (as the REPL prints it) and its path.
    struct Column: Hashable, Sendable {
        var header: String
        var path: FieldPath
    }

    /// The named columns, nil when the rows are whole documents (any path).
    var columns: [Column]?
    /// Members holding joined documents (any path below them).
    var joins: [String] = []

    /// The rows of a collection: documents.
    static let documents = RowShape(columns: nil)

    /// Refuses a path the rows can't have: after a group or select, only the
    /// columns (or paths into joined documents).
    func check(_ path: FieldPath, collection: String) throws {
        guard let columns else { return }
        if case .key(let first)? = path.components.first, joins.contains(first) { return }
        if columns.contains(where: { $0.path == path }) { return }
        let names = (columns.map(\.header) + joins).joined(separator: ", ")
        throw DocStoreError.invalidQuery(collection: collection, field: path.description,
                                         reason: "after a group or select, the rows have only these columns: \(names)")
    }

    /// The shape after `stage`, once the stage's paths and names are checked.
    func after(_ stage: PipelineStage, collection: String) throws -> RowShape {
        switch stage {
        case .refine(let query):
            for path in query.condition.paths + query.sort.map(\.path) { try check(path, collection: collection) }
            return self
        case .join(let join):
            try check(join.field, collection: collection)
            try Self.checkName(join.name, collection: collection)
            var shape = self
            shape.joins.removeAll { $0 == join.name }
            shape.joins.append(join.name)
            shape.columns?.removeAll { $0.path.components.first == .key(join.name) }
            return shape
        case .select(let expressions):
            guard !expressions.isEmpty else {
                throw DocStoreError.invalidQuery(collection: collection, field: nil, reason: "select needs at least one value")
            }
            for named in expressions {
                try Self.checkName(named.name, collection: collection)
                for path in named.expression.paths { try check(path, collection: collection) }
                guard named.expression.nesting <= ValueExpression.maximumNesting else {
                    throw DocStoreError.invalidQuery(
                        collection: collection, field: named.name,
                        reason: "the value nests \(named.expression.nesting) operations inside one another, and at most \(ValueExpression.maximumNesting) run in one SQLite expression: compute a part in a select before this one")
                }
            }
            try Self.checkUnique(expressions.map(\.name), collection: collection)
            return RowShape(columns: expressions.map { Column(header: $0.name, path: FieldPath($0.name)) })
        case .group(let grouping):
            guard !grouping.keys.isEmpty else {
                throw DocStoreError.invalidQuery(collection: collection, field: nil, reason: "group(by:) needs at least one field")
            }
            for path in grouping.keys + grouping.aggregates.compactMap(\.aggregate.field) {
                try check(path, collection: collection)
            }
            for key in grouping.keys {
                guard !key.components.isEmpty, key.components.allSatisfy({ if case .key = $0 { true } else { false } }) else {
                    throw DocStoreError.invalidQuery(collection: collection, field: key.description,
                                                     reason: "a group key is a path of member names (no array positions, not the document itself)")
                }
                if let other = grouping.keys.first(where: { $0 != key && $0.components.starts(with: key.components) }) {
                    throw DocStoreError.invalidQuery(collection: collection, field: other.description,
                                                     reason: "a group key can't be inside another key (\(key))")
                }
            }
            for named in grouping.aggregates {
                try Self.checkName(named.name, collection: collection)
                if grouping.keys.contains(where: { $0.components.first == .key(named.name) }) {
                    throw DocStoreError.invalidQuery(collection: collection, field: named.name,
                                                     reason: "the aggregate's name is also a group key's; name it otherwise")
                }
            }
            try Self.checkOneSpelling(grouping.keys + grouping.aggregates.map { FieldPath($0.name) }, collection: collection)
            try Self.checkUnique(grouping.aggregates.map(\.name) + grouping.keys.map(\.description), collection: collection)
            return RowShape(columns: grouping.keys.map { Column(header: $0.description, path: $0) }
                            + grouping.aggregates.map { Column(header: $0.name, path: FieldPath($0.name)) })
        }
    }

    /// The shape of a pipeline's rows, every stage checked.
    static func of(_ pipeline: QueryPipeline, collection: String) throws -> RowShape {
        var shape = try RowShape.documents.after(.refine(pipeline.query), collection: collection)
        for stage in pipeline.stages {
            if case .refine(let query) = stage, let relevance = query.relevance {
                throw DocStoreError.invalidQuery(collection: collection, field: relevance.field.description,
                                                 reason: "sorting by relevance works on the collection's documents: sort by it before any join, group or select")
            }
            shape = try shape.after(stage, collection: collection)
        }
        return shape
    }

    private static func checkName(_ name: String, collection: String) throws {
        guard !name.isEmpty, !name.utf8.contains(0) else {
            throw DocStoreError.invalidQuery(collection: collection, field: name,
                                             reason: "a column name must be non-empty and hold no NUL")
        }
    }

    /// Refuses two columns whose paths reach one member name written two ways
    /// (a composed "é" and "e" with a combining accent, "K" and the Kelvin
    /// sign): a row is an object keyed by `String`, which holds them as one,
    /// so one column's values landed under the other's header and the other's
    /// were lost (helper-48).
    private static func checkOneSpelling(_ paths: [FieldPath], collection: String) throws {
        for (index, first) in paths.enumerated() {
            for second in paths[(index + 1)...] {
                for case (.key(let a), .key(let b)) in zip(first.components, second.components) {
                    if ExactText.same(a, b) { continue }
                    if a == b {
                        throw DocStoreError.invalidQuery(
                            collection: collection, field: second.description,
                            reason: "it and \(first) name one member written with other Unicode characters (\(ExactText.scalarList(a)) and \(ExactText.scalarList(b))), which a row can't hold apart; group or label by one of them")
                    }
                    break
                }
            }
        }
    }

    private static func checkUnique(_ names: [String], collection: String) throws {
        var seen: Set<String> = []
        for name in names where !seen.insert(name).inserted {
            throw DocStoreError.invalidQuery(collection: collection, field: name, reason: "two columns have this name")
        }
    }
}

extension Condition {
    /// The paths the condition reads from the row (not those relative to array elements).
    var paths: [FieldPath] {
        switch self {
        case .always: []
        case .compare(let path, _, _), .isNull(let path), .exists(let path), .string(let path, _, _, _), .matches(let path, _),
             .isIn(let path, _), .isInSubquery(let path, _), .arrayContains(let path, _), .arrayCount(let path, _, _),
             .any(let path, _), .all(let path, _):
            [path]
        case .and(let conditions), .or(let conditions): conditions.flatMap(\.paths)
        case .not(let condition): condition.paths
        }
    }
}

extension ValueExpression {
    /// The most operations a computed value nests inside one another: SQLite's
    /// parser has a fixed stack, and deeper nesting fails to parse.
    static let maximumNesting = 5

    /// How many operations (arithmetic, `Double(…)`) the deepest operand is inside.
    var nesting: Int {
        switch self {
        case .field, .literal: 0
        case .arithmetic(_, let lhs, let rhs): 1 + Swift.max(lhs.nesting, rhs.nesting)
        case .double(let inner): 1 + inner.nesting
        }
    }

    /// The paths the expression reads.
    var paths: [FieldPath] {
        switch self {
        case .field(let path): [path]
        case .literal: []
        case .arithmetic(_, let lhs, let rhs): lhs.paths + rhs.paths
        case .double(let inner): inner.paths
        }
    }
}

extension JSONValue {
    /// This value with `value` at `path` (member names only), creating objects on
    /// the way; a step into something that isn't an object replaces it.
    func setting(_ value: JSONValue, at path: ArraySlice<FieldPath.Component>) -> JSONValue {
        guard case .key(let key)? = path.first else { return path.isEmpty ? value : self }
        var members: OrderedDictionary<String, JSONValue> = [:]
        if case .object(let existing) = self { members = existing }
        members[key] = (members[key] ?? .object([:])).setting(value, at: path.dropFirst())
        return .object(members)
    }
}
