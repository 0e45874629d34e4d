@_spi(Backends) @testable import DocStore
import DocStorePostgres
import Foundation
import Testing

/// The models of the page's examples (Lahman's Batting and People, cut down).
@Document
struct CitusPerson: Codable, Identifiable, Equatable, Sendable {
    var id: String
    var nameLast: String
    var birthCountry: String?
    /// Filled by a to-many join, never stored.
    var seasons: [CitusSeason]? = nil
}

@Document
struct CitusSeason: Codable, Identifiable, Equatable, Sendable {
    var id: Int
    var playerID: String
    var yearID: Int
    var lgID: String
    var HR: Int
    /// Filled by a join, never stored.
    var player: CitusPerson? = nil
}

extension PostgresTests {
    /// docs/citus.md shows the SQL DocStore sends for each kind of query and
    /// argues, against Citus's documented rules, that Citus accepts it. These
    /// tests keep that page true: each statement quoted there is the one the
    /// compiler emits today (a change to the emitted SQL fails here until the
    /// page is checked and updated), and each one runs on PostgreSQL, on the
    /// same schema a Citus coordinator would hold.
    @Suite("docs/citus.md: the SQL quoted is the SQL emitted")
    struct CitusSQLTests {
        static let people = [
            CitusPerson(id: "aaronha01", nameLast: "Aaron", birthCountry: "USA"),
            CitusPerson(id: "ruthba01", nameLast: "Ruth", birthCountry: "USA"),
            CitusPerson(id: "ortizda01", nameLast: "Ortiz", birthCountry: "D.R."),
        ]
        static let seasons = [
            CitusSeason(id: 1, playerID: "aaronha01", yearID: 1957, lgID: "NL", HR: 44),
            CitusSeason(id: 2, playerID: "ruthba01", yearID: 1927, lgID: "AL", HR: 60),
            CitusSeason(id: 3, playerID: "aaronha01", yearID: 1971, lgID: "NL", HR: 47),
            CitusSeason(id: 4, playerID: "ortizda01", yearID: 2006, lgID: "AL", HR: 54),
            CitusSeason(id: 5, playerID: "ruthba01", yearID: 1921, lgID: "AL", HR: 59),
            CitusSeason(id: 6, playerID: "nobody", yearID: 2006, lgID: "AL", HR: 54),
        ]

        /// Runs `body` with the two collections filled, on a new database.
        static func withBaseball(
            _ body: (PostgresCollection<CitusSeason>, PostgresCollection<CitusPerson>, PostgresDocumentStore) async throws -> Void
        ) async throws {
            try await PostgresTests.withStore { store in
                let batting = store.collection(CitusSeason.self, named: "batting")
                let people = store.collection(CitusPerson.self, named: "people")
                try await people.insert(contentsOf: Self.people)
                try await batting.insert(contentsOf: Self.seasons)
                try await body(batting, people, store)
            }
        }

        /// The statements the page quotes, by the name in its `<!-- sql: NAME -->` marker.
        static func emitted(batting: PostgresCollection<CitusSeason>, people: PostgresCollection<CitusPerson>) async throws -> [(String, String)] {
            let filter = batting.filter { $0.yearID >= 2000; $0.lgID == "AL" }.sorted { $0.HR.descending }.limit(10)
            let kinds = ["batting": KeyKind.integer, "people": KeyKind.string]
            let compiler = PostgresCompiler(collection: "batting", keyKinds: kinds)
            let team = batting.filter { $0.playerID == "ruthba01" }
            return [
                ("create-table", PostgresStoreSQL.createTable("batting", keyKind: .integer)),
                ("index", try IndexSQL.postgresCreate(IndexInfo(name: "docstore_ix_1", collection: "batting", fields: [FieldPath("HR")], isUnique: false))[0]),
                ("unique-index", try IndexSQL.postgresCreate(IndexInfo(name: "docstore_ix_2", collection: "people", fields: [FieldPath("retroID")], isUnique: true))[1]),
                ("containment-index", try IndexSQL.postgresCreate(IndexInfo(name: "docstore_ix_3", collection: "batting", fields: [.root], isUnique: false))[0]),
                ("insert", PostgresStoreSQL.insert("batting")),
                ("save", PostgresStoreSQL.save("batting")),
                ("insert-alone", PostgresStoreSQL.insert("batting", alone: true)),
                ("get", PostgresStoreSQL.get("batting")),
                ("delete-key", PostgresStoreSQL.delete("batting")),
                ("filter", try await filter.explain().sql),
                ("count", try compiler.count(try filter.documentQuery()).sql),
                ("sum", try compiler.aggregate(Aggregate.sum(FieldPath("HR")), try team.documentQuery()).sql),
                ("group", try await batting.query
                    .group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }
                    .filter { $0.seasons >= 2 }
                    .sorted { $0.hr.descending }
                    .limit(3)
                    .explain().sql),
                ("join-to-one", try await batting.query
                    .join(people, on: \.playerID, equals: \.id, as: \.player)
                    .explain().sql),
                ("join-to-many", try await people.query.joinAll(batting, on: \.id, equals: \.playerID, as: \.seasons)
                    .explain().sql),
                ("update", try compiler.update([FieldUpdate.increment(FieldPath("HR"), 1)], try team.documentQuery()).sql),
                ("delete", try compiler.delete(try team.documentQuery()).sql),
            ]
        }

