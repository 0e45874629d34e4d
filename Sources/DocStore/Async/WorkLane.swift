import DequeModule
import Dispatch
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
/// Only short jobs belong here (a long one holds one of the `width` threads).
final class WorkLane: Sendable {
    /// What a job has left to do once the batch's jobs have run.
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
    }

    private let state = Mutex(State())
    private let queue: DispatchQueue
    private let width: Int
    private let batchScope: @Sendable (() -> Void) -> Void

    /// - Parameters:
    ///   - queue: a concurrent queue whose threads run the drains.
    ///   - width: the most threads running the lane's jobs at once.
    ///   - batchScope: runs each batch's jobs (not their completions), for what
    ///     they can share: point reads share a read transaction.
    init(queue: DispatchQueue, width: Int, batchScope: @escaping @Sendable (() -> Void) -> Void = { $0() }) {
        self.queue = queue
        self.width = max(1, width)
        self.batchScope = batchScope
    }

    /// Runs `job` on one of the lane's threads, after the jobs submitted before it,
    /// and then the completion it returns.
    func submit(_ job: @escaping Job) {
        let startsDrain = state.withLock { state -> Bool in
            state.jobs.append(job)
            guard state.running < width else { return false }
            state.running += 1
            return true
        }
        if startsDrain { queue.async { self.drain() } }
    }

    private func drain() {
        var completions: [Completion] = []
        completions.reserveCapacity(Self.batchSize)
        while let batch = nextBatch() {
            batchScope {
                for job in batch {
                    if let completion = job() { completions.append(completion) }
                }
            }
            for completion in completions { completion() }
            completions.removeAll(keepingCapacity: true)
        }
    }

    /// The next jobs, up to a batch, or nil after marking this drain finished when
    /// none is left (under the lock, so a job submitted meanwhile starts a drain).
    private func nextBatch() -> [Job]? {
        state.withLock { state in
            guard !state.jobs.isEmpty else {
                state.running -= 1
                return nil
            }
            let count = min(Self.batchSize, state.jobs.count)
            let batch = Array(state.jobs.prefix(count))
            state.jobs.removeFirst(count)
            return batch
        }
    }
}
