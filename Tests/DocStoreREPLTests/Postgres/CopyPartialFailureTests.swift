import DocStore
import Foundation
import Testing

extension PostgresREPLTests {
    /// A copy that fails after some collections were committed at the
    /// destination said only the error ("nothing of the transaction was
    /// committed"), and a second run was refused for the collections already
    /// there (helper-57). It names what it kept.
    @Suite("docstore copy: a failure after collections were committed")
    struct CopyPartialFailureTests {
        @Test(.timeLimit(.minutes(5))) func theFailureNamesTheCollectionsKeptAtTheDestination() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let source = directory.appendingPathComponent("s.db").path
            do {
                let store = try DocumentStore(path: source)
                try store.collection(named: "a").insert(contentsOf: (1...20).map { ["id": .integer(Int64($0))] })
                try store.collection(named: "b").insert(contentsOf: (1...20).map { ["id": .integer(Int64($0))] })
                try store.close()
            }
            // "b" exists, empty, at the destination, and refuses every insert.
            let url = try PostgresREPLServer.freshDatabaseURL()
            let made = try runProcess(try docstoreBinary(), [url, "-c", #"b.insert({"id": 1})"#, "-c", "b.delete(1)"])
            try #require(made.status == 0, "\(made.stderr)")
            try PostgresREPLServer.psql("""
                CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RAISE EXCEPTION 'no more here'; END$$;
                CREATE TRIGGER refuse BEFORE INSERT ON b FOR EACH ROW EXECUTE FUNCTION refuse();
                """, databaseURL: url)

            let copy = try runProcess(try docstoreBinary(), ["copy", source, url])
            #expect(copy.status == 1)
            #expect(copy.stderr.contains("no more here"), "\(copy.stderr)")
            #expect(copy.stderr.contains("copied and verified before that, and kept at the destination: a;"), "\(copy.stderr)")
            #expect(try PostgresREPLServer.psql("SELECT count(*) FROM a", databaseURL: url).trimmingCharacters(in: .whitespacesAndNewlines) == "20")
            #expect(try PostgresREPLServer.psql("SELECT count(*) FROM b", databaseURL: url).trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        }
    }
}