        /// Every shape of UPDATE the compiler writes: each kind of change, at
        /// the top, nested under members that may be missing, at an array's
        /// end and in an empty place, and with conditions reading another
        /// collection by integer and by string keys; and the field changes.
        static func updates() throws -> [String] {
            let kinds = ["batting": KeyKind.integer, "people": KeyKind.string, "teams": KeyKind.integer]
            let compiler = PostgresCompiler(collection: "batting", keyKinds: kinds)
            let byPlayer = DocumentQuery(.isInSubquery(FieldPath("playerID"), Subquery(collection: "people", condition: .exists(FieldPath("nameLast")))))
            let byTeam = DocumentQuery(.isInSubquery(FieldPath("teamKey"), Subquery(collection: "teams", condition: .always)))
            let changes: [[FieldUpdate]] = [
                [.set(FieldPath("lgID"), .string("NL"))],
                [.set(FieldPath("stats", "home", "HR"), .integer(3))],
                [.set(FieldPath([.key("tags"), .index(2)]), .string("new"))],
                [.set(FieldPath([.key("notes"), .index(0), .key("text")]), .string("first"))],
                [.increment(FieldPath("HR"), .integer(1))],
                [.increment(FieldPath("stats", "average"), .double(0.5))],
                [.remove(FieldPath("stats", "home")), .remove(FieldPath([.key("tags"), .index(1)]))],
            ]
            var statements: [String] = []
            for query in [DocumentQuery(), byPlayer, byTeam] {
                for change in changes { statements.append(try compiler.update(change, query).sql) }
            }
            // The field changes of migrations are UPDATEs too.
            let nested = FieldPath("stats", "home", "HR"), top = FieldPath("HR")
            statements += [
                try compiler.renameField(top, to: nested).sql, try compiler.renameField(nested, to: FieldPath("homeRuns")).sql,
                try compiler.copyField(nested, to: FieldPath("copy", "HR")).sql, try compiler.removeField(nested).sql,
                try compiler.setDefault(nested, .integer(0)).sql, try compiler.setDefault(FieldPath("tags"), ["a", 1]).sql,
            ]
            return statements
        }

