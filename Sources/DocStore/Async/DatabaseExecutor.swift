import Dispatch
import Foundation
import Synchronization

/// Runs the SQLite work of async calls on threads of the store's own, never on
/// Swift's cooperative pool: a blocking SQLite call there would hold one of its
/// few threads (one per core) and starve every other task.
///
/// Reads run on a concurrent queue, side by side as the store's read-only
/// connections allow; writes on a serial queue, in the order they were called,
/// as SQLite allows one writer at a time anyway.
final class DatabaseExecutor: Sendable {
    enum Work {
        /// A read of a few microseconds (a document by key): run through
        /// ``WorkLane`` rather than handed to GCD one by one, and not interrupted
        /// (see ``runPointRead(_:)``).
        case pointRead
        case read, write
    }

    private let reads = DispatchQueue(label: "DocStore.reads", qos: .userInitiated, attributes: .concurrent)
    private let writes = DispatchQueue(label: "DocStore.writes", qos: .userInitiated)
    /// Names the queue that runs the current thread's work, for tests: "reads",
    /// "writes", or nil elsewhere (a thread of the cooperative pool).
    private static let queueName = DispatchSpecificKey<String>()
    static var currentQueue: String? { DispatchQueue.getSpecific(key: queueName) }

    /// Point reads, run back to back by as many threads as there are cores.
    private let pointReads: WorkLane

    /// - Parameter pointReader: the store's, whose connections a batch of point
    ///   reads shares (nil for a store in memory).
    init(pointReader: PointReader?) {
        pointReads = WorkLane(queue: reads, width: ProcessInfo.processInfo.activeProcessorCount) { batch in
            if let pointReader { pointReader.inBatch(batch) } else { batch() }
        }
        reads.setSpecific(key: Self.queueName, value: "reads")
        writes.setSpecific(key: Self.queueName, value: "writes")
    }

    /// How many async calls have begun their work: tests wait on it to cancel
    /// work in progress rather than queued work.
    let startedCount = Atomic(0)

    /// Runs `body` off the cooperative pool and returns its result. Cancelling the
    /// awaiting task interrupts `body`'s statement in progress and throws
    /// `CancellationError`; a `body` that completed keeps its result (a write that
    /// committed stays committed). A point read isn't interrupted: it runs to its
    /// end (microseconds), and then throws `CancellationError`.
    func run<R>(_ work: Work, _ body: @escaping @Sendable () throws -> sending R) async throws -> sending R {
        try Task.checkCancellation()
        if work == .pointRead { return try await runPointRead(body) }
        let token = CancellationToken()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<R, any Error>) in
                // Work still queued (behind other work on these threads) when the
                // task is cancelled ends the wait at once and never runs.
                token.onCancelBeforeStart { continuation.resume(throwing: CancellationError()) }
                let queue = work == .write ? self.writes : self.reads
                queue.async {
                    guard token.start() else { return }
                    self.startedCount.add(1, ordering: .relaxed)
                    do {
                        let result = try CancellationToken.with(token) { try body() }
                        continuation.resume(returning: result)
                    } catch {
                        continuation.resume(throwing: token.isCancelled ? CancellationError() : error)
                    }
                }
            }
        } onCancel: {
            token.cancel()
        }
    }

    /// A point read: a few microseconds of work, too short to be worth
    /// interrupting, so it runs without a cancellation scope (each costs an
    /// allocation and a lock or two per call); a task cancelled meanwhile still
    /// gets `CancellationError`, once the read is done.
    private func runPointRead<R>(_ body: @escaping @Sendable () throws -> sending R) async throws -> sending R {
        // The continuation never throws: the read's error comes back in the
        // result, so that the task tells the lane it runs in every case.
        let outcome = await withUnsafeContinuation { (continuation: UnsafeContinuation<Unchecked<Result<R, any Error>>, Never>) in
            pointReads.submit { () -> WorkLane.Completion? in
                self.startedCount.add(1, ordering: .relaxed)
                let outcome = Unchecked(Result { try body() })
                return { continuation.resume(returning: outcome) }
            }
        }
        pointReads.completionRan()
        try Task.checkCancellation()
        return try outcome.value.get()
    }

    /// Runs `body` on the read queue without waiting for it (live queries' fetches).
    func schedule(_ body: @escaping @Sendable () -> Void) {
        reads.async(execute: body)
    }

    /// Runs `body` on the write queue without waiting for it.
    func scheduleWrite(_ body: @escaping @Sendable () -> Void) {
        writes.async(execute: body)
    }

    /// Returns once the reads scheduled so far have run.
    func waitForScheduledReads() {
        reads.sync(flags: .barrier) {}
    }
}
