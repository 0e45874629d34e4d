/// A value a query can compute from a row: a field (``DocumentField``) or
/// arithmetic on fields (``ComputedValue``), typed by the Swift value it stands for.
///
///     .select { ($0.playerID, average: $0.hits.asDouble / $0.atBats.asDouble) }
///
/// The operators mean what they mean in Swift for `Value`: `/` of integers
/// truncates, of `Double`s doesn't; `+` of strings concatenates. A `nil` operand
/// (a missing field) or a division by zero gives `nil`; an integer overflow is an
/// error.
public protocol QueryExpression<Value>: Sendable {
    /// The Swift type of the value.
    associatedtype Value
    /// The untyped AST of the value.
    var valueExpression: ValueExpression { get }
}

/// A value computed from a row's fields: `$0.wins + $0.losses`, `$0.h.asDouble / $0.ab.asDouble`.
public struct ComputedValue<Value>: QueryExpression {
    /// The untyped AST of the value.
    public let valueExpression: ValueExpression

    /// The computed value of an untyped expression (its type is yours to vouch for).
    public init(_ expression: ValueExpression) {
        self.valueExpression = expression
    }
}

extension DocumentField: QueryExpression {
    /// The field's value.
    public var valueExpression: ValueExpression { .field(fieldPath) }
}

/// Swift values usable as constants in computed values: `$0.wins * 2`, `$0.city + ", USA"`.
public protocol QueryConstant: Sendable {
    /// The constant as a JSON scalar.
    var queryConstant: JSONValue { get }
}

extension Int: QueryConstant {
    /// The integer as a JSON integer.
    public var queryConstant: JSONValue { .integer(Int64(self)) }
}

extension Int64: QueryConstant {
    /// The integer as a JSON integer.
    public var queryConstant: JSONValue { .integer(self) }
}

extension Double: QueryConstant {
    /// The number as a JSON real.
    public var queryConstant: JSONValue { .double(self) }
}

extension String: QueryConstant {
    /// The string as a JSON string.
    public var queryConstant: JSONValue { .string(self) }
}

extension QueryExpression {
    /// The operand of arithmetic: a `Double` value is read as a real even when
    /// stored as an integer, so `/` divides as `Double`'s does.
    var operand: ValueExpression {
        if case .double = valueExpression { return valueExpression }
        return Value.self is any FloatingPoint.Type ? .double(valueExpression) : valueExpression
    }
}

func constant<Value: QueryConstant>(_ value: Value) -> ValueExpression {
    value is any FloatingPoint ? .double(.literal(value.queryConstant)) : .literal(value.queryConstant)
}

extension QueryExpression where Value: BinaryInteger {
    /// The integer as a `Double`, as Swift's `Double(_:)` converts it (the REPL
    /// writes `Double($0.h)`): `$0.hits.asDouble / $0.atBats.asDouble`.
    public var asDouble: ComputedValue<Double> {
        ComputedValue(.double(valueExpression))
    }
}

// MARK: Arithmetic

// Operators are members of the concrete types (not generic free functions), which
// keeps the type-checking of query closures fast.

