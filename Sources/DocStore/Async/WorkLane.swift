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
/// Only short jobs belong here (a long one holds one of the `width` threads).
final class WorkLane: Sendable {
    private struct State: ~Copyable {
        var jobs = Deque<@Sendable () -> Void>()
        /// How many drains are running or scheduled.
        var running = 0
    }

    private let state = Mutex(State())
    private let queue: DispatchQueue
    private let width: Int

    /// - Parameters:
    ///   - queue: a concurrent queue whose threads run the drains.
    ///   - width: the most threads running the lane's jobs at once.
    init(queue: DispatchQueue, width: Int) {
        self.queue = queue
        self.width = max(1, width)
    }

    /// Runs `job` on one of the lane's threads, after the jobs submitted before it.
    func submit(_ job: @escaping @Sendable () -> Void) {
        let startsDrain = state.withLock { state -> Bool in
            state.jobs.append(job)
            guard state.running < width else { return false }
            state.running += 1
            return true
        }
        if startsDrain { queue.async { self.drain() } }
    }

    private func drain() {
        while let job = nextJob() { job() }
    }

    /// The next job, or nil after marking this drain finished when none is left
    /// (under the lock, so a job submitted meanwhile starts a drain of its own).
    private func nextJob() -> (@Sendable () -> Void)? {
        state.withLock { state in
            if let job = state.jobs.popFirst() { return job }
            state.running -= 1
            return nil
        }
    }
}
