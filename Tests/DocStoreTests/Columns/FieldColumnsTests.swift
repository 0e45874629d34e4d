import Foundation
import GRDB
import Testing
@testable import DocStore

/// Field columns hold, after every kind of write, exactly what the compiler's
/// expressions read from the documents, and queries read them.
@Suite("Field columns")
struct FieldColumnsTests {
    static let paths = [FieldPath("a"), FieldPath("b", "c"), FieldPath([.key("tags"), .index(0)]), FieldPath("missing")]

    /// The columns' rows, and the same expressions computed from the documents
    /// now (not by the triggers): they must be equal, row for row.
    static func expectInStep(_ collection: DocumentCollection<JSONValue>, _ step: String) throws {
        try collection.store.databaseWriter.read { db in
            guard let columns = try Catalog.fieldColumns(of: collection.name, in: db) else {
                Issue.record("\(step): no field columns")
                return
            }
            let expressions = columns.fields.map { path -> String in
                let field = FieldSQL(path, from: .document)
                return "\(field.type.sql), \(field.rank.sql), \(field.value.sql)"
            }.joined(separator: ", ")
            let names = columns.fields.indices.map { (position: Int) -> String in "t\(position), r\(position), v\(position)" }.joined(separator: ", ")
            let stored = try Row.fetchAll(db, sql: "SELECT k, \(names) FROM \(quoteIdentifier(columns.name)) ORDER BY k")
            let computed = try Row.fetchAll(db, sql: "SELECT key, \(expressions) FROM \(quoteIdentifier(collection.name)) ORDER BY key")
            #expect(stored.map { Array($0.databaseValues) } == computed.map { Array($0.databaseValues) }, "\(step)")
            #expect(!computed.isEmpty || step.hasPrefix("empty"), "\(step): the test should have documents")
        }
    }

