/// The statements a PostgreSQL store needs to move documents in bulk (the REPL's
/// `.import` and `.export`, `docstore copy`): savepoints, pages in key order and
/// the largest integer key.
extension PostgresStoreSQL {
    /// Starts a savepoint; savepoints of one name nest, the latest one first.
    public static let savepoint = "SAVEPOINT docstore_savepoint"

    /// Keeps what was written since the latest savepoint.
    public static let releaseSavepoint = "RELEASE SAVEPOINT docstore_savepoint"

    /// Undoes what was written since the latest savepoint (which
    /// ``releaseSavepoint`` then ends).
    public static let rollbackToSavepoint = "ROLLBACK TO SAVEPOINT docstore_savepoint"

    /// The first `$1` documents in key order, `key, body::text`.
    public static func firstPage(_ collection: String) -> String {
        "SELECT key, body::text FROM \(quoteIdentifier(collection)) ORDER BY key LIMIT $1"
    }

    /// The next `$2` documents in key order after key `$1`, `key, body::text`.
    public static func page(after collection: String) -> String {
        "SELECT key, body::text FROM \(quoteIdentifier(collection)) WHERE key > $1 ORDER BY key LIMIT $2"
    }

    /// About `$1` documents spread evenly over the collection's keys (all of
    /// them when it has no more), `key, body::text`, in key order: the REPL's
    /// sample of field names. The keys are picked on the server, from the keys
    /// alone; the sample read every key into the client, then each document
    /// in a round trip of its own (2 s on 108 789 documents; helper-56).
    public static func spreadSample(_ collection: String) -> String {
        let table = quoteIdentifier(collection)
        let numbered = "SELECT key, row_number() OVER (ORDER BY key) - 1 AS n, count(*) OVER () AS total FROM \(table)"
        // The k-th pick is row k · total / $1, as a file store's sample picks
        // them: row n is one when k = ⌈n · $1 / total⌉ gives it back.
        let k = "((n * $1 + total - 1) / total)"
        let picked = "SELECT key FROM (\(numbered)) AS numbered WHERE total <= $1 OR (\(k) < $1 AND \(k) * total / $1 = n)"
        return "SELECT d.key, d.body::text FROM \(table) AS d JOIN (\(picked)) AS picked ON picked.key = d.key ORDER BY d.key"
    }

    /// The largest key of an integer-keyed collection (NULL when empty).
    public static func largestKey(_ collection: String) -> String {
        "SELECT max(key) FROM \(quoteIdentifier(collection))"
    }

    /// Waits for, then holds until its transaction ends, the lock under which
    /// keys are generated in a collection (`$1` its name): concurrent writers
    /// read the largest key one after the other.
    public static let lockKeyGeneration = "SELECT pg_advisory_xact_lock(hashtextextended('docstore.keys.' || $1, 0))"

    /// Waits for, then holds until its transaction ends, the lock under which
    /// DocStore's own tables are created when a store is opened: PostgreSQL's
    /// `CREATE TABLE IF NOT EXISTS` is not safe against a concurrent one (the
    /// second fails with "already exists"), and two processes may open a new
    /// database at once.
    public static let lockSchemaCreation = "SELECT pg_advisory_xact_lock(hashtextextended('docstore.schema', 0))"

    /// The same for one collection (`$1` its name): its table, created by the
    /// first write of any process, and its indexes. Keyed by the name's
    /// canonical decomposition, so that two names that are one Swift string (a
    /// composed "é" and "e" with a combining accent) take the same lock: the
    /// second to create its collection then finds the first in the catalog and
    /// is refused, where two shells creating both at once both succeeded
    /// (helper-48).
    public static let lockCollectionSchema = "SELECT pg_advisory_xact_lock(hashtextextended('docstore.collection.' || normalize($1, NFD), 0))"

    /// Taken by an update by query before it reads or writes (`$1` the
    /// collection's name), until its transaction ends: two updates of many
    /// documents of one collection meet rows in different orders and
    /// deadlock, which PostgreSQL breaks only after `deadlock_timeout` (a
    /// second), by undoing one; one after the other, neither waits for that.
    public static let lockCollectionUpdates = "SELECT pg_advisory_xact_lock(hashtextextended('docstore.updates.' || $1, 0))"

    /// Holds off every other writer of a collection's table until the
    /// transaction ends (readers go on), and waits for those under way: a
    /// rewrite of many documents then sees them as its checks did, and meets
    /// no row another rewrite holds (SHARE ROW EXCLUSIVE conflicts with itself
    /// and with the ROW EXCLUSIVE of INSERT, UPDATE and DELETE).
    public static func lockForRewrite(_ collection: String) -> String {
        "LOCK TABLE \(quoteIdentifier(collection)) IN SHARE ROW EXCLUSIVE MODE"
    }
}
