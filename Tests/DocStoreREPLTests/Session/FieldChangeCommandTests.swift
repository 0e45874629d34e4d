import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

@Suite("REPL: renameField, copyField, removeField, setDefault")
struct FieldChangeCommandTests {
    @Test func theFormsParse() throws {
        #expect(try parse(#"teams.renameField("nickName", to: "nickname")"#)
            == .changeField(collection: "teams", .rename(FieldPath("nickName"), to: FieldPath("nickname"))))
        #expect(try parse(#"players.renameField(\.stats.homeRuns, to: \.stats.hr)"#)
            == .changeField(collection: "players", .rename(FieldPath("stats", "homeRuns"), to: FieldPath("stats", "hr"))))
        #expect(try parse(#"teams.copyField("city", to: "home city")"#)
            == .changeField(collection: "teams", .copy(FieldPath("city"), to: FieldPath("home city"))))
        #expect(try parse(#"players.removeField(\.tags)"#) == .changeField(collection: "players", .remove(FieldPath("tags"))))
        #expect(try parse(#"players.setDefault("active", true)"#) == .changeField(collection: "players", .setDefault(FieldPath("active"), true)))
        #expect(try parse(#"players.setDefault(\.stats, to: {"homeRuns": 0})"#)
            == .changeField(collection: "players", .setDefault(FieldPath("stats"), ["homeRuns": 0])))
        #expect(try parse(#"players.renameField("nickname", to: "nick")"#).writes)
    }

    @Test func mistakesSayWhatWasExpectedAndWhere() {
        let missingTo = parseError(#"teams.renameField("nickName", "nickname")"#)
        #expect(missingTo?.message.hasPrefix(#"expected 'to:' as in renameField("old", to: "new"), found"#) == true, "\(String(describing: missingTo))")
        #expect(missingTo?.location.column == 31)
        let bare = parseError("teams.removeField(nickName)")
        #expect(bare?.message.hasPrefix(#"expected a field name in quotes ("nickname") or a key path"#) == true, "\(String(describing: bare))")
        #expect(parseError(#"teems.removeField("x")"#)?.message.contains(#"did you mean "teams"?"#) == true)
        #expect(parseError(#"teams.filter { $0.id == 1 }.removeField("x")"#)?.message.contains("works on the collection itself") == true)
    }

    @Test func aSourceFieldNoDocumentHasIsWarnedAboutButATargetIsNot() throws {
        let parsed = try CommandParser.parse(#"teams.renameField("nickname", to: "teamName")"#, schema: sampleSchema)
        #expect(parsed.warnings.map(\.message) == [#"no sampled document in "teams" has a field nickname; did you mean nickName?"#])
        let fine = try CommandParser.parse(#"teams.renameField("nickName", to: "nickname")"#, schema: sampleSchema)
        #expect(fine.warnings.isEmpty)
    }

    @Test func pipedSessionRenamesAFieldAndItsIndexFollows() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("teams.sqlite").path
        let setUp = try runProcess(try docstoreBinary(), [store], input: """
            teams.insert([{"id": 1, "nickName": "Red Sox"}, {"id": 2, "nickName": "Orioles"}, {"id": 3}])
            teams.createIndex(\\.nickName)

            """)
        #expect(setUp.status == 0, "\(setUp.stderr)")
        let result = try runProcess(try docstoreBinary(), [store, "--mode", "ndjson"], input: """
            teams.renameField("nickName", to: "nickname")
            teams.setDefault("nickname", "TBD")
            teams.copyField("nickname", to: "name")
            teams.removeField("name")
            teams.indexes()
            teams.filter { $0.nickname == "Orioles" }.explain()
            teams

            """)
        #expect(result.status == 0, "\(result.stderr)")
        // Piped: what was done goes to stderr, results to stdout.
        let messages: [String] = result.stderr.split(separator: "\n").map(String.init)
        let expectedMessages: [String] = [
            #""teams": rename nickName to nickname: 2 documents; index docstore_ix_1 now on (nickname)"#,
            #""teams": set nickname where missing to "TBD": 1 document"#,
            #""teams": copy nickname to name: 3 documents"#,
            #""teams": remove name: 3 documents"#,
        ]
        #expect(messages == expectedMessages)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == #"{"name":"docstore_ix_1","fields":"nickname","unique":false,"kind":"index"}"#)
        #expect(lines.contains { $0.contains("SEARCH teams USING INDEX docstore_ix_1") }, "the query on the new path uses the index: \(result.stdout)")
        // The documents, read back by a real JSON parser.
        let documents = try lines.suffix(3).map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(documents.map { $0["nickname"] as? String } == ["Red Sox", "Orioles", "TBD"])
        #expect(documents.allSatisfy { $0["nickName"] == nil && $0["name"] == nil })
    }

    @Test func aRefusedRenameSaysWhichDocumentAndChangesNothing() throws {
        let harness = try SessionHarness(interactive: false)
        harness.feed(#"teams.insert({"id": 9, "nickName": "Expos", "nickname": "Les Expos"})"#)
        harness.feed(#"teams.renameField("nickName", to: "nickname")"#)
        #expect(harness.errors.text.contains(#"cannot update field nickname of document 9 in collection "teams": the document has both nickName and nickname"#), "\(harness.errors.text)")
        #expect(try harness.store.collection(named: "teams").filter { $0.nickName != nil }.count() == 5)
    }

    @Test func aMistypedFieldIsWarnedAboutOnStderrAndAnIndexedOneIsNot() throws {
        let result = try runProcess(try docstoreBinary(), [], input: """
            teams.filter { $0.nickname == "Rays" }.count()
            teams.createIndex(\\.founded)
            teams.filter { $0.founded > 1900 }.count()

            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").first == "0", "the query still runs: \(result.stdout)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning") }
        // createIndex on a field no document has yet is warned about (a typo there
        // would index nothing); once the index exists, the field is known.
        #expect(warnings == [
            #"warning at line 1, column 16: no document in "teams" has a field nickname; did you mean nickName?"#,
            #"warning at line 2, column 19: no document in "teams" has a field founded"#,
        ], "\(result.stderr)")
    }
}
