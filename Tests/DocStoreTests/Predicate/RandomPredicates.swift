import Foundation
import Testing
@testable import DocStore

// Random predicate trees. `#Predicate` is a macro, so trees chosen at run time
// are built as the macro expands: with `PredicateExpressions.build_*` calls on
// the predicate's variable. Each node carries the same condition in the DSL.

typealias PE = PredicateExpressions
typealias PlayerVariable = PredicateExpressions.Variable<Ballplayer>

/// A predicate expression to build on a predicate's variable, with its DSL twin.
protocol RandomPredicate {
    associatedtype Expression: StandardPredicateExpression<Bool>
    var text: String { get }
    var condition: DocumentCondition { get }
    func expression(_ player: PlayerVariable) -> Expression
}

extension RandomPredicate {
    /// The Foundation predicate.
    var predicate: Predicate<Ballplayer> {
        Predicate<Ballplayer>({ expression($0) })
    }
}

struct Leaf<Expression: StandardPredicateExpression<Bool>>: RandomPredicate {
    let text: String
    let condition: DocumentCondition
    let build: (PlayerVariable) -> Expression
    func expression(_ player: PlayerVariable) -> Expression { build(player) }
}

struct Both<L: RandomPredicate, R: RandomPredicate>: RandomPredicate {
    let lhs: L, rhs: R
    var text: String { "(\(lhs.text) && \(rhs.text))" }
    var condition: DocumentCondition { lhs.condition && rhs.condition }
    func expression(_ player: PlayerVariable) -> PE.Conjunction<L.Expression, R.Expression> {
        PE.build_Conjunction(lhs: lhs.expression(player), rhs: rhs.expression(player))
    }
}

struct Either<L: RandomPredicate, R: RandomPredicate>: RandomPredicate {
    let lhs: L, rhs: R
    var text: String { "(\(lhs.text) || \(rhs.text))" }
    var condition: DocumentCondition { lhs.condition || rhs.condition }
    func expression(_ player: PlayerVariable) -> PE.Disjunction<L.Expression, R.Expression> {
        PE.build_Disjunction(lhs: lhs.expression(player), rhs: rhs.expression(player))
    }
}

struct Opposite<Wrapped: RandomPredicate>: RandomPredicate {
    let wrapped: Wrapped
    var text: String { "!\(wrapped.text)" }
    var condition: DocumentCondition { !wrapped.condition }
    func expression(_ player: PlayerVariable) -> PE.Negation<Wrapped.Expression> {
        PE.build_Negation(wrapped.expression(player))
    }
}

enum RandomPredicates {
    static let f = Ballplayer.Fields(_path: .root)

    static func random(using rng: inout SeededGenerator, depth: Int = 0) -> any RandomPredicate {
        let choice = Int.random(in: 0..<(depth < 3 ? 24 : 19), using: &rng)
        switch choice {
        case 19, 20: return both(random(using: &rng, depth: depth + 1), random(using: &rng, depth: depth + 1))
        case 21, 22: return either(random(using: &rng, depth: depth + 1), random(using: &rng, depth: depth + 1))
        case 23: return opposite(random(using: &rng, depth: depth + 1))
        default: return leaf(choice, using: &rng)
        }
    }

    static func both<L: RandomPredicate, R: RandomPredicate>(_ lhs: L, _ rhs: R) -> any RandomPredicate { Both(lhs: lhs, rhs: rhs) }
    static func either<L: RandomPredicate, R: RandomPredicate>(_ lhs: L, _ rhs: R) -> any RandomPredicate { Either(lhs: lhs, rhs: rhs) }
    static func opposite<W: RandomPredicate>(_ wrapped: W) -> any RandomPredicate { Opposite(wrapped: wrapped) }

