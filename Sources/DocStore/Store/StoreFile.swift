import Foundation
import GRDB

/// Checks made before a file is opened as a store, so that a file that isn't one
/// is refused before SQLite (or GRDB's switch to WAL mode) writes anything to it.
enum StoreFile {
    static let sqliteHeader = Array("SQLite format 3\0".utf8)

    static func configuration(readOnly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readOnly
        // Wait for another process's writer instead of failing at once.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // Case-insensitive queries call Swift's case mapping (see CaseFolding).
            db.add(function: CaseFolding.function)
            // WAL with synchronous=NORMAL: a commit survives a process crash; only
            // power loss can roll back the last transactions, never corrupt the file.
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
        }
        return configuration
    }

    static func checkBeforeOpening(path: String, readOnly: Bool) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            if FileManager.default.fileExists(atPath: path) {
                throw DocStoreError.notAStore(path: path, reason: "the file can't be read")
            }
            if readOnly {
                throw DocStoreError.cannotOpen(path: path, reason: "the file does not exist (opened read-only, so it is not created)")
            }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw DocStoreError.cannotOpen(path: path, reason: "the folder \(folder) does not exist")
            }
            return  // a new store
        }
        let header = (try? handle.read(upToCount: sqliteHeader.count)).map(Array.init) ?? []
        try? handle.close()
        if header.isEmpty { return }  // an empty file becomes a store
        guard header == sqliteHeader else {
            throw DocStoreError.notAStore(path: path, reason: "it is not a SQLite database")
        }
        // A SQLite file: look inside with a plain connection, which changes nothing.
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let problem = try queue.read { db in try Catalog.problem(in: db, path: path) }
        try queue.close()
        if let problem { throw problem }
    }
}
