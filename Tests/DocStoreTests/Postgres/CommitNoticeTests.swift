import DocStore
import Foundation
import Testing
@testable import DocStorePostgres

/// The live triggers' notices, read and grouped without a server: payloads as
/// PostgreSQL delivers them (see PostgresStoreSQL+Live).
@Suite("PostgreSQL live queries: notices and change sets")
struct CommitNoticeTests {
    @Test func payloadsAreRead() throws {
        let notice = try #require(CommitNotice.decode(#"{"x":"738","c":"racers","o":"i","s":2,"k":[1,-9223372036854775808]}"#))
        #expect(notice == CommitNotice(x: "738", c: "racers", o: "i", s: 2, k: [.integer(1), .integer(Int64.min)], end: nil))
        let text = try #require(CommitNotice.decode(#"{"x":"9","c":"n","o":"d","s":1,"k":["a\"b","E621E1F8-C36C-495A-93FC-0C247A3E6E5F"]}"#))
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(text.k?.map { $0.documentKey(kind: .uuid) } == [.string("a\"b"), .uuid(uuid)])
        #expect(text.k?.map { $0.documentKey(kind: .string) } == [.string("a\"b"), .string(uuid.uuidString)])
        #expect(CommitNotice.decode(#"{"x":"9","end":true}"#)?.end == true)
        #expect(CommitNotice.decode("somebody else's NOTIFY") == nil)
    }

    @Test func noticesAreGroupedByTransaction() throws {
        var grouper = CommitNoticeGrouper()
        let insert = CommitNotice(x: "1", c: "a", o: "i", s: 1, k: [.integer(1)])
        let delete = CommitNotice(x: "1", c: "a", o: "d", s: 2, k: [.integer(1)])
        #expect(grouper.add(insert).isEmpty)
        #expect(grouper.add(delete).isEmpty)
        #expect(grouper.add(CommitNotice(x: "1", end: true)) == [[insert, delete]])
        // A transaction without its end notice ends when the next one begins.
        let lone = CommitNotice(x: "2", c: "a", o: "t", s: 1)
        let next = CommitNotice(x: "3", c: "b", o: "u", s: 1, k: [.integer(4)])
        #expect(grouper.add(lone).isEmpty)
        #expect(grouper.add(next) == [[lone]])
        #expect(grouper.add(CommitNotice(x: "3", end: true)) == [[next]])
        // A transaction heard in part before a lost connection is forgotten.
        #expect(grouper.add(CommitNotice(x: "4", c: "a", o: "i", s: 1, k: [.integer(5)])).isEmpty)
        grouper.reset()
        #expect(grouper.add(CommitNotice(x: "5", end: true)).isEmpty)
    }

    /// Net per key, as on SQLite: inserted then deleted is nothing; deleted
    /// then inserted is updated; a keyless write makes the set incomplete.
    @Test func changeSetsAreNetPerKey() {
        func write(_ kind: PostgresCommit.Write.Kind, _ keys: [Int64], in collection: String = "a") -> PostgresCommit.Write {
            .init(collection: collection, kind: kind, keys: keys.map { .integer($0) })
        }
        let commit = PostgresCommit(writes: [
            write(.insert, [10, 11]), write(.update, [1, 10]), write(.delete, [2, 11]),
            write(.delete, [3]), write(.insert, [3]), write(.delete, [99], in: "b"),
        ])
        let changes = PostgresChangesObserver<JSONValue>.netChanges(commit, in: "a")
        #expect(changes.inserted == [.integer(10)])
        #expect(changes.updated == [.integer(1), .integer(3)])
        #expect(changes.deleted == [.integer(2)])
        #expect(changes.isComplete)
        let keyless = PostgresChangesObserver<JSONValue>.netChanges(PostgresCommit(writes: [write(.insert, [1]), write(.any, [])]), in: "a")
        #expect(!keyless.isComplete && keyless.inserted.isEmpty)
        #expect(commit.touches("a", key: .integer(3)) && !commit.touches("a", key: .integer(4)) && !commit.touches("c"))
    }
}
