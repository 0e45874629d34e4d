import GRDB

enum GRDBSupport {
    /// A pool on a fresh file: GRDB's pools use WAL; synchronous=NORMAL as everywhere.
    static func pool(path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
        }
        return try DatabasePool(path: path, configuration: configuration)
    }
}
