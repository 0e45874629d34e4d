import Foundation
import Testing
@testable import DocStore

/// Issue 9, "rollbacks of every write path": each way of writing, rolled back as a
/// whole transaction or as a savepoint inside one, leaves the store exactly as it
/// was, and leaves no cache behind that would make the same write, done for real
/// afterwards, end differently than on a store that never saw the rollback.
@Suite("Fault: every write path rolls back whole")
struct WritePathRollbackTests {
    struct Abort: Error {}

    /// A named write, applied to a store.
    struct WritePath: CustomTestStringConvertible, Sendable {
        var name: String
        var apply: @Sendable (DocumentStore) throws -> Void
        var testDescription: String { name }
    }

    static let paths: [WritePath] = [
        WritePath(name: "insert") { try $0.collection(Team.self).insert(Team(id: 9, city: "Seattle", nickName: "Mariners", abbreviation: "SEA")) },
        WritePath(name: "insert creating a collection") { try $0.collection(named: "fans").insert(["id": "ann", "seats": 2]) },
        WritePath(name: "insert with a generated key") { try $0.collection(Note.self).insert(Note(text: "hello")) },
        WritePath(name: "insert(contentsOf:)") {
            try $0.collection(named: "fans").insert(contentsOf: [["id": "bob"], ["id": "cy"]])
        },
        WritePath(name: "save") { try $0.collection(Team.self).save(Team(id: 1, city: "Boston", nickName: "Sox", abbreviation: "BOS")) },
        WritePath(name: "update(key)") { _ = try $0.collection(Team.self).update(2) { $0.city = "Charm City" } },
        WritePath(name: "delete(key)") { _ = try $0.collection(Team.self).delete(3) },
        WritePath(name: "deleteAll") { _ = try $0.collection(Team.self).deleteAll() },
        WritePath(name: "update by query") {
            _ = try $0.collection(Team.self).update(DocumentQuery(.compare(FieldPath("id"), .greater, 1)),
                                                    [.set(FieldPath("league"), "AL")])
        },
        WritePath(name: "delete by query") {
            _ = try $0.collection(Team.self).delete(DocumentQuery(.compare(FieldPath("city"), .equal, "Toronto")))
        },
        WritePath(name: "createIndex") { _ = try $0.collection(Team.self).createIndex(on: FieldPath("city"), unique: true) },
        WritePath(name: "createIndex before the collection exists") { _ = try $0.collection(named: "later").createIndex(on: FieldPath("x")) },
        WritePath(name: "dropIndex") { _ = try $0.collection(Team.self).dropIndex(on: [FieldPath("abbreviation")]) },
        WritePath(name: "dropCollection") { _ = try $0.dropCollection(named: "teams") },
        WritePath(name: "dropCollection then re-create") {
            _ = try $0.dropCollection(named: "teams")
            try $0.collection(named: "teams").insert(["id": "text keys now"])
        },
        WritePath(name: "values.set") { try $0.values.set(["volume": 11], forKey: "settings") },
        WritePath(name: "values.remove") { _ = try $0.values.remove("settings") },
    ]

    /// Everything a user can observe: collections, their key kinds, documents
    /// (as values, in key order), indexes, and the key/value area.
    func snapshot(_ store: DocumentStore) throws -> String {
        var lines: [String] = []
        for info in try store.collections() {
            let collection = store.collection(named: info.name)
            lines.append("collection \(info.name) \(info.keyKind)")
            for document in try collection.all() { lines.append("  \(String(decoding: DocumentCodec.serialize(document, options: .sortedKeys), as: UTF8.self))") }
            for index in try collection.indexes() { lines.append("  index \(index.fields) unique=\(index.isUnique)") }
        }
        for key in try store.values.keys() {
            lines.append("value \(key) = \(String(describing: try store.values.get(key, as: JSONValue.self)))")
        }
        return lines.joined(separator: "\n")
    }

    /// A file store (so the point reader and its cache take part) with teams, an
    /// index and a value.
    func makeStore(in directory: URL, _ name: String) throws -> DocumentStore {
        let store = try DocumentStore(path: directory.appendingPathComponent(name).path)
        try store.collection(Team.self).insert(contentsOf: sampleTeams)
        _ = try store.collection(Team.self).createIndex(on: FieldPath("abbreviation"))
        try store.values.set(["volume": 3], forKey: "settings")
        return store
    }

    @Test(arguments: paths)
    func aRolledBackTransactionLeavesNoTrace(_ path: WritePath) throws {
        let (_, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try makeStore(in: directory, "store.sqlite")
        let before = try snapshot(store)
        #expect(throws: Abort.self) {
            try store.write { _ in
                try path.apply(store)
                throw Abort()
            }
        }
        #expect(try snapshot(store) == before)
        try expectSameAsNeverRolledBack(store, path, directory: directory)
    }

    @Test(arguments: paths)
    func aRolledBackSavepointLeavesNoTraceAndTheTransactionGoesOn(_ path: WritePath) throws {
        let (_, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try makeStore(in: directory, "store.sqlite")
        let before = try snapshot(store)
        try store.write { (_: StoreTransaction) throws in
            #expect(throws: Abort.self) {
                try store.write { _ in
                    try path.apply(store)
                    throw Abort()
                }
            }
            #expect(try snapshot(store) == before, "inside the transaction, after the savepoint")
        }
        #expect(try snapshot(store) == before)
        try expectSameAsNeverRolledBack(store, path, directory: directory)
    }

    /// The write, done for real now, ends as on a store that never saw the rollback.
    func expectSameAsNeverRolledBack(_ store: DocumentStore, _ path: WritePath, directory: URL) throws {
        let control = try makeStore(in: directory, "control.sqlite")
        try path.apply(control)
        try path.apply(store)
        #expect(try snapshot(store) == snapshot(control))
        // A point read (cached on the store) ends the same way: a value or an error.
        let read = { (store: DocumentStore) in "\(Result { try store.collection(Team.self).get(4) })" }
        #expect(read(store) == read(control), "point reads agree")
    }
}
