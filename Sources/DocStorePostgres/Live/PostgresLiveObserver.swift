@_spi(Backends) import DocStore
import Synchronization

/// One live query on PostgreSQL: fetches its result once the store listens,
/// and again after each commit that wrote its collections (or, for one
/// document, its key), and passes it on when it changed.
///
/// - Fetches run one at a time per observer; commits that arrive while one runs
///   make one more fetch follow it (coalescing: a burst of commits costs two
///   fetches, and a slow consumer sees only the newest result).
/// - A fetch compares what it read (`Raw`: the stored JSON texts, a count…)
///   with the last result, and decodes and yields only a changed one: a commit
///   is never reported twice, and an unchanged result never.
final class PostgresLiveObserver<Raw: Equatable & Sendable, Value: Sendable>: PostgresStoreObserver {
    typealias Continuation = AsyncThrowingStream<Value, any Error>.Continuation

    private let hub: PostgresChangeHub
    /// The collections whose writes may change the result (the queried one and
    /// those its subqueries read).
    private let collections: Set<String>
    /// For one document's observation: its collection and key.
    private let document: (collection: String, key: DocumentKey)?
    private let fetchRaw: @Sendable () async throws -> Raw
    private let decode: @Sendable (Raw) throws -> Value
    private let continuation: Continuation

    private struct State {
        var schedule = FetchSchedule()
        var last: Raw?
    }

    private let state = Mutex(State())

    init(hub: PostgresChangeHub, collections: Set<String>, document: (collection: String, key: DocumentKey)? = nil,
         continuation: Continuation, fetch: @escaping @Sendable () async throws -> Raw,
         decode: @escaping @Sendable (Raw) throws -> Value) {
        self.hub = hub
        self.collections = collections
        self.document = document
        self.continuation = continuation
        fetchRaw = fetch
        self.decode = decode
    }

    /// Registers with the hub and fetches the first result once it listens.
    func start() {
        continuation.onTermination = { [weak self] _ in self?.finish(nil) }
        Task {
            do {
                try await hub.add(self)
                // Ended while the hub started listening: it registered again.
                if state.withLock({ $0.schedule.isFinished }) { hub.remove(self) }
                scheduleFetch()
            } catch {
                finish(error)
            }
        }
    }

    func storeDidCommit(_ commit: PostgresCommit) {
        let affected = if let document { commit.touches(document.collection, key: document.key) }
                       else { collections.contains { commit.touches($0) } }
        if affected { scheduleFetch() }
    }

    func storeDidClose() {
        finish(PostgresStoreError.closed)
    }

    private func scheduleFetch() {
        let start = state.withLock { $0.schedule.request() }
        if start { Task { await fetchUntilCurrent() } }
    }

    private func fetchUntilCurrent() async {
        while true {
            state.withLock { $0.schedule.beginFetch() }
            do {
                hub.fetches.add(1, ordering: .relaxed)
                let raw = try await fetchRaw()
                let isNew = state.withLock { state -> Bool in
                    if state.schedule.isFinished || state.last == raw { return false }
                    state.last = raw
                    return true
                }
                if isNew { continuation.yield(try decode(raw)) }
            } catch {
                finish(error)
                return
            }
            let again = state.withLock { $0.schedule.endFetch() }
            if !again { return }
        }
    }

    /// Ends the observation: the consumer stopped (nil), a fetch failed, or the store closed.
    private func finish(_ error: (any Error)?) {
        let wasFinished = state.withLock { $0.schedule.finish() }
        guard !wasFinished else { return }
        hub.remove(self)
        continuation.finish(throwing: error)
    }
}
