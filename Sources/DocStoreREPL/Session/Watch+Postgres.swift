@_spi(Backends) import DocStore
import DocStorePostgres
import Foundation
import Synchronization

extension REPLSession {
    /// `.watch` on PostgreSQL: the server notifies every commit (this
    /// session's, another process's) to the collections the query reads
    /// (``DocStorePostgres/PostgresCollection/changes()``, `LISTEN`/`NOTIFY`,
    /// no polling); after each, the command runs again on this thread, exactly
    /// as at the prompt, and its result is printed when it changed.
    ///
    /// - Parameter read: The collections the query reads (its own and its subqueries').
    func watch(_ command: REPLCommand, reading read: [String], on backend: PostgresBackend) -> FeedResult {
        let store = backend.store
        let signal = WatchSignal()
        // Listening starts before the first run: no commit falls in between.
        let listening: Task<Void, Never>
        do {
            let streams = try PostgresBackend.wait {
                var streams: [AsyncThrowingStream<CollectionChanges<JSONValue>, any Error>] = []
                for name in read { streams.append(try await store.collection(named: name).changes()) }
                return streams
            }
            listening = Task {
                await withTaskGroup(of: Void.self) { group in
                    for stream in streams {
                        group.addTask {
                            do {
                                for try await _ in stream { signal.post() }
                            } catch {
                                signal.fail(error)
                            }
                        }
                    }
                }
            }
        } catch {
            report("error: \(error) (can't watch)")
            return .failed
        }
        defer { listening.cancel() }

        // The ctrl-C flag is not reset: see the file store's watch.
        let status = options.interactive ? output : errors
        status.write(style(for: status).apply(.dim, "watching: printed again after each change "
            + "(other processes' too: PostgreSQL notifies them); ctrl-C stops") + "\n")
        let outcome = runner.withDisplayLimit(watchedRowLimit) { runUntilStopped(command, reading: read, signal: signal, status: status) }
        runner.interruption.reset()
        return outcome
    }

    /// Runs the command, then again after each change `signal` tells of,
    /// printing each result that differs from the last, until ctrl-C, an
    /// error or a drop of a collection the query reads.
    private func runUntilStopped(_ command: REPLCommand, reading read: [String], signal: WatchSignal, status: TextOutput) -> FeedResult {
        var last: CommandResult?
        var runsAgain = true
        var outcome = FeedResult.done
        while true {
            if runner.interruption.isRequested {
                status.write((options.interactive ? "\n" : "") + "stopped watching\n")
                break
            }
            if runsAgain, last != nil, watchedCollectionWasDropped(read) {
                outcome = .failed
                break
            }
            if runsAgain {
                do {
                    let result = try runner.run(command)
                    if result != last { print(result, status: status) }
                    last = result
                } catch {
                    if runner.interruption.isRequested {
                        status.write((options.interactive ? "\n" : "") + "stopped watching\n")
                    } else {
                        report("error: \(error) (stopped watching)")
                        outcome = .failed
                    }
                    break
                }
            }
            if runner.interruption.isRequested { continue }
            let (changed, error) = signal.take(waitingUpTo: 50)
            if let error {
                report("error: \(error) (stopped watching)")
                outcome = .failed
                break
            }
            runsAgain = changed
        }
        return outcome
    }
}

/// Tells the session's thread that a watched collection changed (any number of
/// commits since it last looked count as one: the command runs once for them).
final class WatchSignal: Sendable {
    private struct State {
        var changed = false
        var error: (any Error)?
    }

    private let state = Mutex(State())
    private let semaphore = DispatchSemaphore(value: 0)

    func post() {
        state.withLock { $0.changed = true }
        semaphore.signal()
    }

    /// The observation failed and ended.
    func fail(_ error: any Error) {
        state.withLock { $0.error = error }
        semaphore.signal()
    }

    /// Whether anything changed since the last call, and the error that ended
    /// the observation; waits up to `milliseconds` for either.
    func take(waitingUpTo milliseconds: Int) -> (changed: Bool, error: (any Error)?) {
        _ = semaphore.wait(timeout: .now() + .milliseconds(milliseconds))
        return state.withLock { state in
            defer { state.changed = false }
            return (state.changed, state.error)
        }
    }
}
