import Foundation
import GRDBSQLite
import Synchronization

/// Connects the cancellation of an awaiting Task to the SQLite connection running
/// its work: cancelling interrupts the statement in progress (`sqlite3_interrupt`),
/// and work not begun yet doesn't begin.
final class CancellationToken: Sendable {
    private struct State: ~Copyable {
        var isCancelled = false
        /// The connection the work runs on right now (its address: a pointer isn't
        /// Sendable), and how deeply.
        var connection: Int?
        var depth = 0
    }

    private let state = Mutex(State())

    /// Cancels: interrupts the attached connection's statement, if any.
    func cancel() {
        state.withLock { state in
            state.isCancelled = true
            // Only while attached: the connection runs this work and nothing else.
            if let address = state.connection, let connection = OpaquePointer(bitPattern: address) {
                sqlite3_interrupt(connection)
            }
        }
    }

    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Runs `body` with the token attached to `connection`, so that a cancellation
    /// interrupts it. Throws `CancellationError` without running it when cancelled.
    func attached<R>(to connection: OpaquePointer?, _ body: () throws -> R) throws -> R {
        let address = connection.map { Int(bitPattern: $0) }
        try state.withLock { state in
            if state.isCancelled { throw CancellationError() }
            state.connection = address
            state.depth += 1
        }
        defer {
            state.withLock { state in
                state.depth -= 1
                if state.depth == 0 { state.connection = nil }
            }
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
    static func with<R>(_ token: CancellationToken, _ body: () throws -> R) rethrows -> R {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(token).toOpaque())
        defer { pthread_setspecific(key, previous) }
        return try body()
    }
}
