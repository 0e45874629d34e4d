/// Computed values and aggregates on PostgreSQL, as `jsonb` (see
/// ``RowScope/expression(_:)`` and ``RowScope/aggregate(_:)`` for their Swift
/// semantics).
///
/// jsonb keeps one kind of number (`numeric`), so an integer is a number
/// written without a fraction (`scale = 0`) within `bigint`'s range; a real
/// computed here is written with one (`3.0`, never `3`), so that it reads back
/// as a `Double`. Integer arithmetic runs on `bigint`, whose overflow is an
/// error ("bigint out of range"); an integer sum is cast from its exact
/// `numeric` total through text, whose overflow is another ("… is out of range
/// for type bigint"): the collection tells the two apart by their messages.
extension RowScope {
    /// The message PostgreSQL gives when integer arithmetic overflows.
    static let postgresArithmeticOverflow = "bigint out of range"
    /// The end of the message PostgreSQL gives when an integer sum overflows.
    static let postgresSumOverflow = "is out of range for type bigint"

    /// A computed value: its rank and jsonb value (NULL for Swift's `nil`).
    func postgresExpression(_ expression: ValueExpression) throws -> (rank: SQLFragment, value: SQLFragment) {
        if case .field(let path) = expression {
            let field = try field(path)
            return (field.rank, field.value)
        }
        let value = try postgresOperand(expression).value
        return (FieldSQL.postgresRank(ofComputed: value), value)
    }

    /// An operand: its jsonb, and whether it is short (a field or a constant)
    /// and so repeated freely rather than computed once in a subquery.
    private struct Operand {
        var value: SQLFragment
        var isShort: Bool
    }

    private func postgresOperand(_ expression: ValueExpression) throws -> Operand {
        switch expression {
        case .field(let path):
            return Operand(value: try field(path).value, isShort: true)
        case .literal(let value):
            return Operand(value: value.isNull ? "NULL::jsonb" : ConditionCompiler.postgresJSON(value), isShort: true)
        case .double(let inner):
            return Operand(value: Self.postgresOver([try postgresOperand(inner)]) { x in
                "(CASE WHEN jsonb_typeof(" + x[0] + ") = 'number' THEN " + Self.postgresReal(Self.postgresDouble(x[0])) + " END)"
            }, isShort: false)
        case let .arithmetic(op, lhs, rhs):
            return Operand(value: Self.postgresOver([try postgresOperand(lhs), try postgresOperand(rhs)]) { x in
                Self.postgresArithmetic(op, x[0], x[1])
            }, isShort: false)
        }
    }

    /// `body` over the operands: inline when they are short, else over a
    /// one-row subquery computing each once (nesting grows linearly). The
    /// subquery's `OFFSET 0` keeps PostgreSQL from pulling it up, which would
    /// put each operand back wherever the body names it: a computation nested
    /// three deep then took 150 µs a row instead of 10.
    private static func postgresOver(_ operands: [Operand], _ body: ([SQLFragment]) -> SQLFragment) -> SQLFragment {
        if operands.allSatisfy(\.isShort) { return body(operands.map(\.value)) }
        let columns = operands.enumerated().map { $0.element.value + " AS x\($0.offset)" }
        let names = operands.indices.map { SQLFragment("o.x\($0)") }
        return "(SELECT " + body(names) + " FROM (SELECT " + .joined(columns, separator: ", ") + " OFFSET 0) AS o)"
    }

    /// `lhs op rhs` with Swift's meaning. Nested CASEs, never AND, guard each
    /// cast: PostgreSQL evaluates AND's operands in no promised order, and
    /// folds a constant arm only once its condition is known to hold.
    private static func postgresArithmetic(_ op: ArithmeticOperator, _ l: SQLFragment, _ r: SQLFragment) -> SQLFragment {
        func integral(_ x: SQLFragment) -> SQLFragment {
            "scale(CAST(" + x + " AS numeric)) = 0 AND CAST(" + x + " AS numeric) BETWEEN -9223372036854775808 AND 9223372036854775807"
        }
        let (li, ri) = ("CAST(" + l + " AS bigint)", "CAST(" + r + " AS bigint)")
        let (ld, rd) = (postgresDouble(l), postgresDouble(r))
        let integer: SQLFragment = op == .divide
            ? "CASE WHEN " + ri + " = 0 THEN NULL ELSE to_jsonb(" + li + " / " + ri + ") END"
            : "to_jsonb(" + li + " \(op.rawValue) " + ri + ")"
        let real: SQLFragment = op == .divide
            ? "CASE WHEN " + rd + " = 0 THEN NULL ELSE " + postgresReal(ld + " / " + rd) + " END"
            : postgresReal(ld + " \(op.rawValue) " + rd)
        var value: SQLFragment = "(CASE WHEN jsonb_typeof(" + l + ") = 'number' AND jsonb_typeof(" + r + ") = 'number' THEN CASE WHEN "
            + integral(l) + " AND " + integral(r) + " THEN " + integer + " ELSE " + real + " END"
        if op == .add {
            value += " WHEN jsonb_typeof(" + l + ") = 'string' AND jsonb_typeof(" + r + ") = 'string' THEN to_jsonb((" + l
                + " #>> '{}') || (" + r + " #>> '{}'))"
        }
        return value + " END)"
    }

