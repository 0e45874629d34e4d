import Foundation
import GRDB
import Testing
@testable import DocStore

/// Issue 9, item 3 and the catalog's minor items: whatever DocStore's own tables
/// hold, opening and using the store gives a `DocStoreError`, never a trap.
@Suite("Fault: damaged catalog rows")
struct CatalogFuzzTests {
    /// A catalog cell to damage: `UPDATE table SET column = ? WHERE rowFilter`.
    struct Cell: CustomStringConvertible {
        var table: String
        var column: String
        var rowFilter: String
        var description: String { "\(table).\(column) where \(rowFilter)" }
    }

    static let cells = [
        Cell(table: "docstore_meta", column: "value", rowFilter: "name = 'format_version'"),
        Cell(table: "docstore_meta", column: "name", rowFilter: "name = 'format_version'"),
        Cell(table: "docstore_collections", column: "name", rowFilter: "name = 'players'"),
        Cell(table: "docstore_collections", column: "key_kind", rowFilter: "name = 'players'"),
        Cell(table: "docstore_collections", column: "key_kind", rowFilter: "name = 'tags'"),
        Cell(table: "docstore_collections", column: "created_at", rowFilter: "name = 'players'"),
        Cell(table: "docstore_indexes", column: "name", rowFilter: "collection = 'players'"),
        Cell(table: "docstore_indexes", column: "collection", rowFilter: "collection = 'players'"),
        Cell(table: "docstore_indexes", column: "fields", rowFilter: "collection = 'players'"),
        Cell(table: "docstore_indexes", column: "is_unique", rowFilter: "collection = 'tags'"),
        Cell(table: "docstore_values", column: "key", rowFilter: "key = 'settings'"),
        Cell(table: "docstore_values", column: "body", rowFilter: "key = 'settings'"),
    ]

    /// Every storage class, boundary numbers, and texts DocStore would never write.
    static let values: [DatabaseValue] = [
        .null, 0.databaseValue, (-1).databaseValue, 2.databaseValue, Int64.max.databaseValue, Int64.min.databaseValue,
        1.5.databaseValue, 1e300.databaseValue, (-0.0).databaseValue,
        "".databaseValue, "garbage".databaseValue, "integer".databaseValue, "string".databaseValue, "1".databaseValue,
        "[]".databaseValue, "[[]]".databaseValue, "[[1e300]]".databaseValue, "[[-1]]".databaseValue,
        #"[["teamId", 1.5]]"#.databaseValue, "[[9223372036854775807]]".databaseValue, #"[["a""#.databaseValue,
        "docstore_ix_9223372036854775807".databaseValue, "a\u{0}b".databaseValue,
        Data().databaseValue, Data([0x00, 0xFF, 0x7B]).databaseValue, Data("integer".utf8).databaseValue,
    ]

    struct Player: Codable, Identifiable, Equatable {
        var id: Int
        var teamId: Int
    }

    struct Tag: Codable, Identifiable, Equatable {
        var id: String
        var name: String
    }

    /// A store with two collections, an index on each and a key/value entry.
    func makePristineStore(at path: String) throws {
        let store = try DocumentStore(path: path)
        let players = store.collection(Player.self)
        try players.insert(contentsOf: (1...3).map { Player(id: $0, teamId: $0 % 2) })
        try players.createIndex(on: FieldPath("teamId"))
        try store.collection(Tag.self).insert(Tag(id: "a", name: "alpha"))
        try store.collection(Tag.self).createIndex(on: FieldPath("name"), unique: true)
        try store.values.set(["volume": 3], forKey: "settings")
    }

    /// Every public operation a user or the REPL would run on the store; each
    /// either works or throws a `DocStoreError`.
    func exercise(_ path: String, label: String) {
        func attempt(_ what: String, _ body: () throws -> Void) {
            do {
                try body()
            } catch is DocStoreError {
                // A clear error is what damage should give.
            } catch {
                Issue.record("\(label): \(what) threw \(type(of: error)), not a DocStoreError: \(error)")
            }
        }
        var opened: DocumentStore?
        attempt("open") { opened = try DocumentStore(path: path) }
        attempt("open read-only") { _ = try DocumentStore(path: path, readOnly: true) }
        guard let store = opened else { return }
        let players = store.collection(Player.self)
        let tags = store.collection(Tag.self)
        attempt("collections") { _ = try store.collections() }
        attempt("get") { _ = try players.get(1) }
        attempt("get many") { _ = try players.get([1, 2]) }
        attempt("exists") { _ = try tags.exists("a") }
        attempt("count") { _ = try players.count() }
        attempt("filter") { _ = try players.fetch(DocumentQuery(.compare(FieldPath("teamId"), .equal, 1))) }
        attempt("untyped all") { _ = try store.collection(named: "players").all() }
        attempt("insert") { try players.insert(Player(id: 10, teamId: 1)) }
        attempt("insert tag") { try tags.insert(Tag(id: "b", name: "beta")) }
        attempt("insert new collection") { try store.collection(named: "fresh").insert(["x": 1]) }
        attempt("update by query") { _ = try players.update(DocumentQuery(), [.increment(FieldPath("teamId"), 1)]) }
        attempt("indexes") { _ = try players.indexes() }
        attempt("create index") { _ = try players.createIndex(on: FieldPath("id")) }
        attempt("drop index") { _ = try players.dropIndex(on: [FieldPath("teamId")]) }
        attempt("values get") { _ = try store.values.get("settings", as: [String: Int].self) }
        attempt("values keys") { _ = try store.values.keys() }
        attempt("values set") { try store.values.set(1, forKey: "other") }
        attempt("check") { _ = try store.check() }
        attempt("check players") { _ = try store.check(collection: "players") }
        attempt("repair players") { _ = try store.repair(collection: "players") }
        attempt("drop collection") { _ = try store.dropCollection(named: "tags") }
    }

