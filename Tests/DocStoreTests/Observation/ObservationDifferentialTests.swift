import Foundation
import Testing
@testable import DocStore

/// Random write sequences against random live queries and a change stream: after
/// every operation, each live query has yielded exactly when its result changed,
/// and then exactly what a fresh fetch returns; the change sets, applied to a
/// mirror of the collection, rebuild it exactly.
@Suite("Observation: differential", .timeLimit(.minutes(10)))
struct ObservationDifferentialTests {
    enum Observed {
        case documents(DocumentQuery)
        case count(DocumentQuery)
        case aggregate(DocumentQuery, Aggregate)
    }

    /// The current result of what is observed, as a fresh read gives it.
    static func current(_ observed: Observed, in docs: DocumentCollection<JSONValue>) throws -> JSONValue {
        switch observed {
        case .documents(let query): return .array(try docs.fetch(query))
        case .count(let query): return .integer(Int64(try docs.count(query)))
        case .aggregate(let query, let aggregate): return try docs.aggregate(query, aggregate)
        }
    }

    /// The stored text of the documents observed (nil for other observations).
    static func storedText(_ observed: Observed, in docs: DocumentCollection<JSONValue>) throws -> StoredRows? {
        guard case .documents(let query) = observed else { return nil }
        return try docs.storedRows(query)
    }

    static func live(_ observed: Observed, in docs: DocumentCollection<JSONValue>) -> LiveResults {
        switch observed {
        case .documents(let query):
            return LiveResults(documents: docs.values(query).makeAsyncIterator())
        case .count(let query):
            return LiveResults(value: docs.observe(query) { docs, query in .integer(Int64(try docs.count(query))) }.makeAsyncIterator())
        case .aggregate(let query, let aggregate):
            return LiveResults(value: docs.observe(query) { docs, query in try docs.aggregate(query, aggregate) }.makeAsyncIterator())
        }
    }

    /// Seeds to run; `DOCSTORE_SEED=<n>` replays one.
    static var seeds: [UInt64] {
        if let text = ProcessInfo.processInfo.environment["DOCSTORE_SEED"], let seed = UInt64(text) { return [seed] }
        return [1, 2, 3, 4]
    }

    @Test(arguments: seeds)
    func liveResultsAndChangeSetsFollowRandomWrites(seed: UInt64) async throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        let docs = store.collection(named: "docs")
        let other = store.collection(named: "other")
        var random = RandomQueries(rng: SeededGenerator(seed: seed))
        var nextKey: Int64 = 1
        for _ in 0..<25 {
            try await docs.insert(random.document(id: nextKey)); nextKey += 1
            try await other.insert(random.document(id: nextKey)); nextKey += 1
        }

        // The change stream's mirror of `docs`, kept through every trial.
        var mirror = Dictionary(uniqueKeysWithValues: try await docs.fetch(DocumentQuery()).map { (DocumentKey(json: $0["id"]!, kind: .integer)!, $0) })
        var changes = docs.changes(includingDocuments: true).makeAsyncIterator()

