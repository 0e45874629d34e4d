import Foundation
import Testing
@testable import DocStore

/// The AST condition a filter block builds for model `M`.
func ast<M: QueryableDocument>(
    _ model: M.Type = Ballplayer.self, @ConditionBuilder<M.Fields> _ body: (M.Fields) -> [DocumentCondition]
) throws -> Condition {
    try DocumentCondition.all(body(M.Fields(_path: .root))).condition()
}

/// A path of member names.
func path(_ keys: String...) -> FieldPath {
    FieldPath(keys.map(FieldPath.Component.key))
}

/// The shared parent of the DSL suites.
@Suite("Typed query DSL", .postgresServer)
struct DSLTests {}
