import NIOCore
import PostgresNIO
import Synchronization

/// Ends a `COPY` when its connection closes. postgres-nio 1.33's `copyFrom`
/// may never return when the connection dies in the middle of one (the server
/// stopped, or the backend was ended: it drops its continuation), which left an
/// `.import` or a `docstore copy` waiting forever.
enum CopyGuard {
    /// Writes a `COPY`'s rows, and never returns once the connection is gone:
    /// postgres-nio 1.33 traps (a precondition fails) when a write or the end
    /// of a `COPY` it then sends (`CopyDone`, or `CopyFail` after an error)
    /// meets a closed connection. Parked, the task ends nothing, and
    /// ``unlessClosed(_:collection:_:)`` reports the closed connection. That
    /// runs the `COPY` on the connection's event loop, so the look at the
    /// connection and postgres-nio's next step happen in one turn of the loop,
    /// and the connection can't close between them. An error about the rows
    /// themselves (a taken key, bad text), on a connection that stays open, is
    /// thrown as usual.
    static func write(_ buffer: ByteBuffer, with writer: PostgresCopyFromWriter, on connection: PostgresConnection) async throws {
        if connection.isClosed { await park() }
        do {
            try await writer.write(buffer)
        } catch let error as PSQLError where error.code == .server && !endsConnection(error) {
            throw error
        } catch {
            await park()
        }
        if connection.isClosed { await park() }
    }

    /// Whether the server's error ends the connection: SQLSTATE class 57
    /// (operator intervention: the backend terminated, the server shutting
    /// down) or 08 (connection exception).
    private static func endsConnection(_ error: PSQLError) -> Bool {
        let state = error.serverInfo?[.sqlState] ?? ""
        return state.hasPrefix("57") || state.hasPrefix("08")
    }

    /// Suspends the task for good (a stuck operation, left behind).
    private static func park() async -> Never {
        while true { try? await Task.sleep(for: .seconds(3600)) }
    }

    /// How often a running `COPY`'s connection is looked at.
    static let pollInterval = Duration.milliseconds(100)

    /// Runs `operation` in a task of its own, on the connection's event loop,
    /// and returns when it does, or throws
    /// as soon as `connection` is seen closed (leaving a stuck operation behind)
    /// or the caller is cancelled. The connection is polled rather than watched
    /// through its close future, whose callbacks could not be removed and would
    /// pile up over a pooled connection's thousands of `COPY`s.
    static func unlessClosed(_ connection: PostgresConnection, collection: String,
                             _ operation: @escaping @Sendable () async throws -> Void) async throws {
        let outcome = Outcome()
        let work = Task(executorPreference: EventLoopTaskExecutor(connection.eventLoop)) {
            do {
                try await operation()
                outcome.resume(with: .success(()))
            } catch {
                outcome.resume(with: .failure(error))
            }
        }
        let watch = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: pollInterval)
                if connection.isClosed {
                    outcome.resume(with: .failure(PostgresStoreError.connectionClosed(collection: collection)))
                    return
                }
            }
        }
        defer { watch.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                outcome.wait(continuation)
            }
        } onCancel: {
            work.cancel()
        }
    }

    /// Runs a task's jobs on an event loop. postgres-nio does a step of a `COPY`
    /// at once when called on the connection's event loop, and otherwise
    /// schedules it there, leaving time for the connection to close first
    /// (seen as a trap in 1 of 24 imports whose backend was ended, on a loaded
    /// machine).
    private final class EventLoopTaskExecutor: TaskExecutor {
        let eventLoop: any EventLoop

        init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            eventLoop.execute { job.runSynchronously(on: executor) }
        }
    }

    /// The first result of the operation or of the watch, handed to the waiting
    /// continuation once, whichever comes first.
    private final class Outcome: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Void, any Error>?
            var result: Result<Void, any Error>?
            var resumed = false
        }
        private let state = Mutex(State())

        func wait(_ continuation: CheckedContinuation<Void, any Error>) {
            let ready: Result<Void, any Error>? = state.withLock { state in
                guard let result = state.result, !state.resumed else {
                    state.continuation = continuation
                    return nil
                }
                state.resumed = true
                return result
            }
            if let ready { continuation.resume(with: ready) }
        }

        func resume(with result: Result<Void, any Error>) {
            let waiting: CheckedContinuation<Void, any Error>? = state.withLock { state in
                guard state.result == nil else { return nil }
                state.result = result
                guard let continuation = state.continuation, !state.resumed else { return nil }
                state.resumed = true
                return continuation
            }
            waiting?.resume(with: result)
        }
    }
}