    /// A jsonb (or numeric) number as a `double precision`, as a Double reads
    /// it: a number nearer zero than the least subnormal is 0 (PostgreSQL's
    /// own cast fails on `1e-400`: "out of range for type double precision").
    static func postgresDouble(_ number: SQLFragment) -> SQLFragment {
        "(CASE WHEN abs(CAST(" + number + " AS numeric)) < 2.4703282292062328e-324 THEN CAST(0 AS double precision) ELSE CAST("
            + number + " AS double precision) END)"
    }

    /// A `double precision` as a jsonb number that reads back as a real: its
    /// shortest exact text, with `.0` when it is integral.
    static func postgresReal(_ double: SQLFragment) -> SQLFragment {
        let exact = "CAST(CAST(" + double + " AS text) AS numeric)"
        return postgresNumber("CASE WHEN " + double + " = trunc(" + double + ") THEN round(" + exact + ", 1) ELSE " + exact + " END")
    }

    /// A `numeric` or `bigint` as a jsonb number, through its text. Not
    /// `to_jsonb`: that function is STABLE, and Citus refuses an UPDATE that
    /// calls a STABLE function on a column (docs/citus.md); these casts are
    /// IMMUTABLE and give the same number.
    static func postgresNumber(_ number: SQLFragment) -> SQLFragment {
        "CAST(CAST(" + number + " AS text) AS jsonb)"
    }

    /// An aggregate over rows giving each value's `rank` and jsonb `value`,
    /// whose first-seen order is `order` (for arrays and objects, which have no
    /// order among themselves on PostgreSQL), text when `orderIsText`, else an
    /// integer. `number` is the value as `numeric` when it is a number (NULL
    /// otherwise), when a column already holds it; else it is cast where it is
    /// read. Single aggregates use it too.
    static func postgresAggregate(_ aggregate: GroupAggregate, rank r: SQLFragment, value v: SQLFragment, number: SQLFragment? = nil,
                                  order k: SQLFragment, orderIsText: Bool = false) -> SQLFragment {
        let n = number ?? "CASE WHEN " + r + " = 2 THEN CAST(" + v + " AS numeric) END"
        switch aggregate {
        case .count:
            return "to_jsonb(count(*))"
        case .countDistinct:
            return "to_jsonb(count(DISTINCT CASE WHEN " + r + " > 0 THEN " + v + " END))"
        case .sum:
            // A real when any number has decimals or lies beyond Int64: numeric
            // addition keeps the most decimals of its terms, so the exact sum's
            // scale tells the first, its terms' least and greatest the second.
            let isReal = "scale(sum(" + n + ")) > 0 OR min(" + n + ") < -9223372036854775808 OR max(" + n + ") > 9223372036854775807"
            return "(CASE WHEN " + isReal + " THEN " + postgresReal("CAST(sum(" + n + ") AS double precision)")
                + " ELSE to_jsonb(CAST(CAST(coalesce(sum(" + n + "), 0) AS text) AS bigint)) END)"
        case .average:
            // The exact total as a double, divided as Swift divides.
            return "(CASE WHEN count(" + n + ") = 0 THEN NULL ELSE " + postgresReal(
                "CAST(sum(" + n + ") AS double precision) / CAST(count(" + n + ") AS double precision)") + " END)"
        case .min, .max:
            let isMin = if case .min = aggregate { true } else { false }
            let extreme = isMin ? "min" : "max"
            // FILTER, not a CASE inside: its argument is then read only for the
            // rows of its rank.
            let boolean = "to_jsonb(" + (isMin ? "bool_and" : "bool_or") + "(CAST(" + v + " AS boolean)) FILTER (WHERE " + r + " = 1))"
            // Of 2 and 2.0, both extreme, the integer.
            let integer = "\(extreme)(" + n + ") FILTER (WHERE scale(" + n + ") = 0)"
            let numeric = "CASE WHEN " + integer + " = \(extreme)(" + n + ") THEN to_jsonb(" + integer
                + ") ELSE to_jsonb(\(extreme)(" + n + ")) END"
            let string = "to_jsonb(\(extreme)((" + v + " #>> '{}') COLLATE \"C\") FILTER (WHERE " + r + " = 3))"
            let containers = [4, 5].map {
                postgresFirst(v, where: r + " = \($0)", order: k, orderIsText: orderIsText)
            }
            let ranks: [SQLFragment] = [boolean, numeric, string, containers[0], containers[1]]
            return "coalesce(" + .joined(isMin ? ranks : ranks.reversed(), separator: ", ") + ")"
        }
    }

    /// The first `value` in `order` among the rows where `condition` holds,
    /// without an ordered aggregate (which would keep PostgreSQL from hashing
    /// the groups): the least of [order as text that sorts as it does, the
    /// value's text]. `order` is text when `orderIsText`, else an integer.
    static func postgresFirst(_ value: SQLFragment, where condition: SQLFragment, order: SQLFragment, orderIsText: Bool) -> SQLFragment {
        let sortable = orderIsText ? order : "lpad(CAST(CAST(" + order + " AS numeric) + 9223372036854775808 AS text), 20, '0')"
        return "CAST((min(ARRAY[" + sortable + ", CAST(" + value + " AS text)] COLLATE \"C\") FILTER (WHERE " + condition + "))[2] AS jsonb)"
    }
}
