import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

extension PostgresTests {
    /// A role that may only read (no CREATE on the schema, as PostgreSQL 15
    /// gives every role but the owner) opens a DocStore database and reads it;
    /// its writes fail with PostgreSQL's reason and change nothing.
    @Suite("PostgreSQL: a role that may only read")
    struct RoleTests {
        @Test func aReadOnlyRoleOpensAndReads() async throws {
            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let owner = try await PostgresDocumentStore(url: url)
            do {
                try await owner.collection(named: "notes").insert(["id": 1, "text": "kept"])
            } catch {
                await owner.close()
                throw error
            }
            await owner.close()
            let role = "reader_" + UUID().uuidString.prefix(8).lowercased()
            try PostgresTestServer.psql("CREATE ROLE \(role) LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role);", databaseURL: url)
            let reader = try await PostgresDocumentStore(url: url.replacingOccurrences(of: "docstore@", with: "\(role)@"))
            do {
                #expect(try await reader.collection(named: "notes").get(1)?["text"] == "kept")
                let error = await #expect(throws: (any Error).self) {
                    try await reader.collection(named: "notes").insert(["id": 2])
                }
                #expect("\(String(describing: error))".contains("permission denied"), "\(String(describing: error))")
                #expect(try await reader.collection(named: "notes").count() == 1)
            } catch {
                await reader.close()
                throw error
            }
            await reader.close()
        }

        /// A database DocStore never opened can't be opened by a role that may
        /// only read, nor where every transaction is read-only: the error says
        /// why DocStore writes at all (its catalog) and what to do, where it
        /// said only "cannot execute CREATE TABLE in a read-only transaction".
        @Test func aNewDatabaseThatCantBeWrittenSaysItNeedsItsCatalogFirst() async throws {
            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let role = "reader_" + UUID().uuidString.prefix(8).lowercased()
            try PostgresTestServer.psql("CREATE ROLE \(role) LOGIN", databaseURL: url)
            let database = try #require(URLComponents(string: url)?.path.dropFirst())
            let readOnlyDatabase = "ALTER DATABASE \"\(database)\" SET default_transaction_read_only = on"
            for (place, expectedState) in [(url.replacingOccurrences(of: "docstore@", with: "\(role)@"), "42501"), (url, "25006")] {
                if expectedState == "25006" { try PostgresTestServer.psql(readOnlyDatabase, databaseURL: url) }
                let error = await #expect(throws: PostgresStoreError.self) { _ = try await PostgresDocumentStore(url: place) }
                let text = error?.localizedDescription ?? ""
                #expect(text.contains("no DocStore catalog yet") && text.contains("[SQLSTATE \(expectedState)]"), "\(text)")
                #expect(text.contains("open it once with a role that may create tables"), "\(text)")
            }
            let tables = try PostgresTestServer.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", databaseURL: url)
            #expect(tables.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.contains("0"), "\(tables)")
        }
    }
}