extension DocumentField where Value: Numeric & QueryConstant {
    /// The sum of two values.
    public static func + (lhs: Self, rhs: Self) -> ComputedValue<Value> { arithmetic(.add, lhs.operand, rhs.operand) }
    /// The sum of two values.
    public static func + (lhs: Self, rhs: ComputedValue<Value>) -> ComputedValue<Value> { arithmetic(.add, lhs.operand, rhs.operand) }
    /// The sum of a value and a constant.
    public static func + (lhs: Self, rhs: Value) -> ComputedValue<Value> { arithmetic(.add, lhs.operand, constant(rhs)) }
    /// The sum of a constant and a value.
    public static func + (lhs: Value, rhs: Self) -> ComputedValue<Value> { arithmetic(.add, constant(lhs), rhs.operand) }
    /// The difference of two values.
    public static func - (lhs: Self, rhs: Self) -> ComputedValue<Value> { arithmetic(.subtract, lhs.operand, rhs.operand) }
    /// The difference of two values.
    public static func - (lhs: Self, rhs: ComputedValue<Value>) -> ComputedValue<Value> { arithmetic(.subtract, lhs.operand, rhs.operand) }
    /// The difference of a value and a constant.
    public static func - (lhs: Self, rhs: Value) -> ComputedValue<Value> { arithmetic(.subtract, lhs.operand, constant(rhs)) }
    /// The difference of a constant and a value.
    public static func - (lhs: Value, rhs: Self) -> ComputedValue<Value> { arithmetic(.subtract, constant(lhs), rhs.operand) }
    /// The product of two values.
    public static func * (lhs: Self, rhs: Self) -> ComputedValue<Value> { arithmetic(.multiply, lhs.operand, rhs.operand) }
    /// The product of two values.
    public static func * (lhs: Self, rhs: ComputedValue<Value>) -> ComputedValue<Value> { arithmetic(.multiply, lhs.operand, rhs.operand) }
    /// The product of a value and a constant.
    public static func * (lhs: Self, rhs: Value) -> ComputedValue<Value> { arithmetic(.multiply, lhs.operand, constant(rhs)) }
    /// The product of a constant and a value.
    public static func * (lhs: Value, rhs: Self) -> ComputedValue<Value> { arithmetic(.multiply, constant(lhs), rhs.operand) }
    /// The quotient (truncated for integers, as in Swift; `nil` for a division by zero) of two values.
    public static func / (lhs: Self, rhs: Self) -> ComputedValue<Value> { arithmetic(.divide, lhs.operand, rhs.operand) }
    /// The quotient (truncated for integers, as in Swift; `nil` for a division by zero) of two values.
    public static func / (lhs: Self, rhs: ComputedValue<Value>) -> ComputedValue<Value> { arithmetic(.divide, lhs.operand, rhs.operand) }
    /// The quotient (truncated for integers, as in Swift; `nil` for a division by zero) of a value and a constant.
    public static func / (lhs: Self, rhs: Value) -> ComputedValue<Value> { arithmetic(.divide, lhs.operand, constant(rhs)) }
    /// The quotient (truncated for integers, as in Swift; `nil` for a division by zero) of a constant and a value.
    public static func / (lhs: Value, rhs: Self) -> ComputedValue<Value> { arithmetic(.divide, constant(lhs), rhs.operand) }
}

extension DocumentField where Value == String {
    /// Two strings, concatenated.
    public static func + (lhs: Self, rhs: Self) -> ComputedValue<String> { arithmetic(.add, lhs.valueExpression, rhs.valueExpression) }
    /// Two strings, concatenated.
    public static func + (lhs: Self, rhs: ComputedValue<String>) -> ComputedValue<String> { arithmetic(.add, lhs.valueExpression, rhs.valueExpression) }
    /// A string and a constant, concatenated.
    public static func + (lhs: Self, rhs: String) -> ComputedValue<String> { arithmetic(.add, lhs.valueExpression, .literal(.string(rhs))) }
    /// A constant and a string, concatenated.
    public static func + (lhs: String, rhs: Self) -> ComputedValue<String> { arithmetic(.add, .literal(.string(lhs)), rhs.valueExpression) }
}

