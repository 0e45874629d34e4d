import DequeModule
import Dispatch
import Foundation
import Synchronization

/// A queue of short jobs run by at most `width` threads of a dispatch queue, each
/// of which runs queued jobs back to back until none is left.
///
/// A point read costs a few microseconds; handing each to GCD on its own costs as
/// much again (a block, and often a thread woken for it), and a thousand tasks
/// awaiting `get` at once paid that a thousand times. Here, a job arriving while
/// the lane's threads are busy is only appended to a list: the threads already
/// running take it next, without any wake-up.
///
/// The other half of the hop is the way back: resuming a task wakes a thread of
/// the cooperative pool, which runs the task for a microsecond and sleeps again. So
/// a job returns its completion (the resumption) instead of running it, and a drain
/// runs a batch of jobs before their completions: one wake-up then finds a batch
/// of tasks to run. A job alone is a batch of one, its latency unchanged.
///
/// The lane also keeps pace with the pool. Each resumed task says when it runs
/// (``completionRan()``), and no batch starts while ``pendingLimit`` completions
/// wait for the pool: the lane's threads then stop and leave the cores to the
/// pool's. Without this, on a machine with as many lane threads as cores, the
/// lane ran ahead of a pool it shared the cores with, a thousand resumed tasks
/// queued on the pool, and any other task (a UI's ticker) waited behind all of
/// them: a 1 ms ticker kept 75–85% of its ticks, against 100% for the same tasks
/// awaiting nothing. With the limit it keeps 96–98%, at the same throughput
/// (`docstore-bench --live-only`, L3a and L3n, 2 cores). A smaller limit stops
/// the lane too often: 64 in all cost a fifth of the throughput. A pool that
/// doesn't catch up within ``patience`` gets a batch anyway.
///
/// Only short jobs belong here (a long one holds one of the `width` threads).
final class WorkLane: Sendable {
    /// What a job has left to do once the batch's jobs have run: resuming the
    /// task that submitted it, which then calls ``completionRan()``.
    typealias Completion = @Sendable () -> Void
    typealias Job = @Sendable () -> Completion?

    /// The most jobs run before their completions: enough to batch the wake-ups,
    /// few enough that the first job's task isn't kept waiting long (a point read
    /// takes a few microseconds).
    static let batchSize = 32

    private struct State: ~Copyable {
        var jobs = Deque<Job>()
        /// How many drains are running or scheduled.
        var running = 0
        /// Whether a drain that stopped for the pool has set a time to go on anyway.
        var patienceSet = false
    }

    private let state = Mutex(State())
    /// Completions run (tasks resumed) whose tasks haven't run yet. Kept out of
    /// the lock, which a task takes only when it brings the count below the
    /// limit (a drain may have stopped for it).
    private let pending = Atomic(0)
    private let queue: DispatchQueue
    private let width: Int
    /// The most completions waiting for the pool before the lane stops.
    let pendingLimit: Int
    /// How long the lane waits for the pool before it runs a batch anyway: the
    /// tasks it resumes may be on other executors (the main actor), and a pool
    /// blocked by its callers must not hold their reads for good.
    let patience: DispatchTimeInterval
    /// The default ``pendingLimit``: 64 resumed tasks per core. Each runs on
    /// the pool for a few microseconds, so a task queued behind all of them
    /// waits a fraction of a millisecond.
    static var defaultPendingLimit: Int { 64 * ProcessInfo.processInfo.activeProcessorCount }
    private let batchScope: @Sendable (() -> Void) -> Void

    /// - Parameters:
    ///   - queue: a concurrent queue whose threads run the drains.
    ///   - width: the most threads running the lane's jobs at once.
    ///   - pendingLimit: see ``pendingLimit``.
    ///   - patience: see ``patience``.
    ///   - batchScope: runs each batch's jobs (not their completions), for what
    ///     they can share: point reads share a read transaction.
    init(queue: DispatchQueue, width: Int, pendingLimit: Int = WorkLane.defaultPendingLimit,
         patience: DispatchTimeInterval = .milliseconds(5),
         batchScope: @escaping @Sendable (() -> Void) -> Void = { $0() }) {
        self.queue = queue
        self.width = max(1, width)
        self.pendingLimit = max(1, pendingLimit)
        self.patience = patience
        self.batchScope = batchScope
    }