        /// The changes of ``updates()`` give the same documents on PostgreSQL
        /// as on SQLite, on documents where each target path is missing, null,
        /// of another kind, or there: the immutable forms build the same JSON.
        @Test func updatesBuildTheSameDocumentsAsOnSQLite() async throws {
            let documents: [JSONValue] = [
                ["id": 1],
                ["id": 2, "stats": nil, "tags": nil, "notes": nil, "HR": nil],
                ["id": 3, "stats": ["home": ["HR": 1], "average": 0.25], "tags": ["a", "b"], "notes": [], "HR": 7],
                ["id": 4, "stats": "none", "tags": ["a", "b", "c"], "notes": [["text": "x"]], "HR": 2.5],
                ["id": 5, "stats": ["average": 3], "tags": [], "notes": "none", "HR": 9223372036854775806],
            ]
            let changes: [[FieldUpdate]] = [
                [.set(FieldPath("stats", "home", "HR"), .integer(3))],
                [.set(FieldPath([.key("tags"), .index(2)]), ["new", 1])],
                [.set(FieldPath([.key("notes"), .index(0), .key("text")]), .string("first"))],
                [.increment(FieldPath("HR"), .integer(1))],
                [.increment(FieldPath("stats", "average"), .double(0.5))],
                [.remove(FieldPath("stats", "home")), .remove(FieldPath([.key("tags"), .index(1)]))],
            ]
            // Each change on every document, then on those whose paths can take
            // it: a set through a value that can't hold it fails on both alike.
            let rounds = changes.flatMap { change in
                [(change, DocumentQuery()), (change, DocumentQuery(.isIn(FieldPath("id"), [1, 3, 5])))]
            }
            try await PostgresTests.withStore { store in
                for (round, (change, query)) in rounds.enumerated() {
                    let postgres = store.collection(named: "c\(round)")
                    let sqliteStore = try DocumentStore.inMemory()
                    let sqlite = sqliteStore.collection(named: "c\(round)")
                    try await postgres.insert(contentsOf: documents)
                    try await sqlite.insert(contentsOf: documents)
                    // The count changed, or the error (the same text on both).
                    func outcome(_ update: () async throws -> Int) async -> String {
                        do { return "\(try await update())" } catch { return "\(error)" }
                    }
                    let changedHere = await outcome { try await postgres.update(query, change) }
                    let changedThere = await outcome { try await sqlite.update(query, change) }
                    #expect(changedHere == changedThere, "\(change)")
                    let here = try await postgres.fetch(DocumentQuery(sort: [SortKey(FieldPath("id"))]))
                    let there = try await sqlite.fetch(DocumentQuery(sort: [SortKey(FieldPath("id"))]))
                    #expect(here == there, "\(change)")
                }
                #expect(try await store.collection(named: "c1").get(3)?["stats"] == ["home": ["HR": 3], "average": 0.25],
                        "the restricted rounds set what they can")
            }
        }

        /// Citus runs an UPDATE only when no STABLE or VOLATILE function in it
        /// reads a column ("STABLE functions used in UPDATE queries cannot be
        /// called with column references"). This asks PostgreSQL's catalog for
        /// the volatility of every function the UPDATEs call.
        @Test func updatesCallOnlyImmutableFunctions() async throws {
            guard let server = PostgresTestServer.current else { throw PostgresTestServer.ServerError(message: "no test server") }
            var names = Set<String>()
            for sql in try Self.updates() {
                // A name directly before "(": a function call, or a keyword
                // such as IN or CAST, which pg_proc doesn't list.
                var word = ""
                for character in sql {
                    if character.isLetter || character.isNumber || character == "_" {
                        word.append(character)
                    } else {
                        if character == "(", !word.isEmpty, word.first?.isLetter == true { names.insert(word.lowercased()) }
                        word = ""
                    }
                }
            }
            #expect(names.isSuperset(of: ["jsonb_set", "jsonb_insert", "jsonb_typeof", "scale"]), "the UPDATEs were read: \(names.sorted())")
            let list = names.sorted().joined(separator: ",")
            let output = try PostgresTestServer.run(PostgresTestServer.script, [
                "psql", server.directory, "postgres",
                "SELECT 'not immutable: ' || coalesce(string_agg(DISTINCT proname, ', ' ORDER BY proname), 'none') FROM pg_proc "
                    + "WHERE proname = ANY (string_to_array('\(list)', ',')) AND provolatile <> 'i'",
            ])
            #expect(output.contains("not immutable: none"), "functions Citus refuses in an UPDATE: \(output)")
        }

        /// The page's SQL blocks, by marker name.
        static func quoted() throws -> [String: String] {
            let page = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("docs/citus.md")
            let text = try String(contentsOf: page, encoding: .utf8)
            var blocks: [String: String] = [:]
            let lines = text.components(separatedBy: "\n")
            var index = 0
            while index < lines.count {
                let line = lines[index]
                if line.hasPrefix("<!-- sql: "), line.hasSuffix(" -->"), index + 1 < lines.count, lines[index + 1] == "```sql" {
                    let name = String(line.dropFirst("<!-- sql: ".count).dropLast(" -->".count))
                    var body: [String] = []
                    index += 2
                    while index < lines.count, lines[index] != "```" { body.append(lines[index]); index += 1 }
                    // The page breaks long statements into indented lines;
                    // each break stands for one space.
                    blocks[name] = body.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                }
                index += 1
            }
            return blocks
        }

        /// The page's rewrites of the two joins for Citus (the joined side in a
        /// materialized CTE), by the name of the statement each replaces.
        static let citusForms = ["join-to-one": "join-to-one-citus", "join-to-many": "join-to-many-citus"]

        @Test func everyQuotedStatementIsTheEmittedOne() async throws {
            try await Self.withBaseball { batting, people, _ in
                let emitted = try await Self.emitted(batting: batting, people: people)
                let quoted = try Self.quoted()
                for (name, sql) in emitted {
                    #expect(quoted[name] == sql, "docs/citus.md's `\(name)` block should read:\n\(sql)")
                }
                #expect(Set(quoted.keys) == Set(emitted.map(\.0)).union(Self.citusForms.values), "every block of the page is checked here")
            }
        }

        /// Citus can't join two distributed collections on document fields
        /// (its repartition joins need column = column, and no outer join), so
        /// the page rewrites both joins with the joined collection in a
        /// materialized CTE. On PostgreSQL each rewrite returns exactly the
        /// rows of the statement it replaces.
        @Test func citusJoinFormsReturnTheSameRows() async throws {
            guard let server = PostgresTestServer.current else { throw PostgresTestServer.ServerError(message: "no test server") }
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let database = String(url.split(separator: "?")[0].split(separator: "/").last ?? "")
            let store = try await PostgresDocumentStore(url: url)
            do {
                let batting = store.collection(CitusSeason.self, named: "batting")
                let people = store.collection(CitusPerson.self, named: "people")
                try await people.insert(contentsOf: Self.people + [CitusPerson(id: "twin", nameLast: "One"), CitusPerson(id: "twin2", nameLast: "Two")])
                try await batting.insert(contentsOf: Self.seasons)
                let emitted = Dictionary(uniqueKeysWithValues: try await Self.emitted(batting: batting, people: people))
                let quoted = try Self.quoted()
                for (original, rewrite) in Self.citusForms {
                    let sql = try #require(emitted[original]), citus = try #require(quoted[rewrite], "docs/citus.md has a `\(rewrite)` block")
                    let expected = try PostgresTestServer.run(PostgresTestServer.script, ["psql", server.directory, database, sql])
                    let actual = try PostgresTestServer.run(PostgresTestServer.script, ["psql", server.directory, database, citus])
                    #expect(expected.split(separator: "\n").count > 4, "\(original) returns rows: \(expected)")
                    #expect(actual == expected, "\(rewrite) returns what \(original) returns")
                }
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }
}
