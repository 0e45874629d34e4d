import GRDB

/// SQL for computed values and group aggregates, as `rank, value` pairs like a
/// field's (``FieldSQL``), so that conditions and sorts read them the same way.
extension RowScope {
    /// A rank known in advance, written so that SQLite never reads it as a column
    /// number (`GROUP BY 2`, `ORDER BY 2` name the second column).
    static func constantRank(_ rank: Int) -> SQLFragment {
        SQLFragment("(0 + \(rank))")
    }

    /// A computed value (see ``ValueExpression`` for its Swift semantics).
    func expression(_ expression: ValueExpression) throws -> (rank: SQLFragment, value: SQLFragment) {
        switch expression {
        case .field(let path):
            let field = try field(path)
            return (field.rank, field.value)
        case .literal(let value):
            let (rank, binding) = ConditionCompiler.scalar(value)
            return (RowScope.constantRank(rank.rawValue), rank == .null ? "NULL" : .bound(binding))
        case .double(let inner):
            let (rank, value) = try self.expression(inner)
            let isNumber = "(" + rank + ") = \(JSONRank.number.rawValue)"
            return ("CASE WHEN " + isNumber + " THEN \(JSONRank.number.rawValue) ELSE 0 END",
                    "CASE WHEN " + isNumber + " THEN CAST(" + value + " AS REAL) END")
        case let .arithmetic(op, lhs, rhs):
            let (lr, lv) = try self.expression(lhs)
            let (rr, rv) = try self.expression(rhs)
            let result = "(" + lv + " \(op.rawValue) " + rv + ")"
            // SQLite turns an integer result that overflows into a real: Swift traps.
            let overflow = "typeof(" + lv + ") = 'integer' AND typeof(" + rv + ") = 'integer' AND typeof" + result + " <> 'integer'"
            var numeric: SQLFragment = "CASE WHEN " + overflow + " THEN \(ArithmeticOverflow.functionName)() ELSE " + result + " END"
            if op == .divide { numeric = "CASE WHEN " + rv + " = 0 THEN NULL ELSE " + numeric + " END" }
            var value: SQLFragment = "CASE WHEN (" + lr + ") = 2 AND (" + rr + ") = 2 THEN " + numeric
            if op == .add { value += " WHEN (" + lr + ") = 3 AND (" + rr + ") = 3 THEN " + lv + " || " + rv }
            value += " END"
            return ("CASE typeof(" + value + ") WHEN 'integer' THEN 2 WHEN 'real' THEN 2 WHEN 'text' THEN 3 ELSE 0 END", value)
        }
    }

    /// A group aggregate over the scope's rows (for a `GROUP BY`).
    func aggregate(_ aggregate: GroupAggregate) throws -> (rank: SQLFragment, value: SQLFragment) {
        let number = RowScope.constantRank(JSONRank.number.rawValue)
        guard let path = aggregate.field else { return (number, "count(*)") }
        let field = try field(path)
        func only(_ rank: Int) -> SQLFragment {
            "CASE WHEN " + field.rank + " = \(rank) THEN " + field.value + " END"
        }
        switch aggregate {
        case .count:
            return (number, "count(*)")
        case .countDistinct:
            let counts = (1...5).map { "count(DISTINCT " + only($0) + ")" }
            return (number, "(" + .joined(counts, separator: " + ") + ")")
        case .sum:
            return (number, "coalesce(sum(" + only(2) + "), 0)")
        case .average:
            let average = "avg(" + only(2) + ")"
            return ("CASE WHEN " + average + " IS NULL THEN 0 ELSE " + number + " END", average)
        case .min, .max:
            // The least (greatest) value of the least (greatest) rank present.
            let isMin = if case .min = aggregate { true } else { false }
            let ranks = isMin ? Array(1...5) : Array((1...5).reversed())
            var rank: SQLFragment = "CASE"
            var value: SQLFragment = "CASE"
            for r in ranks {
                let extreme = (isMin ? "min(" : "max(") + only(r) + ")"
                rank += " WHEN " + extreme + " IS NOT NULL THEN \(r)"
                if r == JSONRank.number.rawValue {
                    // Of 2 and 2.0, both extreme, the integer; of 0.0 and -0.0, 0.0.
                    let integer = (isMin ? "min(" : "max(") + "CASE WHEN " + field.rank + " = 2 AND typeof(" + field.value
                        + ") = 'integer' THEN " + field.value + " END)"
                    value += " WHEN " + extreme + " IS NOT NULL THEN CASE WHEN " + integer + " = " + extreme
                        + " THEN " + integer + " ELSE " + extreme + " + 0.0 END"  // and 0.0 of -0.0
                } else {
                    value += " WHEN " + extreme + " IS NOT NULL THEN " + extreme
                }
            }
            return (rank + " ELSE 0 END", value + " END")
        }
    }
}

/// `docstore_overflow()`: fails the statement, for an integer computation that
/// overflows 64 bits (SQLite would quietly make it a real; Swift traps).
enum ArithmeticOverflow {
    static let functionName = "docstore_overflow"
    /// The text of the error it raises, which the collection turns into a ``DocStoreError``.
    static let message = "docstore: integer overflow in a computed value"

    static let function = DatabaseFunction(functionName, argumentCount: 0, pure: false) { _ in
        throw DatabaseError(message: message)
    }
}
