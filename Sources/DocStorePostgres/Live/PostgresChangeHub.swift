@_spi(Backends) import DocStore
import PostgresNIO
import Synchronization

/// Something told of every commit to its store's collections: a live query, a
/// change stream.
protocol PostgresStoreObserver: AnyObject, Sendable {
    /// A transaction committed (or anything may have changed). Called one commit
    /// at a time, in commit order; must return quickly (start work, don't wait).
    func storeDidCommit(_ commit: PostgresCommit)
    /// The store was closed: the observation ends with ``PostgresStoreError/closed``.
    func storeDidClose()
}

/// A store's one listening connection, shared by its live queries and change
/// streams: it `LISTEN`s on the store's channel while any observer is
/// registered, groups the triggers' notices into committed transactions and
/// hands each to every observer.
///
/// The connection is leased from the store's pool for as long as anyone
/// listens, and given back when the last observer goes. When it is lost, the
/// hub leases another and listens again, then tells every observer that
/// anything may have changed: a commit made while no one listened is never
/// missed, only re-read.
final class PostgresChangeHub: Sendable {
    private enum Phase {
        /// No listening task.
        case idle
        /// Connecting and sending `LISTEN`; these wait for it.
        case connecting([CheckedContinuation<Void, any Error>])
        case listening
        case closed
    }

    private struct State {
        var phase = Phase.idle
        var observers: [ObjectIdentifier: any PostgresStoreObserver] = [:]
        var task: Task<Void, Never>?
        /// Numbers listening tasks, so that one that was replaced stays quiet.
        var generation = 0
        /// The listening connection's backend process id, and its task's number.
        var listener: (generation: Int, processID: Int32)?
    }

    /// The store, for its catalog (key kinds). Weak: the store owns the hub.
    private struct Owner {
        weak var store: PostgresDocumentStore?
    }

    private let owner = Mutex(Owner())
    private let client: PostgresClient
    private var store: PostgresDocumentStore? { owner.withLock { $0.store } }
    private let state = Mutex(State())
    /// How many times listening started again after a lost connection (for tests).
    let reconnections = Atomic<Int>(0)
    /// The backend process id of the listening connection, when listening (for tests).
    var listenerProcessID: Int32? { state.withLock { $0.listener?.processID } }
    /// How many fetches live queries ran (for tests: unrelated commits run none).
    let fetches = Atomic<Int>(0)

    init(client: PostgresClient) {
        self.client = client
    }

    /// Completes the hub once its store is initialized.
    func attach(_ store: PostgresDocumentStore) {
        owner.withLock { $0.store = store }
    }

    // MARK: Observers

