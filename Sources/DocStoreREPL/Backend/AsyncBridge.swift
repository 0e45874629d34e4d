import Dispatch
import Synchronization

/// Runs async work from the REPL's synchronous code and waits for its result.
///
/// The REPL reads lines and prints results on one thread of its own (the
/// process's main thread), never on Swift's cooperative pool: the work runs as
/// a task on the pool, and the REPL's thread waits on a semaphore, so the pool
/// is never blocked from within itself. Calling this from a task would block a
/// pool thread, and with every pool thread blocked the work could never run.
enum AsyncBridge {
    /// The result of `work`, waiting for it; ctrl-C (`interruption`) cancels
    /// the task, which then ends with its cancellation error.
    ///
    /// - Parameter stuck: Asked now and then while `work` runs long (see
    ///   ``ServerWatch``): an error it returns cancels `work` and is thrown
    ///   in place of the cancellation's.
    static func wait<Value: Sendable>(
        interruption: Interruption? = nil, stuck: Check? = nil, _ work: @escaping @Sendable () async throws -> Value
    ) throws -> Value {
        let done = DispatchSemaphore(value: 0)
        let outcome = ResultBox<Value>()
        let task = Task {
            do { outcome.set(.success(try await work())) } catch { outcome.set(.failure(error)) }
            done.signal()
        }
        let watch = stuck.map { CheckRun($0, task: task) }
        defer { watch?.end() }
        // Wakes up now and then to see ctrl-C: a long statement is cancelled.
        var leaving = Leaving()
        while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if leaving.isDue(interruption: interruption, watch: watch, task: task) { throw watch?.reason ?? leftRunning }
        }
        guard let result = outcome.get() else {
            throw CommandError("internal error: an async call ended without a result")
        }
        if case .failure = result, let reason = watch?.reason { throw reason }
        return try result.get()
    }
}

/// A transaction held open across many calls from the REPL's thread: an
/// import's batches, a copy's pages. The transaction runs as one task, which
/// takes the calls posted to it one at a time, on its connection; it commits
/// when ``commit()`` is called and rolls back when ``rollBack()`` is (or when
/// a call's failure spoiled it).
///
///     let held = HeldTransaction(begin: { body in try await store.transaction { try await body($0) } })
///     try held.run { transaction in try await transaction.collection(named: "people").insert(document) }
///     try held.commit()
final class HeldTransaction<Transaction: Sendable>: Sendable {
    typealias Job = @Sendable (Transaction?) async -> Void

    private let mailbox = Mailbox()
    private let finished = DispatchSemaphore(value: 0)
    private let outcome = Mutex<Result<Void, any Error>?>(nil)
    private let commits = Atomic<Bool>(false)
    /// The call ``submit(_:)`` posted and no one has waited for yet.
    private let submitted = Mutex<(done: DispatchSemaphore, result: ResultBox<Void>)?>(nil)
    /// A submitted call's failure: the transaction never commits after one.
    private let submitFailure = Mutex<(any Error)?>(nil)
    /// The transaction's task.
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// Asked while a call waits long (``AsyncBridge/waitOut(_:task:stuck:)``):
    /// a call waiting for a server that doesn't answer is left, where the
    /// roll back of a stream's snapshot waited forever (helper-58).
    private let stuck: AsyncBridge.Check?

    /// Starts the transaction: `begin` runs its body inside a transaction, which
    /// commits when the body returns and rolls back when it throws.
    init(stuck: AsyncBridge.Check? = ServerWatch.check,
         begin: @escaping @Sendable (_ body: @Sendable (Transaction) async throws -> Void) async throws -> Void) {
        self.stuck = stuck
        // The task keeps the transaction alive until it ends (commit or roll back).
        let running = Task { [self] in
            let result: Result<Void, any Error>
            do {
                try await begin { transaction in
                    while let job = await self.mailbox.next() { await job(transaction) }
                    if !self.commits.load(ordering: .acquiring) { throw RolledBack() }
                }
                result = .success(())
            } catch is RolledBack {
                result = .success(())
            } catch {
                result = .failure(error)
            }
            // Calls posted after the end (the transaction failed to begin) fail.
            for job in mailbox.close() { await job(nil) }
            outcome.withLock { $0 = result }
            finished.signal()
        }
        task.withLock { $0 = running }
    }

    /// Waits for a call's (or the transaction's) end signal; see ``stuck``.
    private func waitFor(_ signal: DispatchSemaphore) throws {
        guard let running = task.withLock({ $0 }) else { return signal.wait() }
        try AsyncBridge.waitOut(signal, task: running, stuck: stuck)
    }

