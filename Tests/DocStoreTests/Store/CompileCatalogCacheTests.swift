import Foundation
import Testing
@testable import DocStore

/// Queries compiled on a file store's readers remember the catalog they read (a
/// collection's indexes, field columns, search indexes) only while nothing
/// changed: what this store or another one on the same file creates or drops is
/// read by the next query.
@Suite("The catalog a query's compilation reads")
struct CompileCatalogCacheTests {
    static let pipeline = QueryPipeline(DocumentQuery(.compare(FieldPath("n"), .greater, 3)), stages: [
        .group(Grouping(keys: [FieldPath("g")], aggregates: [NamedAggregate("total", .sum(FieldPath("n")))])),
    ])

    /// A file store (its readers are read-only connections) with 40 documents in
    /// four groups in `docs`.
    static func storeWithDocuments(at path: String) throws -> (DocumentStore, DocumentCollection<JSONValue>) {
        let store = try DocumentStore(path: path)
        let docs = store.collection(named: "docs")
        try docs.insert(contentsOf: (1...40).map { ["g": .string("g\($0 % 4)"), "n": .integer(Int64($0))] as JSONValue })
        return (store, docs)
    }

    @Test func fieldColumnsAndIndexesMadeOrDroppedAreReadByTheNextQuery() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, docs) = try Self.storeWithDocuments(at: path)
        let expected = try docs.rows(Self.pipeline)
        #expect(expected.count == 4)
        // Compiled (and remembered) before the columns exist.
        #expect(try !docs.explain(Self.pipeline).sql.contains("docstore_columns"))

        _ = try docs.createFieldColumns(on: [FieldPath("g"), FieldPath("n")])
        #expect(try docs.explain(Self.pipeline).sql.contains("docstore_columns"))
        #expect(try docs.rows(Self.pipeline) == expected)

        // Dropped: a remembered table would now be "no such table".
        #expect(try docs.dropFieldColumns(on: [FieldPath("g"), FieldPath("n")]))
        #expect(try !docs.explain(Self.pipeline).sql.contains("docstore_columns"))
        #expect(try docs.rows(Self.pipeline) == expected)

        // Made by another store on the same file (another process, as far as
        // this one knows): seen too.
        let other = try DocumentStore(path: path)
        _ = try other.collection(named: "docs").createFieldColumns(on: [FieldPath("g"), FieldPath("n")])
        #expect(try docs.explain(Self.pipeline).sql.contains("docstore_columns"))
        let plain = store.collection(named: "plain")
        try plain.insert(contentsOf: (1...40).map { ["g": .string("g\($0 % 4)")] as JSONValue })
        let counts = QueryPipeline(stages: [.group(Grouping(keys: [FieldPath("g")], aggregates: [NamedAggregate("rows", .count)]))])
        #expect(try !plain.explain(counts).usesIndex)
        _ = try other.collection(named: "plain").createIndex(on: FieldPath("g"))
        let explanation = try plain.explain(counts)
        #expect(explanation.usesIndex, "\(explanation)")
        try other.close()
    }

    /// A pipeline run inside its own row loop runs on a statement of its own (the
    /// kept one is in use), and both runs see every row; statements kept between
    /// runs are finalized by `close()`, which would otherwise fail ("unable to
    /// close due to unfinalized statements").
    @Test func keptStatementsServeOneRunAtATimeAndCloseWithTheStore() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, docs) = try Self.storeWithDocuments(at: path)
        let expected = try docs.rows(Self.pipeline)
        var outer: [JSONValue] = []
        try docs.forEachRow(Self.pipeline) { (row: JSONValue) throws -> Void in
            outer.append(row)
            // A statement reset under the loop would start it again, forever.
            if outer.count > expected.count { throw CancellationError() }
            let inner = try docs.rows(Self.pipeline)
            #expect(inner == expected)
        }
        #expect(outer == expected)
        try docs.insert(["g": "g9", "n": 100])
        #expect(try docs.rows(Self.pipeline).count == expected.count + 1, "a kept statement reads the store as it is now")
        try store.close()
    }
}
