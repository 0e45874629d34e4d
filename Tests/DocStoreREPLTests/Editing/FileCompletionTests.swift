import Foundation
import Testing
@testable import DocStoreREPL

@Suite("Filename completion")
struct FileCompletionTests {
    @Test func fileArgumentsCompleteFromTheDirectoryTyped() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.path
        for name in ["People.csv", "Pitching.csv", "teams.ndjson", ".hidden", "my data.json"] {
            try "".write(toFile: root + "/" + name, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: root + "/Parks", withIntermediateDirectories: false)
        func complete(_ text: String) -> Completer.Completion { Completer.complete(text, schema: sampleSchema) }

        #expect(complete(".import people \(root)/Pe") == .init(replacing: root.count + 3, candidates: ["\(root)/People.csv"]))
        #expect(complete(".import people \(root)/P").candidates == ["\(root)/Parks/", "\(root)/People.csv", "\(root)/Pitching.csv"])
        #expect(complete(".read \(root)/t").candidates == ["\(root)/teams.ndjson"])
        #expect(complete(".output \(root)/").candidates.count == 5)  // not .hidden
        #expect(complete(".once \(root)/.h").candidates == ["\(root)/.hidden"])
        #expect(complete(".export players \(root)/te").candidates == ["\(root)/teams.ndjson"])
        // A name with a blank comes quoted, as the command's arguments take it.
        #expect(complete(".read \(root)/my").candidates == ["\"\(root)/my data.json\""])
        #expect(complete(".read \"\(root)/my").candidates == ["\"\(root)/my data.json\""])
        #expect(complete(".read \"\(root)/my d") == .init(replacing: root.count + 6, candidates: ["\"\(root)/my data.json\""]))
        // .export's first argument is a collection or a file.
        #expect(complete(".export t").candidates.contains("teams"))
        // Collection arguments stay collections; a missing directory offers nothing.
        #expect(complete(".import pe") == .init(replacing: 2, candidates: []))
        #expect(complete(".import p") == .init(replacing: 1, candidates: ["players"]))
        #expect(complete(".read \(root)/none/x").candidates.isEmpty)
    }
}
