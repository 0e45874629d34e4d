import DocStorePostgres
import Foundation
import Synchronization
import Testing
@testable import DocStore

extension PostgresTests {
    /// What another tool does behind DocStore's back (psql here): the server
    /// validates jsonb, not DocStore's rules. `check` names catalog rows without
    /// a table, tables the catalog lost, bodies that are not objects and `"id"`s
    /// that are not their key; `repair` moves such documents into
    /// `<name>_damaged`, text unchanged; a key kind the table wasn't made for
    /// is refused before any key is misread.
    @Suite("PostgreSQL: check and repair")
    struct CheckTests {
        /// A check while another session drops collections: a collection
        /// dropped after the check read the catalog failed the whole check as
        /// a table lost, pointing at `.drop` (8 checks of 12; helper-50). It is
        /// no longer a collection, so it is not checked.
        @Test func collectionsDroppedDuringACheckAreNotReportedLost() async throws {
            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let setup = try await PostgresDocumentStore(url: url)
            for number in 0..<40 {
                try await setup.collection(named: "tmp\(number)").insert(contentsOf: (1...200).map { ["id": .integer(Int64($0)), "a": .integer(Int64($0))] })
                _ = try await setup.collection(named: "tmp\(number)").createIndex(on: FieldPath("a"), unique: number.isMultiple(of: 2))
            }
            await setup.close()
            let failures = Mutex<[String]>([])
            try await PostgresConnections.run(url, count: 2) { store, number async throws in
                if number == 0 {
                    for collection in 0..<40 { _ = try await store.dropCollection(named: "tmp\(collection)") }
                } else {
                    for _ in 0..<20 {
                        do {
                            let report = try await store.check()
                            if !report.isHealthy { failures.withLock { $0.append("\(report)") } }
                        } catch {
                            failures.withLock { $0.append("\(error)") }
                        }
                    }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 }.prefix(2))")
        }