    /// Registers `observer`; returns once the store is listening, so that every
    /// commit from then on reaches it.
    ///
    /// - Throws: the connection's error when listening can't start, or
    ///   ``PostgresStoreError/closed``.
    func add(_ observer: any PostgresStoreObserver) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            enum Next { case ready, wait, closed, start(Int) }
            let next = state.withLock { state -> Next in
                if case .closed = state.phase { return .closed }
                state.observers[ObjectIdentifier(observer)] = observer
                switch state.phase {
                case .listening: return .ready
                case .connecting(let waiting):
                    state.phase = .connecting(waiting + [continuation])
                    return .wait
                case .idle:
                    state.generation += 1
                    state.phase = .connecting([continuation])
                    return .start(state.generation)
                case .closed: return .closed
                }
            }
            switch next {
            case .ready: continuation.resume()
            case .wait: break
            case .closed: continuation.resume(throwing: PostgresStoreError.closed)
            case .start(let generation):
                let task = Task { await listen(generation: generation) }
                state.withLock { state in
                    if state.generation == generation { state.task = task } else { task.cancel() }
                }
            }
        }
    }

    /// Unregisters `observer`; the last one stops the listening.
    func remove(_ observer: any PostgresStoreObserver) {
        let (stopped, waiting) = state.withLock { state -> (Task<Void, Never>?, [CheckedContinuation<Void, any Error>]) in
            state.observers[ObjectIdentifier(observer)] = nil
            guard state.observers.isEmpty else { return (nil, []) }
            if case .closed = state.phase { return (nil, []) }
            var waiting: [CheckedContinuation<Void, any Error>] = []
            if case .connecting(let list) = state.phase { waiting = list }
            state.phase = .idle
            state.generation += 1
            defer { state.task = nil }
            return (state.task, waiting)
        }
        // Observers that ended while waiting for the first LISTEN.
        for continuation in waiting { continuation.resume(throwing: CancellationError()) }
        stopped?.cancel()
    }

    /// How many observers are registered.
    var observerCount: Int { state.withLock { $0.observers.count } }

    /// Stops listening for good; observers' iterations end with ``PostgresStoreError/closed``.
    func close() async {
        let (task, waiting) = state.withLock { state -> (Task<Void, Never>?, [CheckedContinuation<Void, any Error>]) in
            var waiting: [CheckedContinuation<Void, any Error>] = []
            if case .connecting(let list) = state.phase { waiting = list }
            state.phase = .closed
            state.generation += 1
            defer { state.task = nil }
            return (state.task, waiting)
        }
        for continuation in waiting { continuation.resume(throwing: PostgresStoreError.closed) }
        task?.cancel()
        await task?.value
        let observers = state.withLock { state in
            defer { state.observers = [:] }
            return Array(state.observers.values)
        }
        for observer in observers { observer.storeDidClose() }
    }

    // MARK: Listening

    /// Listens until cancelled, leasing a connection again after each loss.
    private func listen(generation: Int) async {
        var grouper = CommitNoticeGrouper()
        var hasListened = false
        var failures = 0
        while !Task.isCancelled, isCurrent(generation) {
            do {
                try await client.withConnection { connection in
                    let channelRows = try await PostgresSession.transaction(connection).rows(
                        PostgresStoreSQL.notifyChannel + ", pg_backend_pid()", [], collection: nil)
                    guard let (channel, processID) = try channelRows.first?.decode((String, Int32).self) else {
                        throw PostgresStoreError.server(sqlState: nil, message: "the server named no channel for the store's schema",
                                                        detail: nil, hint: nil, collection: nil)
                    }
                    try await connection.listen(on: channel) { notifications in
                        grouper.reset()
                        state.withLock { $0.listener = (generation, processID) }
                        guard becameReady(generation: generation) else { return }
                        if hasListened {
                            // Commits made while no one listened went unheard: re-read.
                            reconnections.add(1, ordering: .relaxed)
                            await deliverMapped([], mayHaveChangedAnything: true)
                        }
                        hasListened = true
                        failures = 0
                        for try await notification in notifications {
                            guard let notice = CommitNotice.decode(notification.payload) else { continue }
                            for transaction in grouper.add(notice) { await deliverMapped(transaction, mayHaveChangedAnything: false) }
                        }
                    }
                }
            } catch {
                if Task.isCancelled { break }
                if !hasListened, failed(generation: generation, error: PostgresStoreError.from(error, collection: nil)) { return }
            }
            forgetListener(generation)
            if Task.isCancelled { break }
            markConnecting(generation: generation)
            failures += 1
            // Back off (a server restarting), but not for long: while no one
            // listens, observers hold what they read last.
            try? await Task.sleep(for: .milliseconds(min(2_000, 25 << min(failures, 7))))
        }
        forgetListener(generation)
    }

    private func forgetListener(_ generation: Int) {
        state.withLock { state in
            if state.listener?.generation == generation { state.listener = nil }
        }
    }

    /// Whether the task numbered `generation` is the hub's listening task.
    private func isCurrent(_ generation: Int) -> Bool {
        state.withLock { $0.generation == generation }
    }

    /// Listening started: wakes those waiting. False when this task was replaced.
    private func becameReady(generation: Int) -> Bool {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, any Error>]? in
            guard state.generation == generation else { return nil }
            var waiting: [CheckedContinuation<Void, any Error>] = []
            if case .connecting(let list) = state.phase { waiting = list }
            state.phase = .listening
            return waiting
        }
        guard let waiting else { return false }
        for continuation in waiting { continuation.resume() }
        return true
    }

    /// The connection was lost: observers added now wait for the next `LISTEN`.
    private func markConnecting(generation: Int) {
        state.withLock { state in
            if state.generation == generation, case .listening = state.phase { state.phase = .connecting([]) }
        }
    }

    /// Listening couldn't start at all: those waiting get the error. True when
    /// this task should end (no observer is left).
    private func failed(generation: Int, error: any Error) -> Bool {
        let (waiting, stop) = state.withLock { state -> ([CheckedContinuation<Void, any Error>], Bool) in
            guard state.generation == generation else { return ([], true) }
            var waiting: [CheckedContinuation<Void, any Error>] = []
            if case .connecting(let list) = state.phase { waiting = list }
            state.phase = .connecting([])
            return (waiting, false)
        }
        for continuation in waiting { continuation.resume(throwing: error) }
        return stop
    }

    // MARK: Delivering

    /// Turns a transaction's notices into a commit (keys of the collections'
    /// kinds) and delivers it.
    private func deliverMapped(_ notices: [CommitNotice], mayHaveChangedAnything: Bool) async {
        var writes: [PostgresCommit.Write] = []
        let collections = Set(notices.compactMap(\.c))
        var kinds: [String: KeyKind] = [:]
        if let store {
            if collections.contains(where: { name in store.catalog.withLock { $0[ExactText(name)] } == nil }) {
                try? await store.reloadCatalog()  // created by another process since
            }
            kinds = store.catalog.withLock { catalog in collections.reduce(into: [:]) { $0[$1] = catalog[ExactText($1)] } }
        }
        for notice in notices {
            guard let collection = notice.c else { continue }
            let kind: PostgresCommit.Write.Kind = switch notice.o {
            case "i": .insert
            case "u": .update
            case "d": .delete
            default: .any
            }
            guard kind != .any, let keys = notice.k else {
                writes.append(.init(collection: collection, kind: .any, keys: []))
                continue
            }
            writes.append(.init(collection: collection, kind: kind, keys: keys.map { $0.documentKey(kind: kinds[collection]) }))
        }
        deliver(PostgresCommit(writes: writes, mayHaveChangedAnything: mayHaveChangedAnything))
    }

    private func deliver(_ commit: PostgresCommit) {
        let observers = state.withLock { Array($0.observers.values) }
        for observer in observers { observer.storeDidCommit(commit) }
    }
}
