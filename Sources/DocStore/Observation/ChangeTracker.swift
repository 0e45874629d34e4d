import Dispatch
import GRDB
import GRDBSQLite
import Synchronization

/// Something told of every commit to its store: a live query, a change stream.
protocol StoreObserver: AnyObject, Sendable {
    /// The collections whose writes must be recorded for this observer.
    var observedCollections: Set<String> { get }
    /// A transaction committed (or another process did). Called on the tracker's
    /// delivery queue, one commit at a time, in commit order.
    func storeDidCommit(_ committed: CommittedWrites)
    /// The store was closed: end the observation with `error`. Called on the
    /// delivery queue, after every commit published before the close.
    func storeDidClose(_ error: any Error)
}

/// Records what each write transaction does, document by document, and hands it
/// to the store's observers when (and only when) it commits.
///
/// It follows transactions exactly, as ``CollectionCache`` does: writes are kept
/// per connection while their transaction is open, published on commit, dropped on
/// rollback, and trimmed back when a savepoint rolls back. A write in autocommit
/// mode has committed by the time it is recorded and is published at once.
///
/// Nothing is recorded while no one observes a collection, so a store without
/// observers pays one atomic load per write. Observers are added on the writer's
/// queue (see ``DocumentStore/addObserver(_:)``): no transaction is half-recorded
/// because an observer arrived in its middle, unless the observer was added from
/// inside that very transaction, which is then published as "anything may have
/// changed".
final class ChangeTracker: Sendable {
    private struct State {
        var pending: [ObjectIdentifier: [RecordedWrite]] = [:]
        /// Connections whose open transaction began before an observer was added.
        var incomplete: Set<ObjectIdentifier> = []
        var observers: [ObjectIdentifier: any StoreObserver] = [:]
        /// How many observers watch each collection.
        var observedCounts: [String: Int] = [:]
        /// Set when the store closes: an observer added after that is ended at once.
        var closedError: (any Error)?
    }

    private let state = Mutex(State())
    private let observerCount = Atomic<Int>(0)
    /// Commits reach observers here, in order, off the writer's queue: a slow
    /// observer never holds up a write.
    private let delivery = DispatchQueue(label: "DocStore.observation")

    /// Whether writes to `collection` are to be recorded.
    func isObserved(_ collection: String) -> Bool {
        guard observerCount.load(ordering: .acquiring) > 0 else { return false }
        return state.withLock { $0.observedCounts[collection, default: 0] > 0 }
    }

    /// Records a write that has just succeeded on `db`'s connection.
    func record(_ write: RecordedWrite, in db: Database) {
        record(batch: [write], in: db)
    }

    /// Records writes that have just succeeded on `db`'s connection, in the order
    /// they were made, keeping the array given (pass it with `consume`): a batch
    /// insert or an update by query hands its writes over at once, in one lock,
    /// its elements moved rather than copied one by one and then released.
    func record(batch: consuming [RecordedWrite], in db: Database) {
        guard !batch.isEmpty else { return }
        // `sqlite3_get_autocommit` itself: GRDB's `isInsideTransaction` first
        // checks the calling queue (`dispatch_get_specific`, which locks), a
        // tenth of an observed insert's time when called for each document.
        guard sqlite3_get_autocommit(db.sqliteConnection) == 0 else {
            // In autocommit mode a batch is one statement's writes (a delete
            // by query's rows), so one commit: one change set. Published a
            // write at a time, it showed states that never existed.
            publish(CommittedWrites(writes: batch))
            return
        }
        var writes = batch
        let connection = ObjectIdentifier(db)
        let isFirst = state.withLock { state in
            guard var earlier = state.pending.removeValue(forKey: connection) else {
                state.pending[connection] = writes
                return true
            }
            // The shorter list joins the longer, in order: a large batch after
            // a few writes moves, and many single writes in one transaction
            // each append rather than move the whole list.
            if earlier.count >= writes.count {
                earlier.append(contentsOf: writes)
                state.pending[connection] = earlier
            } else {
                writes.insert(contentsOf: earlier, at: 0)
                state.pending[connection] = writes
            }
            return false
        }
        if isFirst { publishOnCommit(of: db) }
    }