        @Test func checkNamesWhatAnotherToolChangedAndRepairMovesTheDamagedDocuments() async throws {
            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let store = try await PostgresDocumentStore(url: url)
            do {
                let teams = store.collection(named: "teams")
                try await teams.insert(contentsOf: (1...5).map { ["id": .integer(Int64($0)), "name": .string("Team \($0)")] })
                try await store.collection(named: "codes").insert(contentsOf: [["id": "a"], ["id": "b"]])
                try await store.collection(named: "gone").insert(["id": 1])
                let unique = try await teams.createIndex(on: FieldPath("name"), unique: true)
                let plain = try await teams.createIndex(on: FieldPath("city"))
                #expect(try await store.check().isHealthy)

                try PostgresTestServer.psql("""
                    UPDATE teams SET body = '[1, 2]' WHERE key = 1;
                    UPDATE teams SET body = jsonb_set(body, '{id}', '999') WHERE key = 2;
                    UPDATE teams SET body = jsonb_set(body, '{id}', '3.0') WHERE key = 3;
                    UPDATE codes SET body = '{"id": "zz"}' WHERE key = 'a';
                    CREATE TABLE lost (key bigint PRIMARY KEY, body jsonb NOT NULL);
                    DROP TABLE gone;
                    DROP INDEX \(unique.name)_unique;
                    CREATE UNIQUE INDEX \(plain.name)_unique ON teams ((body -> 'name'));
                    """, databaseURL: url)
                let report = try await store.check()
                #expect(!report.isHealthy)
                // A stray unique companion of a plain index refused writes unreported.
                #expect(report.catalogProblems.map(\.name) == ["gone", unique.name, plain.name + "_unique", "lost"], "\(report)")
                #expect(report.catalogProblems.contains { $0.problem.contains("duplicates are not refused") }, "\(report)")
                // Writing into the table the catalog lost would guess its key kind
                // (a wrong guess made the store unopenable): refused.
                let intoLost = try await #require(throws: DocStoreError.self) { try await store.collection(named: "lost").insert(["id": 9]) }
                #expect("\(intoLost)".contains("a table named \"lost\" that the catalog does not record"), "\(intoLost)")
                let damaged = Dictionary(uniqueKeysWithValues: report.collections.map { ($0.collection, $0.damaged.map(\.key)) })
                #expect(damaged == ["teams": [.integer(1), .integer(2)], "codes": [.string("a")]], "3.0 spells the key 3 another way: \(report)")
                #expect("\(report)".contains("to repair: .repair codes, .repair teams"), "\(report)")
                // jsonb keeps one member of a name: no count of duplicates it can't have.
                #expect("\(report)".contains(#""teams": 5 documents checked, 2 damaged"#) && !"\(report)".contains("duplicate member names"), "\(report)")

                // An update takes no change in a body that is not an object: it
                // named the document instead of counting it as changed.
                let refused = try await #require(throws: DocStoreError.self) { try await teams.update(DocumentQuery(), [.set(FieldPath("x"), 1)]) }
                #expect(refused.description == DocStoreError.damagedDocuments(collection: "teams", keys: [.integer(1)]).description, "\(refused)")
                // Nor does a default, which counted it as changed.
                #expect(try await teams.setDefault(FieldPath("x"), to: 1).documentsChanged == 4)

                let repaired = try await store.repair(collection: "teams")
                #expect(repaired.movedKeys == [.integer(1), .integer(2)])
                #expect(try await teams.count() == 3)
                let moved = try await store.collection(named: "teams_damaged").all()
                #expect(moved.map { $0["key"] } == [1, 2] && moved.first?["text"] == "[1, 2]", "\(moved)")
                let after = try await store.check(collection: "teams")
                #expect(after.collections.allSatisfy(\.isHealthy) && after.catalogProblems.map(\.name) == [unique.name, plain.name + "_unique"], "the index stays to mend: \(after)")

                // UUID keys not spelled as DocStore stores them (upper case) are
                // found by no read by key: named, and moved by their stored text.
                let sessions = store.collection(named: "sessions")
                _ = try await sessions.createIfMissing(keyKind: .uuid)
                let uuid = UUID()
                try await sessions.insert(["id": .string(uuid.uuidString)])
                try PostgresTestServer.psql("""
                    INSERT INTO sessions VALUES ('\(UUID().uuidString.lowercased())', '{}'), ('not-a-uuid', '{}');
                    """, databaseURL: url)
                let keys = try await store.check(collection: "sessions").collections.first?.damaged.map(\.reason) ?? []
                #expect(keys.count == 2 && keys.allSatisfy { $0.contains("not a UUID in DocStore's form") }, "\(keys)")
                #expect(try await store.repair(collection: "sessions").movedKeys.count == 2)
                #expect(try await sessions.count() == 1)
                #expect(try await store.check(collection: "sessions").collections.allSatisfy(\.isHealthy))

                // A key kind the table wasn't made for would misread every key.
                try PostgresTestServer.psql("UPDATE docstore_collections SET key_kind = 'string' WHERE name = 'teams'", databaseURL: url)
                let mismatch = try await #require(throws: (any Error).self) { try await store.collections() }
                #expect(mismatch.localizedDescription.contains("its table's key column is bigint"), "\(mismatch)")
                #expect(try await store.check(collection: "teams").catalogProblems.first?.problem.contains("key_kind says string") == true)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }

        /// A collection whose name leaves no room for `_damaged` in PostgreSQL's
        /// 63 bytes is repaired into a shortened, hashed quarantine collection
        /// (repair was refused: the name was too long to be a table's).
        @Test func aCollectionWithALongNameIsRepaired() async throws {
            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let store = try await PostgresDocumentStore(url: url)
            do {
                let name = String(repeating: "n", count: 55) + "é_teams"   // 63 bytes
                #expect(name.utf8.count == 63)
                let long = store.collection(named: name)
                try await long.insert(contentsOf: [["id": 1], ["id": 2]])
                try PostgresTestServer.psql(#"UPDATE "\#(name)" SET body = '[1]' WHERE key = 1"#, databaseURL: url)
                let checked = try #require(try await store.check(collection: name).collections.first)
                #expect(checked.damaged.map(\.key) == [.integer(1)])
                let quarantine = checked.quarantineCollection
                #expect(quarantine.utf8.count <= 63 && quarantine.hasSuffix("_damaged") && quarantine.hasPrefix("nnnn"), "\(quarantine)")
                let repaired = try await store.repair(collection: name)
                #expect(repaired.movedKeys == [.integer(1)] && repaired.quarantineCollection == quarantine)
                #expect(try await store.collection(named: quarantine).count() == 1)
                #expect(try await long.count() == 1)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }

        /// Many damaged documents: the check lists the first 100 in key order
        /// but counts them all (it said "100 damaged" of 1 250, and listed
        /// keys as text sorts them: 10, 100, 1000), and repair moves them all,
        /// in batches and one delete (one by one, 25 000 took two minutes,
        /// writers waiting; helper-54), leaving the sound ones.
        @Test func aCheckCountsEveryDamagedDocumentAndRepairMovesThemAll() async throws {
            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let store = try await PostgresDocumentStore(url: url)
            do {
                let players = store.collection(named: "players")
                try await players.insert(contentsOf: (1...2_500).map { ["id": .integer(Int64($0)), "n": .integer(Int64($0))] as JSONValue })
                try PostgresTestServer.psql("UPDATE players SET body = jsonb_set(body, '{id}', to_jsonb(key + 1000000)) WHERE key % 2 = 0", databaseURL: url)
                let checked = try #require(try await store.check(collection: "players").collections.first)
                #expect(checked.damagedCount == 1_250 && checked.damagedNotListed == 1_150)
                let evenKeys: [DocumentKey] = (1...1_250).map { DocumentKey.integer(Int64($0 * 2)) }
                #expect(checked.damaged.map(\.key) == Array(evenKeys.prefix(100)))
                #expect(checked.description.contains("2 500 documents checked, 1 250 damaged") && checked.description.contains("and 1 150 more damaged documents, not listed"), "\(checked)")
                #expect(checked.repairPlan.contains("would move 1 250 damaged documents"), "\(checked.repairPlan)")

                let repaired = try await store.repair(collection: "players")
                #expect(repaired.movedKeys == evenKeys)
                let oddKeys: [DocumentKey] = (0..<1_250).map { DocumentKey.integer(Int64($0 * 2 + 1)) }
                #expect(try await players.keys(DocumentQuery()) == oddKeys)
                let moved = try await store.collection(named: "players_damaged").all()
                #expect(moved.count == 1_250)
                #expect(moved.allSatisfy { document in
                    guard case .integer(let key) = document["key"] else { return false }
                    return document["text"] == .string(#"{"n": \#(key), "id": \#(key + 1_000_000)}"#)   // jsonb orders members by name length
                }, "\(moved.prefix(2))")
                #expect(try await store.check(collection: "players").isHealthy)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }

        /// A search index whose catalog row another tool deleted leaves its GIN
        /// index behind, slowing every write: check named nothing.
        @Test func checkNamesASearchIndexTheCatalogLost() async throws {
            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let store = try await PostgresDocumentStore(url: url)
            do {
                let notes = store.collection(named: "notes")
                try await notes.insert(contentsOf: [["id": 1, "text": "a quick fox"], ["id": 2, "text": "a lazy dog"]])
                try await store.collection(named: "other").insert(["id": 1, "text": "x"])
                let lost = try await notes.createSearchIndex(on: FieldPath("text"))
                let kept = try await store.collection(named: "other").createSearchIndex(on: FieldPath("text"))
                #expect(try await store.check().isHealthy)
                try PostgresTestServer.psql("DELETE FROM docstore_search_indexes WHERE name = '\(lost.name)'", databaseURL: url)

                let report = try await store.check()
                #expect(report.catalogProblems.map(\.name) == [lost.name + "_0"], "\(report)")
                #expect(report.catalogProblems.first?.problem.contains("a search index on \"notes\" that the search catalog does not record") == true, "\(report)")
                #expect(try await store.check(collection: "notes").catalogProblems.count == 1)
                #expect(try await store.check(collection: "other").isHealthy, "\(kept.name) is recorded")
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }
}
