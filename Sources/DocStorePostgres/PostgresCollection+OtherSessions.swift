@_spi(Backends) import DocStore
import Foundation
import PostgresNIO

extension PostgresCollection {
    /// Runs `body` once more when another session changed the collection under
    /// this store's cached catalog, as a file store reads its catalog anew:
    ///
    /// - **Dropped.** Its table was gone while the cache still recorded it. Read
    ///   again, the catalog doesn't: a write makes the collection anew and a
    ///   read finds none. (A table dropped by another program, its catalog row
    ///   kept, stays ``DocStore/DocStoreError/missingTable(collection:)``.)
    /// - **Made anew with another key kind** (dropped, then imported with string
    ///   keys where it had integer ones). Statements built for the old kind fail
    ///   in ways that name no collection (postgres-nio's `PostgresDecodingError`
    ///   reading a key, "operator does not exist: text = bigint"), or a key of
    ///   the new kind is refused as of the wrong kind. When the catalog now
    ///   records another kind, `body` runs again and sees it.
    ///
    /// `others` are the collections the statement also reads (joins,
    /// subqueries): a change of theirs counts too.
    ///
    /// Inside a transaction nothing runs again (a statement that failed on the
    /// server has ended the transaction's work): the error says what happened
    /// and to run the transaction again, which then meets the new kind.
    func followingDrops<T>(reading others: Set<String> = [], _ body: () async throws -> T) async throws -> T {
        let names = others.union([name])
        let known = knownKeyKinds(names)
        do {
            return try await body()
        } catch DocStoreError.missingTable(let table) where table == name && transaction == nil {
            try await store.reloadCatalog()
            if keyKind() != nil { throw DocStoreError.missingTable(collection: name) }
            return try await body()
        } catch where Self.mayComeFromAnotherKeyKind(error) {
            try await store.reloadCatalog()
            let now = knownKeyKinds(names)
            guard let changed = names.sorted().first(where: { now[$0] != known[$0] }) else { throw error }
            guard transaction == nil else {
                throw DocStoreError.database(message: Self.changedDuringTransaction(changed, from: known[changed], to: now[changed]), collection: name)
            }
            return try await body()
        }
    }

    /// What another session did to collection `name` while a transaction used it.
    private static func changedDuringTransaction(_ name: String, from was: KeyKind?, to now: KeyKind?) -> String {
        let collection = "collection \(DocumentKey.quotedForMessages(name))"
        let what = switch (was, now) {
        case (nil, let now?): "created \(collection) with \(now) keys"
        case (_, nil): "dropped \(collection)"
        case (let was?, let now?): "made \(collection) anew with \(now) keys (it had \(was) keys)"
        }
        return "another session \(what) while this transaction ran: run it again"
    }

    /// The key kind of each of `names` that has a table, as this store knows it now.
    private func knownKeyKinds(_ names: Set<String>) -> [String: KeyKind] {
        var kinds: [String: KeyKind] = [:]
        for other in names {
            kinds[other] = other == name ? keyKind()
                : PostgresCollection<JSONValue>(name: other, store: store, transaction: transaction, keyOf: { _ in nil }).keyKind()
        }
        return kinds
    }

    /// Whether an error is one a statement built for a collection's former key
    /// kind meets: a key cell of another type, a binding or comparison of the
    /// wrong type (SQLSTATE 42804, 42883, 22P02), a key refused for its kind.
    private static func mayComeFromAnotherKeyKind(_ error: any Error) -> Bool {
        switch error {
        case is PostgresDecodingError, is CollectionMadeAnewElsewhere: true
        case PostgresStoreError.server(let state?, _, _, _, _): ["42804", "42883", "22P02"].contains(state)
        case DocStoreError.keyKindMismatch: true
        default: false
        }
    }
}

/// A key cell of another type than the collection's key kind as this store
/// knows it, or a catalog row of another kind: another session made the
/// collection anew with other keys (or dropped it).
/// ``PostgresCollection/followingDrops(reading:_:)`` reads the catalog again.
struct CollectionMadeAnewElsewhere: LocalizedError {
    var collection: String

    var errorDescription: String? {
        "collection \(DocumentKey.quotedForMessages(collection)) was made anew with other keys by another session while this one read it; run the command again"
    }
}
