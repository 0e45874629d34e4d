import Foundation
import Testing
@testable import DocStore

/// The shared parent of the `#Predicate` suites.
@Suite("Foundation #Predicate")
struct PredicateTests {}

/// A Foundation predicate and the same condition written with DocStore's DSL.
struct PredicateCase {
    var text: String
    var predicate: Predicate<Ballplayer>
    var dsl: DocumentCondition

    init(_ text: String, _ predicate: Predicate<Ballplayer>, _ dsl: DocumentCondition) {
        self.text = text
        self.predicate = predicate
        self.dsl = dsl
    }
}

/// Random players in a store, as models and as stored JSON, to filter four ways.
struct PredicateFixture {
    let store: DocumentStore
    let players: DocumentCollection<Ballplayer>
    let models: [Ballplayer]
    let documents: [JSONValue]
    let seed: UInt64

    /// `count` random players (names with Unicode and hostile characters, missing
    /// nicknames, agents and home runs, empty and long arrays); `DOCSTORE_SEED`
    /// replays a failure's seed.
    init(count: Int = 80) throws {
        seed = ProcessInfo.processInfo.environment["DOCSTORE_SEED"].flatMap(UInt64.init)
            ?? UInt64.random(in: 0...UInt64.max)
        var rng = SeededGenerator(seed: seed)
        store = try DocumentStore.inMemory()
        players = store.collection(Ballplayer.self, named: "players")
        models = TypedPredicates.players(count: count, using: &rng)
        try players.insert(contentsOf: models)
        documents = try store.collection(named: "players").all()
    }

    /// Checks that the predicate selects the same players through SQLite, through
    /// the in-memory evaluator on the stored JSON, through `Predicate.evaluate`
    /// on the models, and as the DSL condition does. Returns whether they agree.
    @discardableResult
    func check(_ text: String, _ predicate: Predicate<Ballplayer>, _ dsl: DocumentCondition,
               sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        let fromSwift = try models.filter { try predicate.evaluate($0) }.map { Int64($0.id) }
        let fromSQL = try players.filter(predicate).keys().compactMap(\.integerValue).sorted()
        let fromDSL = try players.query.filter(dsl).keys().compactMap(\.integerValue).sorted()
        let condition = try Condition(predicate)
        let fromEvaluator = documents.filter { condition.matches($0) }
            .compactMap { $0["id"].flatMap { DocumentKey(json: $0, kind: .integer)?.integerValue } }.sorted()
        let agree = fromSQL == fromSwift && fromEvaluator == fromSwift && fromDSL == fromSwift
        #expect(agree, """
            seed \(seed): \(text)
             condition: \(condition)
             Swift:     \(fromSwift)
             SQL:       \(fromSQL)
             evaluator: \(fromEvaluator)
             DSL:       \(fromDSL)
            """, sourceLocation: sourceLocation)
        return agree
    }
}
