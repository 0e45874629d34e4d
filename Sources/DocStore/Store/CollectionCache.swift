import GRDB
import Synchronization

/// What a store remembers about its collections between calls, so that the hot path
/// needs no catalog query.
///
/// It follows the database exactly:
/// - `committed` holds only committed state, read from the catalog or published
///   by a commit;
/// - creations and drops made by a transaction still open are recorded as
///   `changes` of that transaction's connection, which alone sees them; a commit
///   publishes them, a rollback forgets them, and rolling back a savepoint forgets
///   those made since the savepoint began;
/// - when another connection or process commits, SQLite's `PRAGMA data_version`
///   changes on every connection that later reads, and the committed entries are
///   forgotten, so a collection created, dropped or re-created elsewhere is seen
///   at once.
final class CollectionCache: Sendable {
    /// A creation (`info`) or drop (`nil`) made by an open transaction.
    private struct Change {
        var name: String
        var info: CollectionInfo?
        var sequence: Int
    }

    private struct State {
        /// By bytes (see ExactText): two names equal as Swift strings are two tables.
        var committed: [ExactText: CollectionInfo] = [:]
        var changes: [ObjectIdentifier: [Change]] = [:]
        /// The last `data_version` each connection reported.
        var dataVersions: [ObjectIdentifier: Int64] = [:]
        /// Connections whose open transaction was already checked: what others
        /// commit can't reach a transaction once it has begun.
        var checkedTransactions: Set<ObjectIdentifier> = []
        var nextSequence = 0

        /// Whether any open transaction created or dropped `name`.
        func isChanging(_ name: String) -> Bool {
            changes.values.contains { $0.contains { ExactText.same($0.name, name) } }
        }
    }

    private let state = Mutex(State())

    /// The entry as `db`'s connection sees it: its own transaction's last change to
    /// `name`, else the committed entry. `.some(nil)` means "dropped by this
    /// transaction"; `nil` means "not cached".
    func lookup(_ name: String, in db: Database) -> CollectionInfo?? {
        let connection = ObjectIdentifier(db)
        return state.withLock { state in
            if let change = state.changes[connection]?.last(where: { ExactText.same($0.name, name) }) { return .some(change.info) }
            return state.committed[ExactText(name)].map { .some($0) }
        }
    }

    /// The committed entry, for reads that don't go through a `Database`.
    func committed(_ name: String) -> CollectionInfo? {
        state.withLock { $0.committed[ExactText(name)] }
    }

    /// Remembers an entry read from the catalog, unless an open transaction is
    /// creating or dropping that collection (what it read may not last).
    func remember(_ info: CollectionInfo) {
        state.withLock { state in
            if !state.isChanging(info.name) { state.committed[ExactText(info.name)] = info }
        }
    }

    /// Forgets every committed entry.
    func forgetCommitted() {
        state.withLock { $0.committed.removeAll() }
    }

    /// Forgets the committed entries when another connection or process has
    /// committed since `db`'s connection last asked. Costs one cached `PRAGMA`,
    /// once per write transaction (no one else can commit while it is open), or
    /// once per call otherwise.
    func refresh(for db: Database) throws {
        let connection = ObjectIdentifier(db)
        // Only writable connections can learn when their transaction ends (GRDB
        // doesn't notify read-only ones); reads check every time.
        let inTransaction = db.isInsideTransaction && !db.configuration.readonly
        if inTransaction, state.withLock({ $0.checkedTransactions.contains(connection) }) { return }
        // Stepped directly: GRDB's generic fetchOne cost more than SQLite's pragma,
        // and autocommit writes (one per call) pay this every time.
        let statement = try RawStatement(db, sql: "PRAGMA data_version")
        defer { statement.finish() }
        try statement.step()
        let version = statement.int64(at: 0)
        state.withLock { state in
            if state.dataVersions.updateValue(version, forKey: connection) != version {
                state.committed.removeAll()
            }
            if inTransaction { state.checkedTransactions.insert(connection) }
        }
        if inTransaction {
            let forget: @Sendable (Database) -> Void = { [self] _ in _ = state.withLock { $0.checkedTransactions.remove(connection) } }
            db.afterNextTransaction(onCommit: forget, onRollback: forget)
        }
    }

    /// Records that the open transaction on `db` created (`info`) or dropped (`nil`)
    /// the collection `name`; published on commit, forgotten on rollback.
    func record(_ name: String, _ info: CollectionInfo?, in db: Database) {
        let connection = ObjectIdentifier(db)
        let isFirst = state.withLock { state in
            let isFirst = state.changes[connection, default: []].isEmpty
            state.changes[connection, default: []].append(Change(name: name, info: info, sequence: state.nextSequence))
            state.nextSequence += 1
            return isFirst
        }
        guard isFirst else { return }
        db.afterNextTransaction(
            onCommit: { [self] _ in
                state.withLock { state in
                    for change in state.changes.removeValue(forKey: connection) ?? [] {
                        state.committed[ExactText(change.name)] = change.info
                    }
                }
            },
            onRollback: { [self] _ in
                state.withLock { _ = $0.changes.removeValue(forKey: connection) }
            })
    }

    /// A mark to roll back to: call before a savepoint begins.
    func savepointMark() -> Int {
        state.withLock { $0.nextSequence }
    }

    /// Forgets the changes `db`'s connection recorded since `mark`: its savepoint
    /// was rolled back.
    func rollBack(to mark: Int, in db: Database) {
        let connection = ObjectIdentifier(db)
        state.withLock { state in
            state.changes[connection]?.removeAll { $0.sequence >= mark }
        }
    }
}
