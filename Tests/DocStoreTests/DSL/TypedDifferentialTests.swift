import Foundation
import Testing
@testable import DocStore

/// A typed predicate and the same test written in plain Swift on the model.
struct TypedPredicate {
    var text: String
    var condition: DocumentCondition
    var swift: (Ballplayer) -> Bool
}

enum TypedPredicates {
    static let strings = ["Ortiz", "O", "Or", "o", "Ped", "ped", "ia", "Bo", "Ä", "é", "Zoë", "a%b", "_", "'", "\"", ""]
    static let tags = ["captain", "injured", "rookie", "slugger", "🦄"]

    static func random(using rng: inout SeededGenerator, depth: Int = 0) -> TypedPredicate {
        let choice = depth < 2 ? Int.random(in: 0..<20, using: &rng) : Int.random(in: 0..<16, using: &rng)
        switch choice {
        case 0:
            let k = Int.random(in: -1...40, using: &rng)
            let op = Int.random(in: 0..<6, using: &rng)
            let field = Ballplayer.Fields(_path: .root).number
            let (condition, swift): (DocumentCondition, (Int) -> Bool) = switch op {
            case 0: (field == k, { $0 == k })
            case 1: (field != k, { $0 != k })
            case 2: (field < k, { $0 < k })
            case 3: (field <= k, { $0 <= k })
            case 4: (field > k, { $0 > k })
            default: (field >= k, { $0 >= k })
            }
            return TypedPredicate(text: "number op\(op) \(k)", condition: condition, swift: { swift($0.number) })
        case 1:
            let s = strings.randomElement(using: &rng)!
            return TypedPredicate(text: "lastName.hasPrefix(\(s))",
                                  condition: fields.lastName.hasPrefix(s), swift: { $0.lastName.hasPrefix(s) })
        case 2:
            let s = strings.randomElement(using: &rng)!
            return TypedPredicate(text: "lastName.hasSuffix(\(s))",
                                  condition: fields.lastName.hasSuffix(s), swift: { $0.lastName.hasSuffix(s) })
        case 3:
            let s = strings.randomElement(using: &rng)!
            return TypedPredicate(text: "lastName.contains(\(s))",
                                  condition: fields.lastName.contains(s), swift: { contains($0.lastName, s) })
        case 4:
            let s = strings.randomElement(using: &rng)!
            return TypedPredicate(text: "lastName < \(s)", condition: fields.lastName < s, swift: { $0.lastName < s })
        case 5:
            return TypedPredicate(text: "nickname == nil", condition: fields.nickname == nil, swift: { $0.nickname == nil })
        case 6:
            let s = ["Big Papi", "Laser Show", "x"].randomElement(using: &rng)!
            return TypedPredicate(text: "nickname != \(s)", condition: fields.nickname != s, swift: { $0.nickname != s })
        case 7:
            let x = Double(Int.random(in: 200...320, using: &rng)) / 1000
            return TypedPredicate(text: "battingAverage >= \(x)", condition: fields.stats.battingAverage >= x,
                                  swift: { $0.stats.battingAverage >= x })
        case 8:
            let k = Int.random(in: 0...600, using: &rng)
            return TypedPredicate(text: "homeRuns > \(k)", condition: fields.stats.homeRuns > k,
                                  swift: { $0.stats.homeRuns.map { $0 > k } ?? false })
        case 9:
            let t = tags.randomElement(using: &rng)!
            return TypedPredicate(text: "tags.contains(\(t))", condition: fields.tags.contains(t), swift: { $0.tags.contains(t) })
        case 10:
            let k = Int.random(in: 0...3, using: &rng)
            return TypedPredicate(text: "tags.count >= \(k)", condition: fields.tags.count >= k, swift: { $0.tags.count >= k })
        case 11:
            let p = Position.allCases.randomElement(using: &rng)!
            return TypedPredicate(text: "position == \(p)", condition: fields.position == p, swift: { $0.position == p })
        case 12:
            let k = Int.random(in: 0...4, using: &rng)
            return TypedPredicate(text: "games.any { runs >= \(k) }", condition: fields.games.any { $0.runs >= k },
                                  swift: { $0.games.contains { $0.runs >= k } })
        case 13:
            let k = Int.random(in: 0...4, using: &rng)
            return TypedPredicate(text: "games.all { runs < \(k) }", condition: fields.games.all { $0.runs < k },
                                  swift: { $0.games.allSatisfy { $0.runs < k } })
        case 14:
            let k = Int.random(in: 0...3, using: &rng)
            return TypedPredicate(text: "extra[rings] >= \(k)", condition: fields.extra["rings"] >= k,
                                  swift: { $0.extra["rings"].map { $0 >= k } ?? false })
        case 15:
            let s = ["Fernando Cuza", "Scott Boras"].randomElement(using: &rng)!
            return TypedPredicate(text: "agent.name == \(s)", condition: fields.agent.name == s, swift: { $0.agent?.name == s })
        case 16, 17:
            let a = random(using: &rng, depth: depth + 1), b = random(using: &rng, depth: depth + 1)
            return choice == 16
                ? TypedPredicate(text: "(\(a.text) && \(b.text))", condition: a.condition && b.condition,
                                 swift: { a.swift($0) && b.swift($0) })
                : TypedPredicate(text: "(\(a.text) || \(b.text))", condition: a.condition || b.condition,
                                 swift: { a.swift($0) || b.swift($0) })
        case 18:
            let a = random(using: &rng, depth: depth + 1)
            return TypedPredicate(text: "!\(a.text)", condition: !a.condition, swift: { !a.swift($0) })
        default:
            let a = random(using: &rng, depth: depth + 1), b = random(using: &rng, depth: depth + 1)
            return TypedPredicate(text: "AnyOf { \(a.text); \(b.text) }",
                                  condition: AnyOf<Ballplayer.Fields> { _ in a.condition; b.condition }.condition,
                                  swift: { a.swift($0) || b.swift($0) })
        }
    }

