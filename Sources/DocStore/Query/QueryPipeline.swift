/// A query whose rows are not just the collection's documents: documents
/// filtered, sorted and limited (``query``), then grouped, joined to other
/// collections, projected into computed values, and filtered, sorted and limited
/// again, stage after stage (``stages``). The typed DSL's `group`, `join` and
/// computed `select`, and the same REPL methods, build it; the SQL compiler and
/// the in-memory evaluator both read it.
///
/// Every stage yields rows in a definite order: a collection's rows in key order;
/// a group's in the order of its keys; a sort's in its order, ties kept in the
/// order the rows came in (so ties are broken by the group key, or the document
/// key). The same pipeline gives the same rows in the same order every time.
///
///     // batting.group(by: \.playerID) { (hr: $0.sum(\.HR)) }.sorted { $0.hr.descending }.limit(10)
///     QueryPipeline(stages: [
///         .group(Grouping(keys: [FieldPath("playerID")], aggregates: [NamedAggregate("hr", .sum(FieldPath("HR")))])),
///         .refine(DocumentQuery(sort: [SortKey(FieldPath("hr"), descending: true)], limit: 10)),
///     ])
public struct QueryPipeline: Hashable, Sendable {
    /// Which documents of the collection, in which order, how many: the first stage.
    public var query: DocumentQuery
    /// What happens to those documents next, in order.
    public var stages: [PipelineStage]

    /// A pipeline starting with the collection's documents that `query` selects.
    public init(_ query: DocumentQuery = DocumentQuery(), stages: [PipelineStage] = []) {
        self.query = query
        self.stages = stages
    }
}

/// One step of a ``QueryPipeline``.
public enum PipelineStage: Hashable, Sendable {
    /// One row per distinct combination of key values, holding the keys (at their
    /// paths) and the named aggregates.
    case group(Grouping)
    /// Each row gains the matching document of another collection (or `nil`).
    case join(Join)
    /// Each row becomes the named computed values (only those).
    case select([NamedExpression])
    /// Filters, sorts and limits the rows so far. Paths name a row's columns:
    /// group keys and aggregate names after a group, selected names after a select.
    case refine(DocumentQuery)
}

/// The keys and aggregates of a ``PipelineStage/group(_:)``.
///
/// Missing and `null` keys are one group, whose key is `nil`; `2` and `2.0` are
/// one group. Aggregates have the semantics of the single aggregates
/// (``DocumentCollection/aggregate(_:_:)``).
public struct Grouping: Hashable, Sendable {
    /// The fields grouped by (at least one), in order.
    public var keys: [FieldPath]
    /// What each row holds beside its keys, by name.
    public var aggregates: [NamedAggregate]

    /// A grouping by `keys` computing `aggregates`.
    public init(keys: [FieldPath], aggregates: [NamedAggregate]) {
        self.keys = keys
        self.aggregates = aggregates
    }
}

/// An aggregate of a group, and the column name it is read by.
public struct NamedAggregate: Hashable, Sendable {
    /// The column's name in the group's rows.
    public var name: String
    /// What it computes.
    public var aggregate: GroupAggregate

    /// `aggregate`, read as the column `name`.
    public init(_ name: String, _ aggregate: GroupAggregate) {
        self.name = name
        self.aggregate = aggregate
    }
}

/// A summary of the documents of one group.
public enum GroupAggregate: Hashable, Sendable {
    /// How many documents.
    case count
    /// How many distinct values the field has (missing and null not counted;
    /// `2` and `2.0` are one value).
    case countDistinct(FieldPath)
    /// The sum of the field's numbers (other values skipped): an integer when they
    /// all are (`0` for none; overflow is an error), else a real.
    case sum(FieldPath)
    /// The mean of the field's numbers, a real; `nil` when there is none.
    case average(FieldPath)
    /// The least value in DocStore's sort order, ignoring missing and null.
    case min(FieldPath)
    /// The greatest value in DocStore's sort order, ignoring missing and null.
    case max(FieldPath)

    /// The field summarized, nil for `count`.
    public var field: FieldPath? {
        switch self {
        case .count: nil
        case .countDistinct(let path), .sum(let path), .average(let path), .min(let path), .max(let path): path
        }
    }
}

/// A join: each row gains, under ``name``, the document of ``collection`` whose
/// field (or key) equals the row's ``field``, or `nil` when none does; when
/// several documents match, the one with the smallest key is taken. A to-many
/// join (``many``) gains the array of all of them instead. Only
/// scalars match (a missing or null field matches nothing), with the equality of
/// conditions (`2 == 2.0`, `"2" != 2`).
public struct Join: Hashable, Sendable {
    /// What the row's field is compared with in the other collection.
    public enum Target: Hashable, Sendable {
        /// A field of the other collection's documents.
        case field(FieldPath)
        /// The other collection's document keys.
        case key
    }

    /// The other collection.
    public var collection: String
    /// The row's field.
    public var field: FieldPath
    /// The other documents' field, or their key.
    public var target: Target
    /// The member of the row that holds the joined document.
    public var name: String
    /// To-many: the member holds an array of every matching document, in key
    /// order (empty when none matches), instead of the first one.
    public var many: Bool

    /// A join of `collection`'s documents whose `target` equals the row's `field`,
    /// into the member `name` (every match, as an array, when `many`).
    public init(_ collection: String, on field: FieldPath, equals target: Target, as name: String, many: Bool = false) {
        self.collection = collection
        self.field = field
        self.target = target
        self.name = name
        self.many = many
    }
}

/// A computed value of a ``PipelineStage/select(_:)`` and its column name.
public struct NamedExpression: Hashable, Sendable {
    /// The column's name in the rows.
    public var name: String
    /// What it computes.
    public var expression: ValueExpression

    /// `expression`, read as the column `name`.
    public init(_ name: String, _ expression: ValueExpression) {
        self.name = name
        self.expression = expression
    }
}

/// An arithmetic operator, with Swift's meaning.
public enum ArithmeticOperator: String, Hashable, Sendable, CaseIterable {
    case add = "+", subtract = "-", multiply = "*", divide = "/"
}

/// A value computed from a row, with Swift's meaning:
///
/// - `+ - * /` on two integers give an integer (`/` truncates toward zero;
///   overflow is an error); with a real on either side, a real;
/// - `+` on two strings concatenates them;
/// - anything else (a missing or null operand, a string and a number, a
///   division by zero) gives `nil`.
public indirect enum ValueExpression: Hashable, Sendable {
    /// A field of the row (a column after a group or select).
    case field(FieldPath)
    /// A scalar constant.
    case literal(JSONValue)
    /// `lhs op rhs`.
    case arithmetic(ArithmeticOperator, ValueExpression, ValueExpression)
    /// `Double(x)`: a number as a real; `nil` for anything else.
    case double(ValueExpression)
}

extension ValueExpression: CustomStringConvertible {
    /// The expression as the DSL writes it: `Double($0.h) / Double($0.ab)`.
    public var description: String {
        switch self {
        case .field(let path): "$0." + path.description
        case .literal(let value): String(decoding: DocumentCodec.serialize(value), as: UTF8.self)
        case let .arithmetic(op, lhs, rhs): "(\(lhs) \(op.rawValue) \(rhs))"
        case .double(let inner): "Double(\(inner))"
        }
    }
}
