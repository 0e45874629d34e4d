import GRDB

extension DocumentStore {
    /// How often live queries and change streams look for commits made by other
    /// processes (or another `DocumentStore` on the same file); `nil`, the default,
    /// never looks.
    ///
    /// SQLite can't notify across processes, so DocStore polls: each tick asks
    /// SQLite whether anyone else committed (`PRAGMA data_version`, a few
    /// microseconds), and when someone did, every live query fetches again and
    /// yields only a result that changed. Commits made through this store are seen
    /// at once, without polling.
    ///
    ///     store.otherProcessPollingInterval = .milliseconds(100)
    ///
    /// Change streams (``DocumentCollection/changes(includingDocuments:)``) can't
    /// list another process's keys: they report such a commit as a change set whose
    /// ``CollectionChanges/isComplete`` is false.
    public var otherProcessPollingInterval: Duration? {
        get { otherProcessMonitor.interval }
        set {
            otherProcessMonitor.setInterval(
                newValue,
                poll: { [weak self] in try? self?.changesByOthers() },
                onChange: { [weak self] in self?.changeTracker.publishExternalChange() })
        }
    }

    /// Registers an observer on the writer's queue (so no transaction is half
    /// recorded for it), off the caller's thread, then calls `then`.
    func addObserver(_ observer: some StoreObserver, then: @escaping @Sendable ((any Error)?) -> Void) {
        executor.scheduleWrite { [self] in
            do {
                try access(collection: nil) {
                    writer.unsafeReentrantWrite { db in changeTracker.add(observer, in: db) }
                }
                then(nil)
            } catch {
                then(error)
            }
        }
    }

    func removeObserver(_ observer: some StoreObserver) {
        changeTracker.remove(observer)
    }

    /// How many fetches live queries have run: tests and benchmarks check that
    /// unrelated commits cost none.
    package var liveQueryFetches: Int { liveFetchCount.load(ordering: .relaxed) }

    /// How many results live queries have yielded.
    package var liveQueryYields: Int { liveYieldCount.load(ordering: .relaxed) }

    /// How many change sets change streams have yielded.
    package var changeSetsYielded: Int { changeSetCount.load(ordering: .relaxed) }

    /// Waits until every commit made so far has reached the observers and the
    /// fetches it caused have run: for tests and benchmarks that count fetches.
    package func waitForObservers() {
        changeTracker.waitUntilDelivered()
        executor.waitForScheduledReads()
    }
}
