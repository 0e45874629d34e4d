/// The sum or average of numbers as SQLite's `sum`/`avg` compute them, in the
/// values' order: exact 64-bit integers until a real appears, then doubles (a
/// number beyond Int64 and Double counts as its nearest double). Other values are
/// skipped. Single aggregates and group aggregates both compute it here.
enum SQLiteSum {
    static func of(_ values: some Sequence<JSONValue>, average: Bool) throws(AggregateOverflow) -> JSONValue {
        var integer: Int64 = 0, real = 0.0, approximate = false, count = 0
        for value in values {
            switch value {
            case .integer(let i):
                real += Double(i)
                if !approximate {
                    let (sum, overflow) = integer.addingReportingOverflow(i)
                    if overflow { throw AggregateOverflow() }
                    integer = sum
                }
            case .double(let d):
                real += d
                approximate = true
            case .exactNumber(let number):
                real += number.doubleValue
                approximate = true
            default:
                continue
            }
            count += 1
        }
        if average { return count == 0 ? .null : .double(real / Double(count)) }
        return approximate ? .double(real) : .integer(integer)
    }
}
