/// Builds the conditions of a filter block, one per line; `if`, `if let`,
/// `if`/`else`, `switch` and `for` work inside, as in any Swift block.
///
///     players.filter {
///         $0.teamId == bos.id               // the lines are ANDed
///         AnyOf {                           // ORed
///             $0.position == .shortstop
///             $0.lastName.hasPrefix("Ped")
///         }
///         if let minimumAverage {
///             $0.stats.battingAverage >= minimumAverage
///         }
///         for tag in excludedTags {
///             Not { $0.tags.contains(tag) }
///         }
///     }
///
/// A skipped `if` or an empty `for` contributes no line at all (not `true`, not
/// `false`), so it is neutral inside ``AnyOf`` as well as in a filter.
@resultBuilder
public enum ConditionBuilder<Fields: DocumentFieldSet> {
    /// A line that is a condition.
    public static func buildExpression(_ condition: DocumentCondition) -> [DocumentCondition] {
        [condition]
    }

    /// A line that is a group: ``AnyOf``, ``AllOf`` or ``Not``.
    public static func buildExpression<Group: ConditionGroup>(_ group: Group) -> [DocumentCondition]
    where Group.Fields == Fields {
        [group.condition]
    }

    /// The lines of a block, in order.
    public static func buildBlock(_ lines: [DocumentCondition]...) -> [DocumentCondition] {
        lines.flatMap { $0 }
    }

    /// An `if` without `else`: no line when the condition is false.
    public static func buildOptional(_ lines: [DocumentCondition]?) -> [DocumentCondition] {
        lines ?? []
    }

    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first lines: [DocumentCondition]) -> [DocumentCondition] {
        lines
    }

    /// The other branch of an `if`/`else` or `switch`.
    public static func buildEither(second lines: [DocumentCondition]) -> [DocumentCondition] {
        lines
    }

    /// The lines of every iteration of a `for` loop.
    public static func buildArray(_ lines: [[DocumentCondition]]) -> [DocumentCondition] {
        lines.flatMap { $0 }
    }

    /// Lines inside `if #available`.
    public static func buildLimitedAvailability(_ lines: [DocumentCondition]) -> [DocumentCondition] {
        lines
    }
}

/// A block of conditions combined into one: ``AnyOf``, ``AllOf``, ``Not``.
///
/// Inside a filter block, the group's closure receives the same fields as the
/// block: `$0` in `AnyOf { $0.number == 2 }` is the group's own parameter (Swift
/// gives each closure its own `$0`), and it is the same fields. A block whose
/// only line is a group must name or ignore its own parameter:
/// `filter { _ in AnyOf { … } }`.
public protocol ConditionGroup {
    /// The fields the group's closure receives.
    associatedtype Fields: DocumentFieldSet
    /// The combined condition.
    var condition: DocumentCondition { get }
}

/// True when at least one line of the block is (OR); false for an empty block.
///
///     AnyOf {
///         $0.position == .shortstop
///         $0.lastName.hasPrefix("Ped")
///     }
public struct AnyOf<Fields: DocumentFieldSet>: ConditionGroup {
    /// The combined condition.
    public let condition: DocumentCondition

    /// The block's lines, ORed; `$0` is the enclosing block's fields.
    public init(@ConditionBuilder<Fields> _ body: (Fields) -> [DocumentCondition]) {
        condition = .any(body(Fields(_path: .root)))
    }
}

/// True when every line of the block is (AND), as the lines of a filter block
/// are; true for an empty block. Useful inside ``AnyOf``.
public struct AllOf<Fields: DocumentFieldSet>: ConditionGroup {
    /// The combined condition.
    public let condition: DocumentCondition

    /// The block's lines, ANDed; `$0` is the enclosing block's fields.
    public init(@ConditionBuilder<Fields> _ body: (Fields) -> [DocumentCondition]) {
        condition = .all(body(Fields(_path: .root)))
    }
}

/// True when the lines of the block, ANDed, are not: `Not { $0.tags.contains("injured") }`.
public struct Not<Fields: DocumentFieldSet>: ConditionGroup {
    /// The combined condition.
    public let condition: DocumentCondition

    /// The opposite of the block's lines, ANDed; `$0` is the enclosing block's fields.
    public init(@ConditionBuilder<Fields> _ body: (Fields) -> [DocumentCondition]) {
        condition = !.all(body(Fields(_path: .root)))
    }
}