    static func leaf(_ choice: Int, using rng: inout SeededGenerator) -> any RandomPredicate {
        let strings = TypedPredicates.strings
        let nicknames = ["Big Papi", "Laser Show", "x", ""]
        switch choice {
        case 0:
            let k = Int.random(in: -1...40, using: &rng)
            let ops: [(PE.ComparisonOperator, String, DocumentCondition)] = [
                (.lessThan, "<", f.number < k), (.lessThanOrEqual, "<=", f.number <= k),
                (.greaterThan, ">", f.number > k), (.greaterThanOrEqual, ">=", f.number >= k),
            ]
            let (op, text, condition) = ops.randomElement(using: &rng)!
            return Leaf(text: "number \(text) \(k)", condition: condition) { p in
                PE.build_Comparison(lhs: PE.build_KeyPath(root: p, keyPath: \.number), rhs: PE.build_Arg(k), op: op)
            }
        case 1:
            let k = Int.random(in: 0...40, using: &rng)
            return Leaf(text: "number == \(k)", condition: f.number == k) { p in
                PE.build_Equal(lhs: PE.build_KeyPath(root: p, keyPath: \.number), rhs: PE.build_Arg(k))
            }
        case 2:
            let k = Int.random(in: 1...4, using: &rng)
            return Leaf(text: "teamId != \(k)", condition: f.teamId != k) { p in
                PE.build_NotEqual(lhs: PE.build_Arg(k), rhs: PE.build_KeyPath(root: p, keyPath: \.teamId))
            }
        case 3:
            let s = strings.randomElement(using: &rng)!
            return Leaf(text: "lastName.starts(with: \(s))", condition: f.lastName.hasPrefix(s)) { p in
                PE.build_starts(PE.build_KeyPath(root: p, keyPath: \.lastName), with: PE.build_Arg(s))
            }
        case 4:
            let s = strings.randomElement(using: &rng)!
            return Leaf(text: "lastName.contains(\(s))", condition: f.lastName.contains(s)) { p in
                PE.build_contains(PE.build_KeyPath(root: p, keyPath: \.lastName), PE.build_Arg(s))
            }
        case 5:
            let s = strings.randomElement(using: &rng)!
            return Leaf(text: "lastName >= \(s)", condition: f.lastName >= s) { p in
                PE.build_Comparison(lhs: PE.build_KeyPath(root: p, keyPath: \.lastName), rhs: PE.build_Arg(s), op: .greaterThanOrEqual)
            }
        case 6:
            return Leaf(text: "nickname == nil", condition: f.nickname == nil) { p in
                PE.build_Equal(lhs: PE.build_KeyPath(root: p, keyPath: \.nickname), rhs: PE.build_NilLiteral())
            }
        case 7:
            let s = nicknames.randomElement(using: &rng)!
            return Leaf(text: "nickname != \(s)", condition: f.nickname != s) { p in
                PE.build_NotEqual(lhs: PE.build_KeyPath(root: p, keyPath: \.nickname), rhs: PE.build_Arg(Optional(s)))
            }
        case 8:
            let (fallback, s) = (nicknames.randomElement(using: &rng)!, nicknames.randomElement(using: &rng)!)
            let condition = fallback == s ? f.nickname == nil || f.nickname == s : f.nickname == s
            return Leaf(text: "(nickname ?? \(fallback)) == \(s)", condition: condition) { p in
                PE.build_Equal(lhs: PE.build_NilCoalesce(lhs: PE.build_KeyPath(root: p, keyPath: \.nickname), rhs: PE.build_Arg(fallback)),
                               rhs: PE.build_Arg(s))
            }
        case 9:
            let k = Int.random(in: 0...600, using: &rng)
            return Leaf(text: "(homeRuns ?? 0) > \(k)", condition: f.stats.homeRuns > k) { p in
                PE.build_Comparison(
                    lhs: PE.build_NilCoalesce(lhs: PE.build_KeyPath(root: PE.build_KeyPath(root: p, keyPath: \.stats), keyPath: \.homeRuns),
                                              rhs: PE.build_Arg(0)),
                    rhs: PE.build_Arg(k), op: .greaterThan)
            }
        case 10:
            let s = ["Fernando Cuza", "Scott Boras"].randomElement(using: &rng)!
            return Leaf(text: "agent?.name == \(s)", condition: f.agent.name == s) { p in
                PE.build_Equal(lhs: PE.build_flatMap(PE.build_KeyPath(root: p, keyPath: \.agent)) { PE.build_KeyPath(root: $0, keyPath: \.name) },
                               rhs: PE.build_Arg(Optional(s)))
            }
        case 11:
            let t = TypedPredicates.tags.randomElement(using: &rng)!
            return Leaf(text: "tags.contains(\(t))", condition: f.tags.contains(t)) { p in
                PE.build_contains(PE.build_KeyPath(root: p, keyPath: \.tags), PE.build_Arg(t))
            }
        case 12:
            let k = Int.random(in: 0...3, using: &rng)
            return Leaf(text: "tags.count >= \(k)", condition: f.tags.count >= k) { p in
                PE.build_Comparison(lhs: PE.build_KeyPath(root: PE.build_KeyPath(root: p, keyPath: \.tags), keyPath: \.count),
                                    rhs: PE.build_Arg(k), op: .greaterThanOrEqual)
            }
        case 13:
            let k = Int.random(in: 0...5, using: &rng)
            return Leaf(text: "games.contains { runs >= \(k) }", condition: f.games.any { $0.runs >= k }) { p in
                PE.build_contains(PE.build_KeyPath(root: p, keyPath: \.games)) {
                    PE.build_Comparison(lhs: PE.build_KeyPath(root: $0, keyPath: \.runs), rhs: PE.build_Arg(k), op: .greaterThanOrEqual)
                }
            }
        case 14:
            let k = Int.random(in: 0...5, using: &rng)
            return Leaf(text: "games.allSatisfy { runs < \(k) }", condition: f.games.all { $0.runs < k }) { p in
                PE.build_allSatisfy(PE.build_KeyPath(root: p, keyPath: \.games)) {
                    PE.build_Comparison(lhs: PE.build_KeyPath(root: $0, keyPath: \.runs), rhs: PE.build_Arg(k), op: .lessThan)
                }
            }
        case 15:
            let teams = (0..<Int.random(in: 0...3, using: &rng)).map { _ in Int.random(in: 1...5, using: &rng) }
            return Leaf(text: "\(teams).contains(teamId)", condition: f.teamId.in(teams)) { p in
                PE.build_contains(PE.build_Arg(teams), PE.build_KeyPath(root: p, keyPath: \.teamId))
            }
        case 16:
            let lower = Int.random(in: 0...30, using: &rng), upper = Int.random(in: 0...40, using: &rng)
            let (low, high) = (min(lower, upper), max(lower, upper))
            return Leaf(text: "(\(low)...\(high)).contains(number)", condition: f.number >= low && f.number <= high) { p in
                PE.build_contains(PE.build_ClosedRange(lower: PE.build_Arg(low), upper: PE.build_Arg(high)),
                                  PE.build_KeyPath(root: p, keyPath: \.number))
            }
        case 17:
            let position = Position.allCases.randomElement(using: &rng)!
            return Leaf(text: "position == \(position)", condition: f.position == position) { p in
                PE.build_Equal(lhs: PE.build_KeyPath(root: p, keyPath: \.position), rhs: PE.build_Arg(position))
            }
        default:
            let k = Int.random(in: 0...3, using: &rng)
            return Leaf(text: "extra[rings] == \(k)", condition: f.extra["rings"] == k) { p in
                PE.build_Equal(lhs: PE.build_subscript(PE.build_KeyPath(root: p, keyPath: \.extra), PE.build_Arg("rings")),
                               rhs: PE.build_Arg(Optional(k)))
            }
        }
    }
}

extension PredicateTests {
    @Suite("#Predicate: random predicates")
    struct RandomPredicateTests {
        /// Random predicate trees on random players: SQLite, the evaluator,
        /// `Predicate.evaluate` and the DSL agree. A failure prints the seed and the
        /// tree; `DOCSTORE_SEED=<seed>` replays it.
        @Test func randomPredicatesAgree() throws {
            let fixture = try PredicateFixture(count: 60)
            var rng = SeededGenerator(seed: fixture.seed &+ 1)
            for _ in 0..<400 {
                let random = RandomPredicates.random(using: &rng)
                guard try fixture.check(random.text, random.predicate, random.condition) else { return }
            }
        }
    }
}
