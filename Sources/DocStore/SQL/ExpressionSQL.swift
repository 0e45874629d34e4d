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
        if dialect == .postgres { return try postgresExpression(expression) }
        let operand = try self.operand(expression)
        return (operand.rank ?? Self.rank(ofComputed: operand.value), operand.value)
    }

    /// An operand's SQL: a field's or constant's rank and value, or a computed
    /// value alone (its rank follows from its SQL type, so it is never written twice).
    private struct Operand {
        var rank: SQLFragment?
        var value: SQLFragment
    }

    private func operand(_ expression: ValueExpression) throws -> Operand {
        switch expression {
        case .field(let path):
            let field = try field(path)
            return Operand(rank: field.rank, value: field.value)
        case .literal(let value):
            let (rank, binding) = ConditionCompiler.scalar(value)
            return Operand(rank: RowScope.constantRank(rank.rawValue), value: rank == .null ? "NULL" : .bound(binding))
        case .double(let inner):
            let x = try operand(inner)
            return Operand(value: Self.over([x]) { columns in
                "CASE WHEN " + columns[0].rank + " = 2 THEN CAST(" + columns[0].value + " AS REAL) END"
            })
        case let .arithmetic(op, lhs, rhs):
            let (l, r) = (try operand(lhs), try operand(rhs))
            return Operand(value: Self.over([l, r]) { columns in
                Self.arithmetic(op, columns[0], columns[1])
            })
        }
    }

    /// `body` over the operands: written inline when they are fields and constants
    /// (short, repeated freely), else over a one-row subquery that computes each
    /// operand once, so nested computations grow linearly, not exponentially.
    private static func over(_ operands: [Operand], _ body: ([(rank: SQLFragment, value: SQLFragment)]) -> SQLFragment) -> SQLFragment {
        if operands.allSatisfy({ $0.rank != nil }) {
            return body(operands.map { ($0.rank!, $0.value) })
        }
        var columns: [SQLFragment] = []
        var names: [(rank: SQLFragment, value: SQLFragment)] = []
        for (index, operand) in operands.enumerated() {
            columns.append(operand.value + " AS x\(index)")
            if let rank = operand.rank {
                columns.append(rank + " AS r\(index)")
                names.append((SQLFragment("r\(index)"), SQLFragment("x\(index)")))
            } else {
                names.append((rank(ofComputed: SQLFragment("x\(index)")), SQLFragment("x\(index)")))
            }
        }
        return "(SELECT " + body(names) + " FROM (SELECT " + .joined(columns, separator: ", ") + "))"
    }

    /// The rank of a computed value: a number, a string, or nil.
    private static func rank(ofComputed value: SQLFragment) -> SQLFragment {
        "CASE typeof(" + value + ") WHEN 'integer' THEN 2 WHEN 'real' THEN 2 WHEN 'text' THEN 3 ELSE 0 END"
    }

    /// `lhs op rhs` with Swift's meaning on two operands' ranks and values.
    private static func arithmetic(_ op: ArithmeticOperator, _ lhs: (rank: SQLFragment, value: SQLFragment),
                                   _ rhs: (rank: SQLFragment, value: SQLFragment)) -> SQLFragment {
        let (lr, lv, rr, rv) = (lhs.rank, lhs.value, rhs.rank, rhs.value)
        let result = "(" + lv + " \(op.rawValue) " + rv + ")"
        // SQLite turns an integer result that overflows into a real: Swift traps.
        let overflow = "typeof(" + lv + ") = 'integer' AND typeof(" + rv + ") = 'integer' AND typeof" + result + " <> 'integer'"
        var numeric: SQLFragment = "CASE WHEN " + overflow + " THEN \(ArithmeticOverflow.functionName)() ELSE " + result + " END"
        if op == .divide { numeric = "CASE WHEN " + rv + " = 0 THEN NULL ELSE " + numeric + " END" }
        var value: SQLFragment = "CASE WHEN (" + lr + ") = 2 AND (" + rr + ") = 2 THEN " + numeric
        if op == .add { value += " WHEN (" + lr + ") = 3 AND (" + rr + ") = 3 THEN " + lv + " || " + rv }
        return value + " END"
    }

    /// A group aggregate over the scope's rows (for a `GROUP BY` on SQLite; on
    /// PostgreSQL, ``PipelineCompiler/postgresGroup(_:_:)`` reads them).
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
