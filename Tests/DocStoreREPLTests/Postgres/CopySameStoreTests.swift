import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// `docstore copy` onto its own source under another spelling (a `./` path,
    /// a symbolic or hard link, another URL for the same database) is refused
    /// before anything is written: a replacing copy would empty the collections
    /// it reads.
    @Suite("docstore copy: onto its own source")
    struct CopySameStoreTests {
        @Test func anotherSpellingOfTheSourceIsRefused() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let source = directory.appendingPathComponent("s.sqlite").path
            try runProcess(try docstoreBinary(), [source, "-c", #"p.insert({"id": 1, "kept": true})"#]).expectSuccess()
            let symbolic = directory.appendingPathComponent("symbolic.sqlite").path
            let hard = directory.appendingPathComponent("hard.sqlite").path
            try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: source)
            try FileManager.default.linkItem(atPath: source, toPath: hard)
            let dotted = directory.path + "/./s.sqlite"
            for spelling in [dotted, symbolic, hard] {
                let refused = try runProcess(try docstoreBinary(), ["copy", source, spelling, "--replace"])
                #expect(refused.status == 1)
                #expect(refused.stderr.contains("are the same store; nothing was copied"), "\(spelling): \(refused.stderr)")
            }
            let url = try PostgresREPLServer.freshDatabaseURL()
            try runProcess(try docstoreBinary(), [url, "-c", #"p.insert({"id": 1, "kept": true})"#]).expectSuccess()
            let respelled = url.replacingOccurrences(of: "postgres://", with: "postgresql://") + "/"
            let refused = try runProcess(try docstoreBinary(), ["copy", url, respelled, "--replace"])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("are the same store; nothing was copied"), "\(refused.stderr)")
            for store in [source, url] {
                let count = try runProcess(try docstoreBinary(), [store, "--mode", "ndjson", "-c", "p.count()"])
                #expect(count.stdout == "1\n", "\(store): \(count.stdout) \(count.stderr)")
            }
        }

        /// A copy into `s.sqlite-wal` (when s.sqlite has no log at the moment)
        /// reported success, then the next open of s.sqlite took the copy for
        /// its write-ahead log and deleted it.
        @Test func theSourcesCompanionFilesAreRefusedAsDestinations() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let source = directory.appendingPathComponent("s.sqlite").path
            try runProcess(try docstoreBinary(), [source, "-c", #"p.insert({"id": 1, "kept": true})"#]).expectSuccess()
            for suffix in ["-wal", "-shm", "-journal"] {
                let refused = try runProcess(try docstoreBinary(), ["copy", source, source + suffix])
                #expect(refused.status == 1)
                #expect(refused.stderr.contains("it is where SQLite keeps part of the database \(source)"), "\(suffix): \(refused.stderr)")
                // (Opening the source may make its own -wal and -shm; never a database.)
                let header = FileManager.default.contents(atPath: source + suffix)?.prefix(15) ?? Data()
                #expect(header != Data("SQLite format 3".utf8), "\(suffix) is a copy")
            }
            let count = try runProcess(try docstoreBinary(), [source, "--mode", "ndjson", "-c", "p.count()"])
            #expect(count.stdout == "1\n", "\(count.stderr)")
        }
    }
}