    /// Runs `work` in the transaction and waits for its result (and first for
    /// a submitted call's, whose failure it throws).
    func run<Value: Sendable>(_ work: @escaping @Sendable (Transaction) async throws -> Value) throws -> Value {
        try settle()
        let (done, result) = post(work)
        try waitFor(done)
        guard let value = result.get() else { throw CommandError("internal error: a transaction call ended without a result") }
        return try value.get()
    }

    /// Posts `work` and returns without waiting for it to run, once the call
    /// submitted before it has ended: the caller prepares its next call while
    /// this one runs (a copy reads its next page from the source while the
    /// server stores the last). At most one call is in flight, so memory stays
    /// bounded. Its failure is thrown by the next `submit`, `run` or `commit`,
    /// and the transaction then never commits.
    func submit(_ work: @escaping @Sendable (Transaction) async throws -> Void) throws {
        try settle()
        let call = post(work)
        submitted.withLock { $0 = call }
    }

    /// Posts `work` to the transaction's task: `done` is signalled once
    /// `result` holds its outcome.
    private func post<Value: Sendable>(
        _ work: @escaping @Sendable (Transaction) async throws -> Value
    ) -> (done: DispatchSemaphore, result: ResultBox<Value>) {
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<Value>()
        mailbox.post { transaction in
            if let transaction {
                do { result.set(.success(try await work(transaction))) } catch { result.set(.failure(error)) }
            } else {
                result.set(.failure(CommandError("the transaction had already ended")))
            }
            done.signal()
        }
        return (done, result)
    }

    /// Waits for the submitted call, if any; throws its failure (and any
    /// earlier one again).
    private func settle() throws {
        if let failure = submitFailure.withLock({ $0 }) { throw failure }
        guard let call = submitted.withLock({ pending in defer { pending = nil }; return pending }) else { return }
        try waitFor(call.done)
        do {
            try call.result.get()?.get()
        } catch {
            submitFailure.withLock { $0 = error }
            throw error
        }
    }

    /// Commits what the calls wrote; throws when the commit (or the
    /// transaction's start, or a submitted call) failed, in which case nothing
    /// was written (the caller then rolls back).
    func commit() throws {
        try settle()
        commits.store(true, ordering: .releasing)
        try end()
    }

    /// Rolls back everything the calls wrote.
    func rollBack() {
        _ = try? end()
    }

    /// Ends the transaction, once: a second call (a roll back after a commit
    /// the server refused) returns the first's outcome. It waited for the
    /// task's end signal again, which came only once: an import whose commit a
    /// deferred constraint refused never returned, ctrl-C included (helper-57).
    private func end() throws {
        if let ended = outcome.withLock({ $0 }) { return try ended.get() }
        mailbox.finish()
        try waitFor(finished)
        finished.signal()  // for a call from another thread racing this one
        try outcome.withLock { $0 }?.get()
    }

    private struct RolledBack: Error {}

    /// Calls posted by the REPL's thread, taken by the transaction's task.
    private final class Mailbox: Sendable {
        private struct State {
            var jobs: [Job] = []
            var waiting: CheckedContinuation<Job?, Never>?
            var finished = false
            var closed = false
        }
        private let state = Mutex(State())

        /// Where a posted call went.
        private enum Taken {
            case now(CheckedContinuation<Job?, Never>), queued, closed
        }

        func post(_ job: @escaping Job) {
            let taken: Taken = state.withLock { state in
                if state.closed { return .closed }
                if let waiting = state.waiting {
                    state.waiting = nil
                    return .now(waiting)
                }
                state.jobs.append(job)
                return .queued
            }
            switch taken {
            case .now(let waiting): waiting.resume(returning: job)
            case .queued: break
            case .closed: Task { await job(nil) }  // the transaction is over: the call fails
            }
        }

        /// The next call, or nil once ``finish()`` was called and none is left.
        func next() async -> Job? {
            await withCheckedContinuation { continuation in
                let job: Job?? = state.withLock { state in
                    if !state.jobs.isEmpty { return .some(state.jobs.removeFirst()) }
                    if state.finished { return .some(nil) }
                    state.waiting = continuation
                    return nil
                }
                if let job { continuation.resume(returning: job) }
            }
        }

        /// No more calls: `next` returns nil when the queue is empty.
        func finish() {
            let waiting = state.withLock { state in
                state.finished = true
                defer { state.waiting = nil }
                return state.waiting
            }
            waiting?.resume(returning: nil)
        }

        /// Stops taking calls; returns those still queued.
        func close() -> [Job] {
            state.withLock { state in
                state.closed = true
                defer { state.jobs.removeAll() }
                return state.jobs
            }
        }
    }
}

/// The result of async work, handed from its task to the thread waiting for it.
final class ResultBox<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, any Error>?>(nil)

    func set(_ value: Result<Value, any Error>) {
        result.withLock { $0 = value }
    }

    func get() -> Result<Value, any Error>? {
        result.withLock { $0 }
    }
}