        var trials = 0
        while trials < 12 {
            let observed: Observed = switch random.int(0...2) {
            case 0: .documents(random.query())
            case 1: .count(random.query())
            default: .aggregate(random.query(), random.aggregate())
            }
            guard var last = try? Self.current(observed, in: docs) else { continue }  // e.g. an overflowing sum
            trials += 1
            #expect(store.changeTracker.count == 1, "only the change stream observes: earlier live queries ended")
            var results = Self.live(observed, in: docs)
            var lastStored = try? Self.storedText(observed, in: docs)
            #expect(try await results.next() == last)

            for _ in 0..<25 {
                let yields = store.liveQueryYields
                let changeSets = store.changeSetsYielded
                let operation = random.int(0...11)
                try? Self.randomWrite(operation, &random, docs: docs, other: other, store: store, nextKey: &nextKey)
                store.waitForObservers()

                // The change sets of this operation rebuild the collection.
                for _ in 0..<(store.changeSetsYielded - changeSets) {
                    let change = try #require(try await changes.next())
                    for key in change.deleted { mirror[key] = nil }
                    for key in change.inserted + change.updated { mirror[key] = change.documents[key] }
                }
                let actual = try await docs.fetch(DocumentQuery())
                #expect(mirror.count == actual.count)
                #expect(actual.allSatisfy { mirror[DocumentKey(json: $0["id"]!, kind: .integer)!] == $0 })

                let yielded = store.liveQueryYields - yields
                guard let expected = try? Self.current(observed, in: docs) else {
                    await #expect(throws: (any Error).self) { _ = try await results.next() }
                    break
                }
                // Documents count as changed when their stored text changed, even to
                // equal JSON (SQLite's json_set rewrites a document's text its own way).
                let stored = try? Self.storedText(observed, in: docs)
                defer { lastStored = stored }
                if expected == last && stored == lastStored {
                    #expect(yielded == 0, "nothing yielded when \(observed) didn't change")

                } else if expected == last {
                    #expect(yielded <= 1)
                    if yielded == 1 { #expect(try await results.next() == expected) }
                } else {
                    #expect(yielded == 1, "exactly one result for one commit")

                    #expect(try await results.next() == expected)
                    last = expected
                }
            }
        }
    }

    /// One random operation: a write of some kind to `docs` or `other`, or a
    /// transaction that rolls back.
    static func randomWrite(
        _ operation: Int, _ random: inout RandomQueries, docs: DocumentCollection<JSONValue>, other: DocumentCollection<JSONValue>,
        store: DocumentStore, nextKey: inout Int64
    ) throws {
        let existing = try docs.keys()
        func someKey(_ random: inout RandomQueries) -> Int64 {
            if let key = existing.randomElement(using: &random.rng), case .integer(let k) = key, random.chance(80) { return k }
            return Int64(random.int(1...Int(nextKey)))
        }
        switch operation {
        case 0, 1:
            try docs.insert(random.document(id: nextKey)); nextKey += 1
        case 2:
            try docs.save(random.document(id: someKey(&random)))
        case 3:
            let key = someKey(&random)
            let replacement = random.document(id: key)
            try docs.update(key) { $0 = replacement }
        case 4:
            try docs.delete(someKey(&random))
        case 5:
            let value = random.scalar()
            let path = random.path()
            try docs.update(DocumentQuery(random.condition(depth: 2)), [random.chance(50) ? .set(path, value) : .remove(path)])
        case 6:
            try docs.update(DocumentQuery(random.condition(depth: 2)), [.increment(random.path(), .integer(1))])
        case 7:
            try docs.delete(DocumentQuery(random.condition(depth: 2), limit: random.int(0...3)))
        case 8:
            try other.insert(random.document(id: nextKey)); nextKey += 1
        case 9:
            try other.delete(DocumentQuery(random.condition(depth: 1)))
        case 10:
            // Several writes in one transaction, committed or rolled back.
            let rollBack = random.chance(50)
            let inserted = random.document(id: nextKey); nextKey += 1
            let saved = random.document(id: someKey(&random))
            let deleted = someKey(&random)
            struct Rollback: Error {}
            try store.write { _ in
                try docs.insert(inserted)
                try docs.save(saved)
                try docs.delete(deleted)
                if rollBack { throw Rollback() }
            }
        default:
            // A savepoint rolled back inside a committed transaction.
            let kept = random.document(id: nextKey); nextKey += 1
            let dropped = random.document(id: nextKey); nextKey += 1
            try store.write { _ in
                try docs.insert(kept)
                _ = try? docs.insert(contentsOf: [dropped, kept])  // duplicate key: the batch rolls back
            }
        }
    }
}

/// A live query's iterator, for documents or for a value.
struct LiveResults {
    var documents: LiveSequence<[JSONValue]>.AsyncIterator?
    var value: LiveSequence<JSONValue>.AsyncIterator?

    mutating func next() async throws -> JSONValue? {
        if var iterator = documents {
            defer { documents = iterator }
            return try await iterator.next().map { .array($0) }
        }
        guard var iterator = value else { return nil }
        defer { value = iterator }
        return try await iterator.next()
    }
}