    @Test(arguments: [false, true])
    func columnsFollowEveryKindOfWrite(stringKeys: Bool) throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        let id: (Int) -> JSONValue = { stringKeys ? .string("k\($0)") : .integer(Int64($0)) }
        // Declared before the first document: made with the table.
        try docs.createFieldColumns(on: Self.paths)
        try docs.insert(["id": id(1), "a": 1, "b": ["c": "x"], "tags": [true, 2]])
        try Self.expectInStep(docs, "first insert")
        try docs.insert(contentsOf: [["id": id(2), "a": 2.5, "b": ["c": ["nested": 1]]], ["id": id(3), "a": "3", "tags": ["t"]],
                                     ["id": id(4), "a": .null, "b": 7], ["id": id(5), "a": "18446744073709551615"]])
        try Self.expectInStep(docs, "insert(contentsOf:)")
        try docs.save(["id": id(2), "a": false, "b": ["c": [1, 2]]])
        try Self.expectInStep(docs, "save replacing")
        try docs.save(["id": id(6), "a": 6])
        try Self.expectInStep(docs, "save inserting")
        _ = try docs.update(DocumentQuery(.compare(FieldPath("a"), .less, 10)),
                            [.increment(FieldPath("a"), 1), .set(FieldPath("b", "c"), "set"), .remove(FieldPath([.key("tags"), .index(0)]))])
        try Self.expectInStep(docs, "update by query")
        _ = try docs.delete(id(3).keyValue)
        try Self.expectInStep(docs, "delete by key")
        _ = try docs.delete(DocumentQuery(.compare(FieldPath("a"), .equal, 7)))
        try Self.expectInStep(docs, "delete by query")
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.write { _ in
                try docs.insert(["id": id(9), "a": 9])
                _ = try docs.update(DocumentQuery(), [.set(FieldPath("a"), "rolled back")])
                throw Abort()
            }
        }
        try Self.expectInStep(docs, "rolled back transaction")
        #expect(try docs.count(DocumentQuery(.compare(FieldPath("a"), .equal, "rolled back"))) == 0)
        _ = try docs.renameField(FieldPath("a"), to: FieldPath("z"))
        try Self.expectInStep(docs, "field renamed")
        #expect(try docs.count(DocumentQuery(.exists(FieldPath("a")))) == 0)
        #expect(try docs.fieldColumns()?.fields.first == FieldPath("z"), "the column follows the field, as an index does")
        #expect(try docs.explain(DocumentQuery(.compare(FieldPath("z"), .equal, 7))).sql.contains("docstore_columns.v0 = ?"))
        _ = try docs.removeField(FieldPath("b", "c"))
        try Self.expectInStep(docs, "field removed")
        #expect(try docs.fieldColumns()?.fields == [FieldPath("z"), FieldPath([.key("tags"), .index(0)]), FieldPath("missing")])
        _ = try docs.setDefault(FieldPath("missing"), to: 5)
        try Self.expectInStep(docs, "default set")
        _ = try docs.deleteAll()
        try Self.expectInStep(docs, "empty after deleteAll")
    }

    @Test func queriesReadTheColumnsUnlessAnIndexStartsWithTheField() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.insert(contentsOf: (1...50).map { ["n": .integer(Int64($0)), "s": .string("s\($0 % 5)")] as JSONValue })
        let query = DocumentQuery(.and([.compare(FieldPath("n"), .greater, 40), .compare(FieldPath("s"), .equal, "s1")]))
        #expect(try !docs.explain(query).sql.contains("docstore_columns"))
        try docs.createFieldColumns(on: [FieldPath("n"), FieldPath("s")])
        #expect(try docs.explain(query).sql.contains("docstore_columns.v0 > ?"))
        #expect(try docs.keys(query) == [.integer(41), .integer(46)])
        try docs.createIndex(on: FieldPath("n"))
        let explained = try docs.explain(query)
        #expect(!explained.sql.contains("docstore_columns.v0"), "n is read from its index: \(explained.sql)")
        #expect(explained.sql.contains("docstore_columns.v1"), "s still from its column: \(explained.sql)")
        #expect(explained.plan.joined().contains("docstore_ix_1"), "\(explained.plan)")
        #expect(try docs.keys(query) == [.integer(41), .integer(46)])
        #expect(try docs.dropFieldColumns(on: [FieldPath("n"), FieldPath("s")]))
        #expect(try docs.fieldColumns() == nil)
        #expect(try !docs.explain(query).sql.contains("docstore_columns"))
        let tables = try store.databaseWriter.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'docstore_columns%'")
        }
        #expect(tables.isEmpty, "the table and its triggers are gone: \(tables)")
        #expect(try docs.dropFieldColumns(on: [FieldPath("n")]) == false)
    }

    @Test func addingFieldsKeepsTheOnesThereAndSurvivesReopening() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try DocumentStore(path: path)
            let docs = store.collection(named: "docs")
            try docs.insert(contentsOf: [["a": 1, "b": "x"], ["a": 2, "b": "y"]])
            try docs.createFieldColumns(on: [FieldPath("a")])
            let both = try docs.createFieldColumns(on: [FieldPath("b"), FieldPath("a")])
            #expect(both.fields == [FieldPath("a"), FieldPath("b")])
            #expect(both.name == "docstore_columns_2", "a new table each time")
        }
        let store = try DocumentStore(path: path)
        let docs = store.collection(named: "docs")
        try docs.insert(["a": 3, "b": "z"])
        try Self.expectInStep(docs, "after reopening")
        #expect(try docs.explain(DocumentQuery(.compare(FieldPath("b"), .equal, "z"))).sql.contains("docstore_columns"))
        #expect(try docs.count(DocumentQuery(.compare(FieldPath("b"), .equal, "z"))) == 1)
        #expect(try store.dropCollection(named: "docs"))
        let left = try store.databaseWriter.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'docstore_columns%'")
        }
        #expect(left.isEmpty, "dropping the collection drops its columns: \(left)")
    }

    /// A DocStore that predates field columns drops a collection's table and
    /// makes it again: the columns lose their triggers, and with them the right
    /// to be read (their rows describe the old documents).
    @Test func columnsWithoutTheirTriggersAreNotRead() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.insert(contentsOf: [["id": 1, "a": 1], ["id": 2, "a": 2]])
        try docs.createFieldColumns(on: [FieldPath("a")])
        try store.databaseWriter.write { db in
            try db.execute(sql: """
                DROP TABLE docs;
                CREATE TABLE docs (key INTEGER PRIMARY KEY, body TEXT NOT NULL);
                INSERT INTO docs VALUES (3, '{"id":3,"a":2}');
                """)
        }
        let query = DocumentQuery(.compare(FieldPath("a"), .equal, 2))
        #expect(try docs.keys(query) == [.integer(3)])
        #expect(try docs.rows(QueryPipeline(query)).count == 1)
        #expect(try !docs.explain(query).sql.contains("docstore_columns"))
        // Making them again restores them.
        try docs.createFieldColumns(on: [FieldPath("a")])
        try Self.expectInStep(docs, "made again")
        #expect(try docs.explain(query).sql.contains("docstore_columns"))
        #expect(try docs.keys(query) == [.integer(3)])
    }

    @Test func aTableIsSeenReadOnlyOutsideQuotesAndLongerNames() {
        #expect(sqlMentions("SELECT s0.body FROM t AS s0", alias: "s0"))
        #expect(sqlMentions(#"SELECT "a""s0.x", s0.key"#, alias: "s0"))
        #expect(!sqlMentions(#"SELECT "s0.body", 's0.key', xs0.key, s0_.key FROM "x s0.key" AS s0"#, alias: "s0"))
    }

    /// A pipeline that reads no document reads the columns' table alone; one that
    /// does joins it to the documents. Both give the evaluator's rows.
    @Test func pipelinesReadTheDocumentsOnlyWhenTheyNeedThem() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "x s0.body")
        let documents: [JSONValue] = (1...30).map { ["g": .string("g\($0 % 3)"), "n": .integer(Int64($0)), "tags": ["t"]] }
        try docs.insert(contentsOf: documents)
        try docs.createFieldColumns(on: [FieldPath("g"), FieldPath("n")])
        let stored = Array(zip(try docs.keys(DocumentQuery()), try docs.fetch(DocumentQuery()))).map { (key: $0.0, document: $0.1) }
        let grouped = QueryPipeline(DocumentQuery(.compare(FieldPath("n"), .greater, 3)), stages: [
            .group(Grouping(keys: [FieldPath("g")], aggregates: [NamedAggregate("total", .sum(FieldPath("n")))])),
        ])
        let documentsToo = QueryPipeline(DocumentQuery(.arrayContains(FieldPath("tags"), "t"), sort: [SortKey(FieldPath("n"), descending: true)], limit: 2))
        for (pipeline, readsDocuments) in [(grouped, false), (documentsToo, true)] {
            let sql = try docs.explain(pipeline).sql
            #expect(sql.contains(#"FROM "docstore_columns_1" AS docstore_columns"#) != readsDocuments, "\(sql)")
            #expect(try docs.rows(pipeline) == pipeline.run(on: stored, collection: docs.name))
        }
    }

    /// Rows of the columns changed or deleted behind DocStore's back: `check`
    /// names the keys, `repair` makes the columns again.
    @Test func checkFindsColumnsChangedBehindDocStoresBackAndRepairMakesThemAgain() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.insert(contentsOf: (1...5).map { ["id": .integer(Int64($0)), "a": .integer(Int64($0))] as JSONValue })
        try docs.createFieldColumns(on: [FieldPath("a")])
        #expect(try store.check(collection: "docs").isHealthy)
        try store.databaseWriter.write { db in
            try db.execute(sql: "UPDATE docstore_columns_1 SET v0 = 999 WHERE k = 2; DELETE FROM docstore_columns_1 WHERE k = 4")
        }
        let report = try store.check(collection: "docs")
        #expect(!report.isHealthy)
        #expect(report.fieldColumnsProblem?.contains("for keys 2, 4") == true, "\(report)")
        #expect(report.description.contains("would make its field columns again"), "\(report)")
        let repaired = try store.repair(collection: "docs")
        #expect(repaired.rebuiltFieldColumns && repaired.movedKeys.isEmpty, "\(repaired)")
        #expect(try store.check(collection: "docs").isHealthy)
        try Self.expectInStep(docs, "repaired")
        #expect(try docs.count(DocumentQuery(.compare(FieldPath("a"), .greater, 3))) == 2)
    }

    /// A damaged document (bytes changed under SQLite, which the triggers can't
    /// see) is reported as damaged, not as columns out of step; moving it out
    /// removes its columns' row with it.
    @Test func aDamagedDocumentIsNotAColumnsProblem() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.insert(contentsOf: [["id": 1, "a": 1], ["id": 2, "a": 2]])
        let columns = try docs.createFieldColumns(on: [FieldPath("a")])
        let trigger = try store.databaseWriter.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [columns.name + "_update"])
        }
        try store.databaseWriter.write { db in
            try db.execute(sql: "DROP TRIGGER \(quoteIdentifier(columns.name + "_update"))")
            try db.execute(sql: #"UPDATE docs SET body = '{"a": 2' WHERE key = 2"#)
            try db.execute(sql: trigger ?? "")
        }
        let report = try store.check(collection: "docs")
        #expect(report.damaged.map(\.key) == [.integer(2)] && report.fieldColumnsProblem == nil, "\(report)")
        let repaired = try store.repair(collection: "docs")
        #expect(repaired.movedKeys == [.integer(2)] && !repaired.rebuiltFieldColumns)
        #expect(try store.check(collection: "docs").isHealthy)
        try Self.expectInStep(docs, "damaged document moved")
    }

    /// A bulk `insert(contentsOf:)` into an empty collection makes its columns
    /// after the documents; one that fails leaves them as they were; one into a
    /// collection with documents goes through the triggers.
    @Test func bulkInsertsLeaveTheColumnsInStep() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.createFieldColumns(on: [FieldPath("n")])
        let batch = { (range: ClosedRange<Int>) in range.map { ["id": .integer(Int64($0)), "n": .integer(Int64($0 % 7))] as JSONValue } }
        #expect(throws: DocStoreError.self) { try docs.insert(contentsOf: batch(1...1500) + [["id": 1, "n": 0]]) }
        #expect(try docs.count() == 0)
        try docs.insert(contentsOf: batch(1...1500))
        try Self.expectInStep(docs, "bulk load into an empty collection")
        #expect(try docs.explain(DocumentQuery(.compare(FieldPath("n"), .equal, 3))).sql.contains("docstore_columns.v0 = ?"))
        #expect(throws: DocStoreError.self) { try docs.insert(contentsOf: batch(1501...3000) + [["id": 1, "n": 0]]) }
        try docs.insert(contentsOf: batch(1501...3000))
        try Self.expectInStep(docs, "bulk load into a collection with documents")
        #expect(try docs.count(DocumentQuery(.compare(FieldPath("n"), .equal, 3))) == (1...3000).filter { $0 % 7 == 3 }.count)
    }

    @Test func theAsyncAPIMakesListsAndDropsThem() async throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        _ = try await docs.insert(contentsOf: [["a": 1], ["a": 50]])
        let made = try await docs.createFieldColumns(on: [FieldPath("a")])
        #expect(try await docs.fieldColumns() == made)
        #expect(try await docs.count(DocumentQuery(.compare(FieldPath("a"), .greater, 10))) == 1)
        #expect(try await docs.dropFieldColumns(on: [FieldPath("a")]))
        #expect(try await docs.fieldColumns() == nil)
    }

    @Test func fieldsNoColumnCanHoldAreRefusedByName() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.insert(["a": 1])
        for path in [FieldPath.root, FieldPath("q\"uote"), FieldPath([.key("a"), .index(-1)])] {
            do {
                try docs.createFieldColumns(on: [FieldPath("a"), path])
                Issue.record("\(path) was accepted")
            } catch DocStoreError.invalidQuery(let collection, let field, let reason) {
                #expect(collection == "docs" && field == path.description && reason.contains("field column"), "\(reason)")
            }
        }
        #expect(throws: DocStoreError.self) { try docs.createFieldColumns(on: []) }
        #expect(try docs.fieldColumns() == nil, "nothing was made")
    }

    @Test func aDamagedDocumentIsNamedAndNothingChanges() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.insert(contentsOf: [["id": 1, "a": 1], ["id": 2, "a": 2]])
        try store.databaseWriter.write { db in try db.execute(sql: #"UPDATE docs SET body = '{"a": 2' WHERE key = 2"#) }
        do {
            try docs.createFieldColumns(on: [FieldPath("a")])
            Issue.record("columns were made over a damaged document")
        } catch DocStoreError.damagedDocuments(let collection, let keys) {
            #expect(collection == "docs" && keys == [.integer(2)])
        }
        #expect(try docs.fieldColumns() == nil)
        #expect(try docs.get(1) == ["id": 1, "a": 1])
    }
}

private extension JSONValue {
    /// The key this `id` value stands for.
    var keyValue: DocumentKey {
        switch self {
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        default: .integer(0)
        }
    }
}