    static let fields = Ballplayer.Fields(_path: .root)

    /// The standard library's `contains`: every string contains "". (With Foundation
    /// imported, `String.contains` resolves to NSString's, for which none does.)
    static func contains(_ string: String, _ other: String) -> Bool {
        other.isEmpty || string.contains(other)
    }

    /// Random players: names with Unicode and hostile characters, missing nicknames,
    /// home runs and agents, empty and long arrays.
    static func players(count: Int, using rng: inout SeededGenerator) -> [Ballplayer] {
        let lastNames = ["Ortiz", "Napoli", "Pedroia", "Bogaerts", "Ärger", "zoë", "O'Neil", "a%b_c", "Émile", "ortiz", "\"Q\""]
        return (1...count).map { id in
            Ballplayer(
                id: id, firstName: "P\(id)", lastName: lastNames.randomElement(using: &rng)!,
                number: Int.random(in: 0...40, using: &rng), teamId: Int.random(in: 1...4, using: &rng),
                position: Position.allCases.randomElement(using: &rng)!,
                nickname: Bool.random(using: &rng) ? nil : ["Big Papi", "Laser Show", "x"].randomElement(using: &rng)!,
                tags: (0..<Int.random(in: 0...3, using: &rng)).map { _ in tags.randomElement(using: &rng)! },
                average: Double(Int.random(in: 200...320, using: &rng)) / 1000,
                homeRuns: Bool.random(using: &rng) ? nil : Int.random(in: 0...600, using: &rng),
                agent: Bool.random(using: &rng) ? nil : Agent(name: ["Fernando Cuza", "Scott Boras"].randomElement(using: &rng)!),
                games: (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                    Game(opponent: ["NYY", "TB"].randomElement(using: &rng)!, runs: Int.random(in: 0...5, using: &rng))
                },
                extra: Bool.random(using: &rng) ? [:] : ["rings": Int.random(in: 0...3, using: &rng)])
        }
    }
}

extension DSLTests {
    @Suite("Typed predicates: SQL, the evaluator and Swift agree")
    struct TypedDifferentialTests {
        /// Random typed predicates evaluated three ways on random players, on each
        /// backend: the SQL the compiler writes, the in-memory evaluator on the
        /// stored JSON, and plain Swift on the decoded models. A failure prints the
        /// seed and the predicate; `DOCSTORE_SEED=<seed>` replays it.
        @Test(arguments: Backend.allCases)
        func randomTypedPredicates(backend: Backend) async throws {
            let seed = ProcessInfo.processInfo.environment["DOCSTORE_SEED"].flatMap(UInt64.init)
                ?? UInt64.random(in: 0...UInt64.max)
            var rng = SeededGenerator(seed: seed)
            try await BackendStore.with(backend) { store async throws in
                let players = store.collection(Ballplayer.self, named: "players")
                let models = TypedPredicates.players(count: 60, using: &rng)
                try await players.insert(contentsOf: models)
                let documents = try await store.collection(named: "players").all()
                for _ in 0..<600 {
                    let predicate = TypedPredicates.random(using: &rng)
                    let query = players.query.filter(predicate.condition)
                    let fromSQL = try await query.keys().compactMap(\.integerValue).sorted()
                    let condition = try query.documentQuery().condition
                    let fromEvaluator = documents.filter { condition.matches($0) }
                        .compactMap { $0["id"].flatMap { DocumentKey(json: $0, kind: .integer)?.integerValue } }.sorted()
                    let fromSwift = models.filter(predicate.swift).map { Int64($0.id) }
                    #expect(fromSQL == fromSwift && fromEvaluator == fromSwift, """
                        seed \(seed) on \(backend): \(predicate.text)
                         condition: \(condition)
                         SQL:       \(fromSQL)
                         evaluator: \(fromEvaluator)
                         Swift:     \(fromSwift)
                        """)
                    if fromSQL != fromSwift || fromEvaluator != fromSwift { return }
                }
            }
        }
    }
}