    @Test(.timeLimit(.minutes(10)))
    func everyCatalogCellSetToEveryStorageClassGivesErrorsNeverATrap() throws {
        let (pristine, directory) = try temporaryStorePath("pristine.sqlite")
        defer { try? FileManager.default.removeItem(at: directory) }
        try makePristineStore(at: pristine)
        var damagedCases = 0
        for cell in Self.cells {
            for value in Self.values {
                let path = directory.appendingPathComponent("case-\(damagedCases).sqlite").path
                try FileManager.default.copyItem(atPath: pristine, toPath: path)
                defer { try? FileManager.default.removeItem(atPath: path) }
                let queue = try DatabaseQueue(path: path)
                // NOT NULL and PRIMARY KEY refuse some values: those can't be damage.
                let changed = (try? queue.write { db in
                    try db.execute(sql: "UPDATE \(cell.table) SET \(cell.column) = ? WHERE \(cell.rowFilter)", arguments: [value])
                    return db.changesCount
                }) ?? 0
                try queue.close()
                guard changed > 0 else { continue }
                damagedCases += 1
                exercise(path, label: "\(cell) = \(CatalogValue.describe(value))")
            }
        }
        #expect(damagedCases > 200, "the fuzz really damaged the catalog (\(damagedCases) cases)")
    }

    @Test func aNonsenseFormatVersionIsRefusedNamingTheValue() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        try makePristineStore(at: path)
        for nonsense in ["'one'", "0", "-3", "1.5", "x'01'", "NULL"] {
            let queue = try DatabaseQueue(path: path)
            try queue.write { try $0.execute(sql: "UPDATE docstore_meta SET value = \(nonsense) WHERE name = 'format_version'") }
            try queue.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let error = try #require(throws: DocStoreError.self, "format_version = \(nonsense)") { try DocumentStore(path: path) }
            guard case .damagedCatalog(_, let table, let row, _, _) = error else {
                Issue.record("expected damagedCatalog for \(nonsense), got \(error)"); continue
            }
            #expect(table == "docstore_meta")
            #expect(row == #"name "format_version""#)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file was not changed")
        }
    }

    @Test func checkReportsDamagedCatalogRowsInsteadOfThrowing() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        try makePristineStore(at: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "UPDATE docstore_indexes SET fields = '[[1e300]]' WHERE collection = 'players'")
            try db.execute(sql: "UPDATE docstore_collections SET key_kind = x'00' WHERE name = 'tags'")
        }
        try queue.close()
        let report = try DocumentStore(path: path).check()
        #expect(!report.isHealthy)
        #expect(report.catalogProblems.contains { $0.table == "docstore_indexes" && $0.problem.contains("1e300") })
        #expect(report.catalogProblems.contains { $0.table == "docstore_collections" && $0.name == "tags" })
        #expect(report.collections.map(\.collection) == ["players"], "the readable collection is still checked")
    }

    @Test func aDamagedKeyKindIsAnErrorNotAHiddenCollection() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        try makePristineStore(at: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "UPDATE docstore_collections SET key_kind = 'bogus' WHERE name = 'players'") }
        try queue.close()
        let store = try DocumentStore(path: path)
        let error = try #require(throws: DocStoreError.self) { try store.collections() }
        #expect("\(error)".contains("docstore_collections"))
        #expect("\(error)".contains(#"row name "players""#))
        #expect("\(error)".contains(#"value "bogus" (text)"#))
        #expect(throws: DocStoreError.self) { try store.collection(Player.self).get(1) }
    }

    @Test func aMissingCatalogTableIsNotSilentlyRecreated() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        try makePristineStore(at: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "DROP TABLE docstore_collections") }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(throws: DocStoreError.self) { try DocumentStore(path: path) }
        guard case .damagedCatalog(_, let table, _, _, _) = error else {
            Issue.record("expected damagedCatalog, got \(error)"); return
        }
        #expect(table == "docstore_collections")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file was not changed")
        #expect(throws: DocStoreError.self) { try DocumentStore(path: path, readOnly: true) }
    }

    @Test func collectionNamesThatDifferOnlyByCaseAreRefusedClearly() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(named: "players").insert(["name": "Ortiz"])
        let error = try #require(throws: DocStoreError.self) { try store.collection(named: "Players").insert(["name": "Pedroia"]) }
        guard case .invalidCollectionName(let name, let reason) = error else {
            Issue.record("expected invalidCollectionName, got \(error)"); return
        }
        #expect(name == "Players")
        #expect(reason.contains("\"players\""))
        #expect(try store.collection(named: "players").count() == 1)
        #expect(try store.collections().map(\.name) == ["players"])
    }
}
