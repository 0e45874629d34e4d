import DocStore
import Testing
@testable import DocStoreREPL

@Suite("Tab completion")
struct CompleterTests {
    func complete(_ text: String) -> Completer.Completion {
        Completer.complete(text, schema: sampleSchema)
    }

    @Test func collectionNames() {
        #expect(complete("pl") == .init(replacing: 2, candidates: ["players"]))
        #expect(complete("") .candidates == ["players", "teams"])
        #expect(complete(".schema te") == .init(replacing: 2, candidates: ["teams"]))
        #expect(complete(".import p") == .init(replacing: 1, candidates: ["players"]))
    }

    @Test func dotCommands() {
        #expect(complete(".sc") == .init(replacing: 3, candidates: [".schema"]))
        #expect(complete(".e").candidates == [".explain", ".export"])
        #expect(complete(".e").commonPrefix == ".exp")
        #expect(complete(".mode j").candidates == ["json"])
    }

    @Test func methods() {
        #expect(complete("players.fil") == .init(replacing: 3, candidates: ["filter"]))
        #expect(complete("players.filter { $0.teamId == 1 }.so") == .init(replacing: 2, candidates: ["sorted"]))
        #expect(complete("players.c").candidates == ["contains", "copyField", "count", "countBy", "createFieldColumns", "createIndex", "createSearchIndex"])
        #expect(complete("players.ren") == .init(replacing: 3, candidates: ["renameField"]))
    }

    @Test func fieldPaths() {
        #expect(complete("players.filter { $0.la") == .init(replacing: 2, candidates: ["lastName"]))
        #expect(complete("players.filter { $0.st") == .init(replacing: 2, candidates: ["stats"]))
        #expect(complete("players.filter { $0.stats.bat") == .init(replacing: 3, candidates: ["battingAverage"]))
        #expect(complete("players.filter { $0.lastName.hasP") == .init(replacing: 4, candidates: ["hasPrefix"]))
        #expect(complete("teams.filter { $0.").candidates == ["abbreviation", "city", "id", "nickName"])
        #expect(complete(#"players.min(\.nu"#) == .init(replacing: 2, candidates: ["number"]))
        // A continuation line: the collection comes from the block's first line.
        #expect(complete("players.filter {\n  $0.first") == .init(replacing: 5, candidates: ["firstName"]))
        #expect(complete(".explain players.filter { $0.pos") == .init(replacing: 3, candidates: ["position"]))
    }

    @Test func nothingToOffer() {
        #expect(complete("players.filter { $0.zzz").candidates.isEmpty)
        #expect(complete("nothing.").candidates == CommandParser.methodNames.sorted())
    }
}
