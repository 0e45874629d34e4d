import Foundation
import GRDBSQLite
import Synchronization

/// Connects the cancellation of an awaiting Task to the SQLite connection running
/// its work: cancelling interrupts the statement in progress (`sqlite3_interrupt`),
/// and work not begun yet doesn't begin.
///
/// Package access: the REPL attaches one to each command, so that ctrl-C
/// interrupts a running query the same way.
package final class CancellationToken: Sendable {
    private struct State: ~Copyable {
        var isCancelled = false
        /// Whether the work began; before that, a cancellation ends the wait at once.
        var hasStarted = false
        /// Ends the caller's wait with `CancellationError` (set while it waits).
        var abandon: (@Sendable () -> Void)?
        /// The connection the work runs on right now (its address: a pointer isn't
        /// Sendable), and how deeply.
        var connection: Int?
        var depth = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Cancels: interrupts the attached connection's statement, if any, or ends
    /// the caller's wait at once when the work hasn't started (it then never will).
    package func cancel() {
        let abandon = state.withLock { state -> (@Sendable () -> Void)? in
            state.isCancelled = true
            // Only while attached: the connection runs this work and nothing else.
            if let address = state.connection, let connection = OpaquePointer(bitPattern: address) {
                sqlite3_interrupt(connection)
            }
            guard !state.hasStarted else { return nil }
            defer { state.abandon = nil }
            return state.abandon
        }
        abandon?()
    }

    /// Registers how to end the caller's wait if the work is cancelled before it
    /// starts; calls it now when it already was.
    func onCancelBeforeStart(_ abandon: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state -> Bool in
            if state.isCancelled { return !state.hasStarted }
            state.abandon = abandon
            return false
        }
        if cancelled { abandon() }
    }

    /// Marks the work as started; false when it was cancelled before (the caller
    /// has been told), and it must not run.
    func start() -> Bool {
        state.withLock { state in
            if state.isCancelled { return false }
            state.hasStarted = true
            state.abandon = nil
            return true
        }
    }

    package var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Runs `body` with the token attached to `connection`, so that a cancellation
    /// interrupts it. Throws `CancellationError` without running it when cancelled.
    ///
    /// `sqlite3_interrupt` only reaches statements running when it is called; a
    /// cancellation between two statements of `body` would be lost. So while
    /// attached, a progress handler also asks the token every thousand virtual
    /// machine steps, and stops the statement once it is cancelled.
    func attached<R>(to connection: OpaquePointer?, _ body: () throws -> R) throws -> R {
        let address = connection.map { Int(bitPattern: $0) }
        let isOutermost = try state.withLock { state in
            if state.isCancelled { throw CancellationError() }
            state.connection = address
            state.depth += 1
            return state.depth == 1
        }
        if isOutermost, let connection {
            sqlite3_progress_handler(connection, 1000, { context in
                guard let context else { return 0 }
                return Unmanaged<CancellationToken>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
            }, Unmanaged.passUnretained(self).toOpaque())
        }
        defer {
            state.withLock { state in
                state.depth -= 1
                if state.depth == 0 { state.connection = nil }
            }
            if isOutermost, let connection { sqlite3_progress_handler(connection, 0, nil, nil) }
        }
        return try body()
    }

    // MARK: The current thread's token

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The token of the async call whose work runs on this thread, if any.
    static var current: CancellationToken? {
        pthread_getspecific(key).map { Unmanaged<CancellationToken>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Runs `body` with `token` as the current thread's token.
    package static func with<R>(_ token: CancellationToken, _ body: () throws -> R) rethrows -> R {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(token).toOpaque())
        defer { pthread_setspecific(key, previous) }
        return try body()
    }
}