extension ComputedValue where Value: Numeric & QueryConstant {
    /// The sum of two values.
    public static func + (lhs: Self, rhs: Self) -> ComputedValue<Value> { arithmetic(.add, lhs.operand, rhs.operand) }
    /// The sum of two values.
    public static func + (lhs: Self, rhs: DocumentField<Value>) -> ComputedValue<Value> { arithmetic(.add, lhs.operand, rhs.operand) }
    /// The sum of a value and a constant.
    public static func + (lhs: Self, rhs: Value) -> ComputedValue<Value> { arithmetic(.add, lhs.operand, constant(rhs)) }
    /// The sum of a constant and a value.
    public static func + (lhs: Value, rhs: Self) -> ComputedValue<Value> { arithmetic(.add, constant(lhs), rhs.operand) }
    /// The difference of two values.
    public static func - (lhs: Self, rhs: Self) -> ComputedValue<Value> { arithmetic(.subtract, lhs.operand, rhs.operand) }
    /// The difference of two values.
    public static func - (lhs: Self, rhs: DocumentField<Value>) -> ComputedValue<Value> { arithmetic(.subtract, lhs.operand, rhs.operand) }
    /// The difference of a value and a constant.
    public static func - (lhs: Self, rhs: Value) -> ComputedValue<Value> { arithmetic(.subtract, lhs.operand, constant(rhs)) }
    /// The difference of a constant and a value.
    public static func - (lhs: Value, rhs: Self) -> ComputedValue<Value> { arithmetic(.subtract, constant(lhs), rhs.operand) }
    /// The product of two values.
    public static func * (lhs: Self, rhs: Self) -> ComputedValue<Value> { arithmetic(.multiply, lhs.operand, rhs.operand) }
    /// The product of two values.
    public static func * (lhs: Self, rhs: DocumentField<Value>) -> ComputedValue<Value> { arithmetic(.multiply, lhs.operand, rhs.operand) }
    /// The product of a value and a constant.
    public static func * (lhs: Self, rhs: Value) -> ComputedValue<Value> { arithmetic(.multiply, lhs.operand, constant(rhs)) }
    /// The product of a constant and a value.
    public static func * (lhs: Value, rhs: Self) -> ComputedValue<Value> { arithmetic(.multiply, constant(lhs), rhs.operand) }
    /// The quotient (truncated for integers, as in Swift; `nil` for a division by zero) of two values.
    public static func / (lhs: Self, rhs: Self) -> ComputedValue<Value> { arithmetic(.divide, lhs.operand, rhs.operand) }
    /// The quotient (truncated for integers, as in Swift; `nil` for a division by zero) of two values.
    public static func / (lhs: Self, rhs: DocumentField<Value>) -> ComputedValue<Value> { arithmetic(.divide, lhs.operand, rhs.operand) }
    /// The quotient (truncated for integers, as in Swift; `nil` for a division by zero) of a value and a constant.
    public static func / (lhs: Self, rhs: Value) -> ComputedValue<Value> { arithmetic(.divide, lhs.operand, constant(rhs)) }
    /// The quotient (truncated for integers, as in Swift; `nil` for a division by zero) of a constant and a value.
    public static func / (lhs: Value, rhs: Self) -> ComputedValue<Value> { arithmetic(.divide, constant(lhs), rhs.operand) }
}

extension ComputedValue where Value == String {
    /// Two strings, concatenated.
    public static func + (lhs: Self, rhs: Self) -> ComputedValue<String> { arithmetic(.add, lhs.valueExpression, rhs.valueExpression) }
    /// Two strings, concatenated.
    public static func + (lhs: Self, rhs: DocumentField<String>) -> ComputedValue<String> { arithmetic(.add, lhs.valueExpression, rhs.valueExpression) }
    /// A string and a constant, concatenated.
    public static func + (lhs: Self, rhs: String) -> ComputedValue<String> { arithmetic(.add, lhs.valueExpression, .literal(.string(rhs))) }
    /// A constant and a string, concatenated.
    public static func + (lhs: String, rhs: Self) -> ComputedValue<String> { arithmetic(.add, .literal(.string(lhs)), rhs.valueExpression) }
}

private func arithmetic<Value>(_ op: ArithmeticOperator, _ lhs: ValueExpression, _ rhs: ValueExpression) -> ComputedValue<Value> {
    ComputedValue(.arithmetic(op, lhs, rhs))
}
