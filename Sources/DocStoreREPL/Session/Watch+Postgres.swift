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
        let checking = Self.checkServerWhileWatching(signal)
        defer { checking.cancel() }

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
            for notice in signal.takeNotices() { writeWatchLine(notice, status: status) }
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

extension REPLSession {
    /// While a watch waits, asks the server every ``ServerWatch/interval``
    /// whether it answers, and tells the watch when that changes. The store's
    /// listening connection comes back by itself when the server does (and
    /// the query runs again then), but meanwhile the watch was silent: a
    /// stopped server left the last result on screen as if it were live.
    static func checkServerWhileWatching(_ signal: WatchSignal) -> Task<Void, Never> {
        Task {
            var wasDown = false
            while !Task.isCancelled {
                try? await Task.sleep(for: ServerWatch.interval)
                if Task.isCancelled { break }
                let reason = await ServerWatch.unreachableServer()
                if let reason, !wasDown {
                    signal.notify("the server doesn't answer (\(reason.localizedDescription)); "
                        + "the result above may be out of date; still watching, ctrl-C stops")
                } else if reason == nil, wasDown {
                    signal.notify("the server answers again")
                }
                wasDown = reason != nil
            }
        }
    }
}

/// Tells the session's thread that a watched collection changed (any number of
/// commits since it last looked count as one: the command runs once for them).
final class WatchSignal: Sendable {
    private struct State {
        var changed = false
        var error: (any Error)?
        /// Lines for the watch's status (the server stopped answering, or answers again).
        var notices: [String] = []
    }

    private let state = Mutex(State())
    private let semaphore = DispatchSemaphore(value: 0)

    func post() {
        state.withLock { $0.changed = true }
        semaphore.signal()
    }

    /// Something the watch's status line should say.
    func notify(_ text: String) {
        state.withLock { $0.notices.append(text) }
        semaphore.signal()
    }

    /// The lines ``notify(_:)`` was given since the last call.
    func takeNotices() -> [String] {
        state.withLock { state in
            defer { state.notices = [] }
            return state.notices
        }
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
