import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// A bare collection as a table or CSV is read twice (its columns, then
    /// its rows), which must see one state: on PostgreSQL the passes were read
    /// apart, and a commit between them gave rows of the new state under the
    /// old columns, so a field that commit added was silently not shown
    /// (helper-50). A commit made by another connection during the reading,
    /// between the two passes, is seen by neither.
    @Suite("PostgreSQL: both passes of a printed collection read one snapshot")
    struct SnapshotReadingTests {
        @Test func aCommitBetweenThePassesIsSeenByNeither() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let reader = try PostgresBackend.connect(url: url, readOnly: false)
            defer { reader.close() }
            let writer = try PostgresBackend.connect(url: url, readOnly: false)
            defer { writer.close() }
            _ = try writer.insert("big", (1...2_500).map { ["id": .integer(Int64($0)), "n": 0] })

            let (first, second) = try reader.reading {
                var first: [JSONValue] = []
                try reader.forEachInKeyOrder("big") { first.append($0) }
                _ = try writer.update("big", DocumentQuery(), [.set(FieldPath("n"), 1), .set(FieldPath("extra"), "NEW")])
                var second: [JSONValue] = []
                try reader.forEachInKeyOrder("big") { second.append($0) }
                return (first, second)
            }
            #expect(first.count == 2_500)
            #expect(first == second, "the second pass saw the commit made after the first")
            // Read again, after: the commit is there.
            var after: [JSONValue] = []
            try reader.forEachInKeyOrder("big") { after.append($0) }
            #expect(after.allSatisfy { $0.value(at: FieldPath("extra")) == "NEW" })
        }
    }
}
