import Foundation
import GRDB
import Testing
@_spi(Backends) @testable import DocStore

@Suite("Fault: check finds damaged documents and catalog problems; repair quarantines documents without loss")
struct CheckAndRepairTests {
    let damagedText = #"{"id": 1, "city": "Balti"#
    let boston = DocumentQuery(.compare(FieldPath("city"), .equal, "Boston"))

    @Test func checkListsDamagedDocumentsWithReasonsAndWhatRepairWouldDo() throws {
        let store = try storeWithDamagedTeams()
        let report = try store.check(collection: "teams")
        #expect(report.documentCount == 4)
        #expect(report.damaged.map(\.key) == [.integer(2), .integer(4)])
        #expect(report.damaged[0].reason.contains("not valid JSON"))
        #expect(report.damaged[0].reason.contains("line 1, column"))
        #expect(report.quarantineCollection == "teams_damaged")
        #expect(report.repairPlan.contains("move 2 damaged documents"))
        #expect("\(report)".contains("document 2: not valid JSON"))
        #expect(!report.isHealthy)
        #expect(try store.check(collection: "teams").damaged.count == 2, "checking changes nothing")
        #expect(try store.check(collection: "nowhere").documentCount == 0)
    }

    @Test func checkReportsTooDeepDocumentsWrongKeysAndDuplicateMembers() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(Account.self).insert(contentsOf: [Account(id: UUID(), owner: "a"), Account(id: UUID(), owner: "b"),
                                                               Account(id: UUID(), owner: "c")])
        let keys = try store.collection(Account.self).keys().compactMap { if case .uuid(let u) = $0 { u.uuidString } else { nil } }
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        try store.databaseWriter.write { db in
            // Valid JSON to SQLite, but deeper than DocStore reads.
            try db.execute(sql: "UPDATE accounts SET body = ? WHERE key = ?", arguments: [#"{"deep": \#(deep)}"#, keys[0]])
            try db.execute(sql: "UPDATE accounts SET key = lower(key) WHERE key = ?", arguments: [keys[1]])
            try db.execute(sql: #"UPDATE accounts SET body = '{"owner": "x", "owner": "y"}' WHERE key = ?"#, arguments: [keys[2]])
        }
        let report = try store.check(collection: "accounts")
        #expect(report.damaged.count == 2)
        #expect(report.damaged.contains { $0.reason.contains("nesting deeper than 512 levels") })
        #expect(report.damaged.contains { $0.key == .string(keys[1].lowercased()) && $0.reason.contains("not a UUID") })
        #expect(report.duplicateMembers.map(\.description) == [keys[2]])
        #expect("\(report)".hasPrefix(#""accounts": 3 documents checked, 2 damaged, 1 with duplicate member names"#), "\(report)")
    }

    /// A body whose `"id"` is not its key (written by another tool): a read by
    /// key gives a model naming another document, and saving it writes over
    /// that one. `check` names it; `repair` moves it, text unchanged. An `"id"`
    /// that spells the key another way (a UUID in lower case, 5.0) or no `"id"`
    /// at all is no problem.
    @Test func aBodyWhoseIdIsNotItsKeyIsDamaged() throws {
        let store = try DocumentStore.inMemory()
        let teams = store.collection(Team.self)
        try teams.insert(contentsOf: sampleTeams)
        let account = Account(id: UUID(), owner: "a")
        try store.collection(Account.self).insert(account)
        try store.databaseWriter.write { db in
            try db.execute(sql: #"UPDATE teams SET body = json_set(body, '$.id', 2) WHERE key = 1"#)
            try db.execute(sql: #"UPDATE teams SET body = json_set(body, '$.id', '3') WHERE key = 3"#)
            try db.execute(sql: #"UPDATE teams SET body = json_set(body, '$.id', 4.0) WHERE key = 4"#)
            try db.execute(sql: #"UPDATE teams SET body = json_remove(body, '$.id') WHERE key = 2"#)
            try db.execute(sql: "UPDATE accounts SET body = json_set(body, '$.id', lower(key))")
        }
        // A read by key refuses it rather than hand out a model naming team 2.
        let refused = try #require(throws: DocStoreError.self) { try teams.get(1) }
        #expect("\(refused)".contains("saving it would write over document 2"), "\(refused)")
        let report = try store.check(collection: "teams")
        #expect(report.damaged.map(\.key) == [.integer(1), .integer(3)], "\(report)")
        #expect(report.damaged.first?.reason.contains(#"its "id" is 2, but it is stored under the key 1"#) == true, "\(report)")
        #expect(report.damaged.last?.reason.contains(#"its "id" is "3""#) == true, "\(report)")
        #expect(try store.check(collection: "accounts").isHealthy)
        let repaired = try store.repair(collection: "teams")
        #expect(repaired.movedKeys == [.integer(1), .integer(3)])
        #expect(try store.collection(named: "teams_damaged").count() == 2)
        #expect(try teams.keys() == [.integer(2), .integer(4)])
        #expect(try store.check().isHealthy)
    }

    @Test func checkOfTheStoreRunsSQLitesIntegrityCheckAndValidatesTheCatalog() throws {
        let store = try storeWithDamagedTeams()
        let healthy = try DocumentStore.inMemory()
        try healthy.collection(Team.self).insert(contentsOf: sampleTeams)
        try healthy.collection(Team.self).createIndex(on: FieldPath("city"))
        let fine = try healthy.check()
        #expect(fine.integrityCheck == ["ok"])
        #expect(fine.catalogProblems.isEmpty)
        #expect(fine.isHealthy)
        #expect("\(fine)".contains("nothing for .repair to do"))

        try store.collection(named: "players").insert(["id": 1, "name": "Ortiz"])
        try store.collection(named: "players").createIndex(on: FieldPath("name"))
        try store.collection(named: "players").createIndex(on: FieldPath("team"))
        try store.collection(named: "games").insert(["id": 1])
        try store.databaseWriter.write { db in
            try db.execute(sql: "DROP INDEX docstore_ix_1")                              // recorded, missing
            try db.execute(sql: "UPDATE docstore_indexes SET is_unique = 1 WHERE name = 'docstore_ix_2'")
            try db.execute(sql: "CREATE INDEX docstore_ix_9 ON teams (key)")             // not recorded
            try db.execute(sql: "DROP TABLE games")                                      // catalog row without table
            try db.execute(sql: "INSERT INTO docstore_collections (name, key_kind) VALUES ('odd', X'00')")
            try db.execute(sql: "CREATE TABLE odd (key INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        }
        let report = try store.check()
        #expect(report.integrityCheck == ["ok"])
        let problems = report.catalogProblems.map { "\($0.table) \($0.name)" }
        #expect(problems.contains("docstore_indexes docstore_ix_1"))
        #expect(problems.contains("sqlite_master docstore_ix_9"))
        #expect(problems.contains("docstore_indexes docstore_ix_2"), "recorded unique, but not")
        #expect(problems.contains("docstore_collections games"))
        #expect(problems.contains("docstore_collections odd"))
        #expect(report.collections.map(\.collection) == ["players", "teams"])
        #expect(report.collections.last?.damaged.count == 2)
        #expect("\(report)".contains("to repair: .repair teams"))
        #expect(!report.isHealthy)

        // Each collection's own check names its indexes' problems too (it
        // called players healthy while its index on name was missing).
        let players = try store.check(collection: "players")
        #expect(!players.isHealthy, "\(players)")
        #expect(players.indexProblems.count == 2 && "\(players)".contains("index \"docstore_ix_1\": recorded on collection \"players\", but SQLite has no such index"), "\(players)")
        #expect("\(players)".contains("index \"docstore_ix_2\": recorded with is_unique = 1"), "\(players)")
        let teams = try store.check(collection: "teams")
        #expect(teams.indexProblems == ["index \"docstore_ix_9\": an index on \"teams\" that the catalog does not record (an orphan); it still slows writes"], "\(teams)")
    }

    /// Damage made outside DocStore that hid documents or invited their loss:
    /// bodies that are valid JSON but not objects passed the check; a table the
    /// catalog lost was invisible while the check said "consistent"; and a
    /// catalog row renamed "Teams" was called missing, with advice to drop it,
    /// which (SQLite's names ignoring case) dropped the table "teams".
    @Test func checkNamesNonObjectDocumentsHiddenTablesAndCaseOnlyRenames() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(Team.self).insert(contentsOf: sampleTeams)
        try store.collection(named: "games").insert(contentsOf: [["id": 1], ["id": 2], ["id": 3]])
        try store.collection(named: "hidden").insert(["id": 1])
        try store.databaseWriter.write { db in
            try db.execute(sql: "UPDATE games SET body = '42' WHERE key = 1")
            try db.execute(sql: "UPDATE games SET body = ' [1, 2]' WHERE key = 2")
            try db.execute(sql: "DELETE FROM docstore_collections WHERE name = 'hidden'")
            try db.execute(sql: "UPDATE docstore_collections SET name = 'Teams' WHERE name = 'teams'")
        }
        let games = try store.check(collection: "games")
        #expect(games.damaged.map(\.key) == [.integer(1), .integer(2)])
        #expect(games.damaged.map(\.reason) == ["the document is a JSON number, not an object", "the document is a JSON array, not an object"])
        let problems = try store.check().catalogProblems.map(\.description)
        #expect(problems.contains { $0.hasPrefix(#"sqlite_master "hidden": a table of documents (key, body) that the catalog does not record"#) }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix(#"docstore_collections "Teams": the catalog's name differs only in case from its table "teams""#) }, "\(problems)")
        #expect(!problems.contains { $0.contains("missing") || $0.hasPrefix(#"sqlite_master "teams""#) }, "\(problems)")
        // Dropping the misnamed collection forgets its row, and only that.
        #expect(try store.dropCollection(named: "Teams"))
        let left = try store.databaseWriter.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM teams") }
        #expect(left == sampleTeams.count)
    }

    /// A catalog row whose key kind was changed made every document look
    /// damaged, with the catalog called consistent; .repair then moved them all.
    @Test func aKeyKindTheTableDisagreesWithIsTheCatalogsFaultAndStopsRepair() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(Team.self).insert(contentsOf: sampleTeams)
        try store.databaseWriter.write { db in
            try db.execute(sql: "UPDATE docstore_collections SET key_kind = 'string' WHERE name = 'teams'")
        }
        let problems = try store.check().catalogProblems.map(\.description)
        #expect(problems.contains { $0.hasPrefix(#"docstore_collections "teams": key_kind says string, but the table was made for integer keys"#) }, "\(problems)")
        let error = try #require(throws: DocStoreError.self) { try store.repair(collection: "teams") }
        #expect(error.localizedDescription.contains("the catalog is inconsistent"), "\(error)")
        let left = try store.databaseWriter.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM teams") }
        #expect(left == sampleTeams.count)
        #expect(try store.collections().contains { $0.name == "teams_damaged" } == false)
    }

    @Test func checkOfTheStoreValidatesTheKeyValueArea() throws {
        let store = try DocumentStore.inMemory()
        try store.values.set(["theme": "dark"], forKey: "settings")
        try store.values.set(3, forKey: "counter")
        #expect(try store.check().isHealthy)
        try store.databaseWriter.write { db in
            try db.execute(sql: "UPDATE docstore_values SET body = '{\"theme\": ' WHERE key = 'settings'")
        }
        let report = try store.check()
        #expect(report.damagedValues.map(\.key) == [.string("settings")])
        #expect(!report.isHealthy)
        #expect("\(report)".contains("value \"settings\": not valid JSON"))
    }

    @Test func repairMovesDamagedDocumentsTextUnchangedAndTheRestWorksAgain() throws {
        let store = try storeWithDamagedTeams()
        let teams = store.collection(Team.self)
        let result = try store.repair(collection: "teams")
        #expect(result.movedKeys == [.integer(2), .integer(4)])
        #expect(result.quarantineCollection == "teams_damaged")
        #expect(try teams.count(boston) == 1)
        #expect(try teams.keys() == [.integer(1), .integer(3)])
        #expect(try store.check(collection: "teams").isHealthy)
        let quarantined = try store.collection(named: "teams_damaged").all()
        #expect(quarantined.map { $0["key"] } == [2, 4])
        #expect(quarantined.allSatisfy { $0["text"] == .string(damagedText) && $0["collection"] == "teams" })
        #expect(quarantined[0]["reason"].map { "\($0)" }?.contains("not valid JSON") == true)
        #expect(try store.repair(collection: "teams").movedKeys.isEmpty, "nothing left to repair")
    }

    @Test func repeatedRepairKeepsEarlierQuarantinedDocuments() throws {
        let store = try storeWithDamagedTeams([2])
        try store.repair(collection: "teams")
        try store.collection(Team.self).insert(sampleTeams[1])
        try store.databaseWriter.write { db in
            try db.execute(sql: "UPDATE teams SET body = '[1,' WHERE key IN (2, 3)")
        }
        #expect(try store.repair(collection: "teams").movedKeys == [.integer(2), .integer(3)])
        let quarantined = try store.collection(named: "teams_damaged").all()
        #expect(quarantined.map { $0["key"] } == [2, 2, 3])
        #expect(quarantined.map { $0["text"] } == [.string(damagedText), "[1,", "[1,"])
    }

    @Test func bytesThatAreNotUTF8AreKeptExactlyAsBase64() throws {
        let store = try storeWithDamagedTeams([])
        let raw: [UInt8] = [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D]  // {"a":"\xFF\xFE"}
        try store.databaseWriter.write { db in
            try db.execute(sql: "UPDATE teams SET body = CAST(? AS TEXT) WHERE key = 3", arguments: [Data(raw)])
        }
        #expect(try store.check(collection: "teams").damaged.map(\.key) == [.integer(3)])
        try store.repair(collection: "teams")
        let quarantined = try #require(try store.collection(named: "teams_damaged").all().first)
        guard case .string(let base64)? = quarantined["base64"] else { Issue.record("\(quarantined)"); return }
        #expect(Data(base64Encoded: base64) == Data(raw))
    }

    @Test func aFailedRepairChangesNothing() throws {
        let store = try storeWithDamagedTeams()
        try store.collection(named: "teams_damaged").insert(["id": "taken"])
        let error = try #require(throws: DocStoreError.self) { try store.repair(collection: "teams") }
        #expect("\(error)".contains("nothing was changed"))
        #expect(try store.collection(Team.self).keys().count == 4)
        #expect(try store.check(collection: "teams").damaged.count == 2)
        #expect(try store.collection(named: "teams_damaged").count() == 1)
        // The check says so before: it promised a move that repair then refused.
        let checked = try store.check(collection: "teams")
        #expect(checked.quarantineProblem == "that collection exists with string keys")
        #expect(checked.repairPlan.contains("rename or drop it first"), "\(checked.repairPlan)")
    }

    /// Quarantine names where names are limited (PostgreSQL's 63 bytes): the
    /// plain `_damaged` when it fits; else cut on a character, with a hash of
    /// the whole name, so two long names that share their start differ.
    @Test func quarantineNamesFitALimitAndStayDistinct() {
        #expect(DocumentStore.quarantineName(for: "teams", maximumBytes: 63) == "teams_damaged")
        let (a, b) = (String(repeating: "é", count: 40) + "a", String(repeating: "é", count: 40) + "b")
        let (qa, qb) = (DocumentStore.quarantineName(for: a, maximumBytes: 63), DocumentStore.quarantineName(for: b, maximumBytes: 63))
        #expect(qa != qb)
        #expect(qa.utf8.count <= 63 && qb.utf8.count <= 63)
        #expect(qa.hasPrefix("éééé") && qa.hasSuffix("_damaged"), "\(qa)")
        #expect(DocumentStore.quarantineName(for: a, maximumBytes: 63) == qa, "the same name each time")
    }

    /// An index whose catalog row another tool deleted keeps its name: a new
    /// index takes the next one (it took the same, and `CREATE INDEX IF NOT
    /// EXISTS` kept the old unique index, refusing values while the catalog
    /// called the new index not unique); check names the stray one.
    @Test func aNewIndexNeverTakesTheNameOfOneTheCatalogLost() throws {
        let store = try DocumentStore.inMemory()
        let teams = store.collection(named: "teams")
        try teams.insert(contentsOf: [["id": 1, "name": "Red"]])
        let lost = try teams.createIndex(on: [FieldPath("name")], unique: true)
        try store.databaseWriter.write { db in try db.execute(sql: "DELETE FROM docstore_indexes") }
        let made = try teams.createIndex(on: [FieldPath("name")])
        #expect(made.name != lost.name && !made.isUnique, "\(made)")
        let report = try store.check()
        #expect(report.catalogProblems.contains { $0.name == lost.name }, "\(report)")
    }
}
