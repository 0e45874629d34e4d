/// The sum or average of numbers as the database being mirrored computes them
/// (see ``QueryReading``), in the values' order. Other values are skipped.
/// Single aggregates and group aggregates both compute it here.
///
/// - SQLite's `sum`: exact 64-bit integers until a real appears (an overflow
///   before then is an error), else the doubles added one by one (a number
///   beyond Int64 and Double counts as its nearest double). Its `avg`: that
///   running double total over the count; an integer overflow doesn't stop it.
/// - PostgreSQL's, as DocStore compiles them: integers alone stay integers,
///   added exactly, an error only when the total doesn't fit Int64 (not when
///   the running total passes it on the way); otherwise the exact decimal total
///   rounded to a double once, as is the average's total.
enum MirroredSum {
    static func of(_ values: some Sequence<JSONValue>, average: Bool) throws(AggregateOverflow) -> JSONValue {
        var integer: Int64 = 0, real = 0.0, approximate = false, count = 0
        var exact: ExactDecimalSum? = JSONOrder.reading == .postgres ? ExactDecimalSum() : nil
        var passedInt64 = false
        for value in values {
            switch value {
            case .integer(let i):
                real += Double(i)
                exact?.add(String(i))
                if !approximate {
                    let (sum, overflow) = integer.addingReportingOverflow(i)
                    if overflow {
                        if average {
                            approximate = true
                        } else if exact == nil {
                            throw AggregateOverflow()  // SQLite's sum fails there and then
                        } else {
                            passedInt64 = true  // PostgreSQL's total decides
                        }
                    }
                    integer = sum
                }
            case .double(let d):
                real += d
                exact?.add(d.description)
                approximate = true
            case .exactNumber(let number):
                real += number.doubleValue
                exact?.add(number.text)
                approximate = true
            default:
                continue
            }
            count += 1
        }
        if let exact, exact.isExact { real = exact.doubleValue }
        if average { return count == 0 ? .null : .double(real / Double(count)) }
        if approximate { return .double(real) }
        if passedInt64 {
            guard let total = exact?.int64Value else { throw AggregateOverflow() }
            return .integer(total)
        }
        return .integer(integer)
    }
}
