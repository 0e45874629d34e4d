import Synchronization

/// One live query: fetches its result when it starts and again after each commit
/// that may have changed it, and passes it on when it did change.
///
/// - Fetches run on the store's read queue, one at a time per observer; commits
///   that arrive while one runs make one more fetch follow it (coalescing).
/// - A fetch compares what it read (`Raw`: the stored bytes, a count…) with the
///   last result and decodes and yields only a changed one: a commit is never
///   reported twice, and an unchanged result never.
final class LiveObserver<Raw: Equatable & Sendable, Value: Sendable>: StoreObserver {
    typealias Continuation = AsyncThrowingStream<Value, any Error>.Continuation

    let store: DocumentStore
    let region: ObservedRegion
    let observedCollections: Set<String>
    private let fetchRaw: @Sendable () throws -> Raw
    /// The keys a result holds, for regions judged by result keys.
    private let resultKeys: @Sendable (Raw) -> Set<DocumentKey>?
    private let decode: @Sendable (Raw) throws -> Value
    private let continuation: Continuation

    private struct State {
        var schedule = FetchSchedule()
        var last: Raw?
        var keys: Set<DocumentKey>?
    }

    private let state = Mutex(State())

    init(store: DocumentStore, region: ObservedRegion, continuation: Continuation,
         fetch: @escaping @Sendable () throws -> Raw,
         resultKeys: @escaping @Sendable (Raw) -> Set<DocumentKey>? = { _ in nil },
         decode: @escaping @Sendable (Raw) throws -> Value) {
        self.store = store
        self.region = region
        self.observedCollections = region.subqueryCollections.union([region.collection])
        self.continuation = continuation
        self.fetchRaw = fetch
        self.resultKeys = resultKeys
        self.decode = decode
    }

    /// Registers with the store, then fetches the first result.
    func start() {
        continuation.onTermination = { [weak self] _ in self?.finish(nil) }
        store.addObserver(self) { [self] error in
            if let error { finish(error) } else { scheduleFetch() }
        }
    }

    func storeDidCommit(_ committed: CommittedWrites) {
        guard committed.observedBy(self) else { return }
        let affected = state.withLock { state -> Bool in
            if state.schedule.isFinished { return false }
            // A fetch in flight may or may not see this commit: fetch again after it.
            if state.schedule.isFetching { return true }
            return region.isAffected(by: committed, resultKeys: state.keys)
        }
        if affected { scheduleFetch() }
    }

    func storeDidClose(_ error: any Error) {
        finish(error)
    }

    private func scheduleFetch() {
        let start = state.withLock { $0.schedule.request() }
        if start { store.executor.schedule { [self] in fetchUntilCurrent() } }
    }

    private func fetchUntilCurrent() {
        while true {
            state.withLock { $0.schedule.beginFetch() }
            do {
                store.liveFetchCount.add(1, ordering: .relaxed)
                let raw = try fetchRaw()
                let keys = resultKeys(raw)
                let isNew = state.withLock { state -> Bool in
                    if state.last == raw { return false }
                    state.last = raw
                    state.keys = keys
                    return true
                }
                if isNew {
                    let value = try decode(raw)
                    // Counted first: a consumer may run as soon as it is yielded.
                    store.liveYieldCount.add(1, ordering: .relaxed)
                    continuation.yield(value)
                }
            } catch {
                finish(error)
                return
            }
            let again = state.withLock { $0.schedule.endFetch() }
            if !again { return }
        }
    }

    /// Ends the observation: the consumer stopped (nil), or a fetch failed.
    private func finish(_ error: (any Error)?) {
        let wasFinished = state.withLock { $0.schedule.finish() }
        guard !wasFinished else { return }
        store.removeObserver(self)
        continuation.finish(throwing: error)
    }
}

extension CommittedWrites {
    /// Whether the commit may concern the observer (a commit that may have changed
    /// anything concerns every one).
    func observedBy(_ observer: some StoreObserver) -> Bool {
        observer.observedCollections.contains { touches($0) }
    }
}