    /// Runs `job` on one of the lane's threads, after the jobs submitted before it,
    /// and then the completion it returns. The task the completion resumes must
    /// call ``completionRan()`` once it runs.
    func submit(_ job: @escaping Job) {
        let (startsDrain, setsPatience) = state.withLock { state -> (Bool, Bool) in
            state.jobs.append(job)
            if claimDrain(&state) { return (true, false) }
            // The pool is behind and no drain runs to notice it stop: the time
            // to go on anyway starts here.
            guard state.running == 0, !state.patienceSet else { return (false, false) }
            state.patienceSet = true
            return (false, true)
        }
        if startsDrain { queue.async { self.drain() } }
        if setsPatience { startPatience() }
    }

    /// Says that a task resumed by a completion runs: the pool has caught up
    /// by one, and a lane thread that stopped for it may start again.
    func completionRan() {
        // Only the task that crosses the limit looks for a stopped drain: a
        // drain stops under the lock after reading the count, so either it read
        // this decrement, or this task takes the lock after it stopped.
        guard pending.subtract(1, ordering: .sequentiallyConsistent).newValue == pendingLimit - 1 else { return }
        // Every drain that stopped may start again (as many as the jobs need).
        let drains = state.withLock { state -> Int in
            var drains = 0
            while drains * Self.batchSize < state.jobs.count, claimDrain(&state) { drains += 1 }
            return drains
        }
        for _ in 0..<drains { queue.async { self.drain() } }
    }

    /// Counts a new drain when one may start: fewer than `width` run, and the
    /// pool isn't behind.
    private func claimDrain(_ state: inout State) -> Bool {
        guard state.running < width, pending.load(ordering: .sequentiallyConsistent) < pendingLimit else { return false }
        state.running += 1
        return true
    }

    /// Runs batches until none is left or the pool is behind; with
    /// `ignoringPool`, the first batch runs even so.
    private func drain(ignoringPool: Bool = false) {
        var completions: [Completion] = []
        completions.reserveCapacity(Self.batchSize)
        var ignoringPool = ignoringPool
        while let batch = nextBatch(ignoringPool: ignoringPool) {
            ignoringPool = false
            batchScope {
                for job in batch {
                    if let completion = job() { completions.append(completion) }
                }
            }
            pending.add(completions.count, ordering: .sequentiallyConsistent)
            for completion in completions { completion() }
            completions.removeAll(keepingCapacity: true)
        }
    }

    /// The next jobs, up to a batch, or nil after marking this drain finished when
    /// none is left or the pool is behind (under the lock, so that a job
    /// submitted or a task run meanwhile starts a drain).
    private func nextBatch(ignoringPool: Bool) -> [Job]? {
        let (batch, setsPatience) = state.withLock { state -> ([Job]?, Bool) in
            guard !state.jobs.isEmpty else {
                state.running -= 1
                return (nil, false)
            }
            guard ignoringPool || pending.load(ordering: .sequentiallyConsistent) < pendingLimit else {
                state.running -= 1
                defer { state.patienceSet = true }
                return (nil, !state.patienceSet)
            }
            let count = min(Self.batchSize, state.jobs.count)
            let batch = Array(state.jobs.prefix(count))
            state.jobs.removeFirst(count)
            return (batch, false)
        }
        if setsPatience { startPatience() }
        return batch
    }

    /// Runs ``goOnAnyway()`` after ``patience`` (at most one is set at a time:
    /// `patienceSet`).
    private func startPatience() {
        queue.asyncAfter(deadline: .now() + patience) { self.goOnAnyway() }
    }

    /// After ``patience``: a batch runs even if the pool is still behind.
    private func goOnAnyway() {
        let starts = state.withLock { state -> Bool in
            state.patienceSet = false
            guard !state.jobs.isEmpty, state.running < width else { return false }
            state.running += 1
            return true
        }
        if starts { drain(ignoringPool: true) }
    }
}