    /// A mark to roll back to: call before a savepoint begins.
    func savepointMark(in db: Database) -> Int {
        state.withLock { $0.pending[ObjectIdentifier(db)]?.count ?? 0 }
    }

    /// Forgets the writes recorded on `db`'s connection since `mark`: their
    /// savepoint was rolled back.
    func rollBack(to mark: Int, in db: Database) {
        state.withLock { state in
            guard let count = state.pending[ObjectIdentifier(db)]?.count, count > mark else { return }
            state.pending[ObjectIdentifier(db)]?.removeSubrange(mark...)
        }
    }

    /// Tells observers that anything may have changed (another process committed).
    func publishExternalChange() {
        publish(CommittedWrites(writes: [], mayHaveChangedAnything: true))
    }

    // MARK: Observers

    /// Adds an observer. Must run on the writer's connection (`db`), so that no
    /// other transaction is open while it is added.
    func add(_ observer: any StoreObserver, in db: Database) {
        let connection = ObjectIdentifier(db)
        if let closed = state.withLock({ $0.closedError }) {
            delivery.async { observer.storeDidClose(closed) }
            return
        }
        let needsHook = state.withLock { state in
            state.observers[ObjectIdentifier(observer)] = observer
            for name in observer.observedCollections { state.observedCounts[name, default: 0] += 1 }
            guard db.isInsideTransaction else { return false }
            state.incomplete.insert(connection)
            let isFirst = state.pending[connection] == nil
            if isFirst { state.pending[connection] = [] }
            return isFirst
        }
        observerCount.add(1, ordering: .releasing)
        if needsHook { publishOnCommit(of: db) }
    }

    /// Removes an observer; it gets no call after this returns but one that has
    /// already begun.
    func remove(_ observer: any StoreObserver) {
        let removed = state.withLock { state in
            guard state.observers.removeValue(forKey: ObjectIdentifier(observer)) != nil else { return false }
            for name in observer.observedCollections {
                state.observedCounts[name, default: 1] -= 1
                if state.observedCounts[name] == 0 { state.observedCounts[name] = nil }
            }
            return true
        }
        if removed { observerCount.subtract(1, ordering: .releasing) }
    }

    /// Ends every observation with `error` (the store closed), after the
    /// commits published before: each was left waiting for a commit that could
    /// never come, and kept the store's connections open (helper-43).
    func closeAll(with error: any Error) {
        let observers = state.withLock { state in
            state.closedError = error
            let observers = Array(state.observers.values)
            state.observers.removeAll()
            state.observedCounts.removeAll()
            return observers
        }
        observerCount.subtract(observers.count, ordering: .releasing)
        delivery.async {
            for observer in observers { observer.storeDidClose(error) }
        }
    }

    /// Whether any observer is registered.
    var hasObservers: Bool { observerCount.load(ordering: .acquiring) > 0 }

    /// How many observers are registered.
    var count: Int { observerCount.load(ordering: .acquiring) }

    // MARK: Publishing

    private func publishOnCommit(of db: Database) {
        let connection = ObjectIdentifier(db)
        db.afterNextTransaction(
            onCommit: { [self] _ in
                let committed = state.withLock { state in
                    CommittedWrites(writes: state.pending.removeValue(forKey: connection) ?? [],
                                    mayHaveChangedAnything: state.incomplete.remove(connection) != nil)
                }
                if !committed.writes.isEmpty || committed.mayHaveChangedAnything { publish(committed) }
            },
            onRollback: { [self] _ in
                state.withLock { state in
                    state.pending[connection] = nil
                    state.incomplete.remove(connection)
                }
            })
    }

    private func publish(_ committed: CommittedWrites) {
        let observers = state.withLock { Array($0.observers.values) }
        guard !observers.isEmpty else { return }
        delivery.async {
            for observer in observers { observer.storeDidCommit(committed) }
        }
    }

    /// Returns once every commit published so far has been delivered.
    func waitUntilDelivered() {
        delivery.sync {}
    }
}
