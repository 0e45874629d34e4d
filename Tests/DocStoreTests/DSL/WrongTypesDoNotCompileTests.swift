import Foundation
import Testing

/// Groups, joins and computed values are typed: a field of the wrong type is a
/// compile-time error, not a query that fails at run time. Proven with the real
/// compiler: a source file using the built `DocStore` module type-checks as
/// written, and each one-line mistake in it fails on exactly that line.
@Suite("Wrong field types do not compile", .timeLimit(.minutes(10)))
struct WrongTypesDoNotCompileTests {
    /// A model pair with hand-written fields (what `@Document` generates), so the
    /// check needs the module only, not the macro plugin.
    static let source = """
        import DocStore

        struct Team: QueryableDocument {
            var id: Int
            var city: String
            struct Fields: DocumentFieldSet {
                let _path: FieldPath
                init(_path: FieldPath) { self._path = _path }
                var id: DocumentField<Int> { DocumentField(_path.appending("id")) }
                var city: DocumentField<String> { DocumentField(_path.appending("city")) }
            }
        }

        struct Batting: QueryableDocument {
            var playerID: String
            var hr: Int
            var teamId: Int
            var team: Team?
            struct Fields: DocumentFieldSet {
                let _path: FieldPath
                init(_path: FieldPath) { self._path = _path }
                var playerID: DocumentField<String> { DocumentField(_path.appending("playerID")) }
                var hr: DocumentField<Int> { DocumentField(_path.appending("hr")) }
                var teamId: DocumentField<Int> { DocumentField(_path.appending("teamId")) }
                var team: DocumentField<Team?> { DocumentField(_path.appending("team")) }
            }
        }

        func use(_ batting: DocumentCollection<Batting>, _ teams: DocumentCollection<Team>) throws {
            let groups = batting.query.group(by: \\.playerID) { (hr: $0.sum(\\.hr), seasons: $0.count()) }
            _ = try groups.filter { $0.hr >= 500 }.sorted { $0.hr.descending }.fetch()
            _ = try batting.query.join(teams, on: \\.teamId, equals: \\.id, as: \\.team).select { ($0.playerID, $0.hr) }
            _ = try batting.query.select { ($0.playerID + "!", $0.hr * 2) }
            _ = try batting.filter { $0.hr > 10 }.count()
        }
        """

    /// One-line mistakes: (the line as written, the mistaken line).
    static let mistakes: [(String, String)] = [
        // A sum of strings.
        (#"$0.sum(\.hr), seasons"#, #"$0.sum(\.playerID), seasons"#),
        // A group filter comparing an integer aggregate with a string.
        (#"filter { $0.hr >= 500 }"#, #"filter { $0.hr >= "500" }"#),
        // A join between fields of different types.
        (#"on: \.teamId, equals: \.id"#, #"on: \.playerID, equals: \.id"#),
        // A join into a member of another model's type.
        (#"as: \.team)"#, #"as: \.teamId)"#),
        // A string plus an integer in a computed column.
        (#"$0.playerID + "!""#, #"$0.playerID + $0.hr"#),
        // A filter comparing an integer field with a string.
        (#"filter { $0.hr > 10 }"#, #"filter { $0.hr > "10" }"#),
    ]

    @Test func theCorrectSourceTypeChecks() throws {
        let result = try Self.typeCheck(Self.source)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(arguments: mistakes.indices)
    func eachMistakeIsACompileErrorOnItsLine(_ index: Int) throws {
        let (written, mistaken) = Self.mistakes[index]
        let lines = Self.source.components(separatedBy: "\n")
        let matching = lines.indices.filter { lines[$0].contains(written) }
        try #require(matching.count == 1, "the mistake's line is found once in the source: \(written)")
        var changed = lines
        changed[matching[0]] = lines[matching[0]].replacingOccurrences(of: written, with: mistaken)
        let result = try Self.typeCheck(changed.joined(separator: "\n"))
        #expect(result.status != 0, "\(mistaken) compiled")
        #expect(result.output.contains("source.swift:\(matching[0] + 1):"), "the error is on the mistaken line: \(result.output)")
    }

    /// Runs `swiftc -typecheck` on `source` against the modules this test run built.
    static func typeCheck(_ source: String) throws -> (status: Int32, output: String) {
        let testBinary = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let buildDirectory = testBinary.deletingLastPathComponent()  // …/.build/<triple>/debug
        let modules = buildDirectory.appendingPathComponent("Modules")
        // GRDB's SQLite module map, which DocStore's interface imports, is in the
        // package checkouts beside the triple's directory.
        let checkouts = buildDirectory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("checkouts")
        let moduleMap = checkouts.appendingPathComponent("GRDB.swift/Sources/GRDBSQLite/module.modulemap")
        try #require(FileManager.default.fileExists(atPath: modules.appendingPathComponent("DocStore.swiftmodule").path),
                     "the built DocStore module is at \(modules.path)")
        try #require(FileManager.default.fileExists(atPath: moduleMap.path), "GRDB's module map is at \(moduleMap.path)")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("docstore-typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("source.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path,
                             "-Xcc", "-fmodule-map-file=\(moduleMap.path)", file.path]
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
