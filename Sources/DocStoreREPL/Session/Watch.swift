@_spi(Backends) import DocStore
import Foundation
import Synchronization

/// `.watch QUERY`, as psql's `\watch`: the query's result at once, then again
/// after each commit that changed it (from this process or another), until ctrl-C.
///
/// The query runs the way it would at the prompt (``CommandRunner``, the one
/// pipeline), inside the store's observation of the collection
/// (``DocumentCollection/observe(_:_:)``): it runs again only after a commit that
/// wrote a document the query selects before or after, and a result equal to the
/// last is not printed again. On a DocStore file, other processes' commits are
/// found by polling while the watch lasts; on PostgreSQL, the server notifies
/// them (Watch+Postgres.swift).
extension REPLSession {
    /// How often a watch asks SQLite whether another process committed.
    static let watchPollingInterval: Duration = .milliseconds(200)

    /// Watches `command` (a read, as the parser guarantees) until ctrl-C.
    func watch(_ command: REPLCommand) -> FeedResult {
        if commandsFollow {
            report("error: .watch runs until ctrl-C, so the -c commands after it would never run; make it the last -c")
            return .failed
        }
        if readsScript {
            report("error: .watch runs until ctrl-C, so the rest of a script would never run; "
                + "use it at the prompt, or stream a query's changes with: docstore STORE -c '.watch QUERY'")
            return .failed
        }
        guard let (collection, query) = Self.observedQuery(command) else {
            report("error: .watch takes a query, such as .watch players.filter { $0.teamId == 1 }.count()")
            return .failed
        }
        let read = PostgresCompiler.subqueryCollections(of: query.condition).union([collection]).sorted()
        if let postgres = backend as? PostgresBackend {
            return watch(command, reading: read, on: postgres)
        }
        guard let store else {
            report("error: .watch is not available on \(backend.kind.name)")
            return .failed
        }
        let previousInterval = store.otherProcessPollingInterval
        if previousInterval.map({ $0 > Self.watchPollingInterval }) ?? true {
            store.otherProcessPollingInterval = Self.watchPollingInterval
        }
        defer { store.otherProcessPollingInterval = previousInterval }

        // The observation decides when the query runs again; each run hands its
        // result to this thread (the session's), which prints it. No task is
        // involved: the observation runs on the store's queues, and this thread
        // may be one of the cooperative pool's (in tests), which must not wait
        // for the pool.
        let mailbox = WatchMailbox()
        let run = WatchedRun(store: store, command: command, displayLimit: watchedRowLimit, interruption: runner.interruption)
        let results = store.collection(named: collection).observe(query) { _, _ in
            do {
                let result = try run.result()
                mailbox.post(result)
                return result
            } catch {
                mailbox.fail(error)
                throw error
            }
        }
        // No reset of the ctrl-C flag here: one pressed while the command was
        // parsed (which may sample the store for seconds) stops the watch
        // before its first result, as it stops any other command.
        let status = options.interactive ? output : errors
        status.write(style(for: status).apply(.dim, "watching: printed again after each change "
            + "(other processes' within \(Self.format(Self.watchPollingInterval))); ctrl-C stops") + "\n")

        // Making the iterator starts the observation; dropping it ends it.
        var iterator = Optional(results.makeAsyncIterator())
        var outcome = FeedResult.done
        var movedCheckedAt = ContinuousClock.now
        while true {
            if runner.interruption.isRequested {
                status.write((options.interactive ? "\n" : "") + "stopped watching\n")
                break
            }
            // A store file replaced under the session gives no change to see:
            // the watch showed the old file's result as live (helper-58).
            if ContinuousClock.now - movedCheckedAt > .milliseconds(500) {
                movedCheckedAt = .now
                if let moved = storeFileMoved(.empty) {
                    report("error: \(moved) (stopped watching)")
                    outcome = .failed
                    break
                }
            }
            let (result, error) = mailbox.take(waitingUpTo: 50)
            // ctrl-C meanwhile: the run it interrupted failed for that alone.
            if runner.interruption.isRequested { continue }
            if result != nil, watchedCollectionWasDropped(read) {
                outcome = .failed
                break
            }
            if let result { print(result, status: status) }
            if let error {
                report("error: \(error) (stopped watching)")
                outcome = .failed
                break
            }
        }
        withExtendedLifetime(iterator) {}
        iterator = nil
        runner.interruption.reset()
        return outcome
    }

    /// Whether another session dropped the watched collection, said as an
    /// error when it did. The query would go on answering as for an empty
    /// collection (0, []), where the prompt says "no collection named": a
    /// watch stops, as psql's `\watch` does on a dropped table and a MongoDB
    /// change stream on a dropped collection.
    func watchedCollectionWasDropped(_ read: [String]) -> Bool {
        guard let collections = try? backend.collections().map(\.name),
              let dropped = read.first(where: { !collections.contains($0) }) else { return false }
        report("error: another session dropped \(DocumentKeyQuoting.quoted(dropped)) (stopped watching); "
            + "watch it again once it is made anew")
        return true
    }

    /// How many rows a watch shows: as many as a result at the prompt shows
    /// on this screen (`.maxrows`); it showed up to 100 whatever `.maxrows` said.
    var watchedRowLimit: Int? {
        options.interactive && output.isTerminal ? screenRowLimit : runner.displayLimit
    }

    /// One refresh: a header line where status goes, then the result as the query
    /// prints at the prompt.
    func print(_ result: CommandResult, status: TextOutput) {
        switch result {
        case .documents(let documents): writeWatchLine(CommandResult.plural(documents.count, "document"), status: status)
        case .firstDocuments(let documents): writeWatchLine("the first \(CommandResult.plural(documents.count, "document")); more match", status: status)
        case .rows(_, let rows): writeWatchLine(CommandResult.plural(rows.count, "row"), status: status)
        default: writeWatchLine(nil, status: status)
        }
        // A message ("no document with key 3") is not a result: with the
        // results on stdout it broke a reader of NDJSON.
        if case .message(let text) = result { return status.write(text + "\n") }
        if let text = format(result, width: output.terminalWidth) { output.write(text + "\n") }
    }

    /// A watch's `── 14:03:07 · detail` line, where status goes.
    func writeWatchLine(_ detail: String?, status: TextOutput) {
        let line = "── " + Self.timeFormatter.string(from: Date()) + (detail.map { " · " + $0 } ?? "")
        status.write(style(for: status).apply(.dim, line) + "\n")
    }

    /// The collection and query whose commits may change `command`'s result.
    static func observedQuery(_ command: REPLCommand) -> (collection: String, query: DocumentQuery)? {
        switch command {
        case .query(let collection, let query, let action) where !command.writes && action != .explain:
            return (collection, query)
        case .get(let collection, _):
            // A whole-collection observation: a get is re-run (cheaply) after any
            // write to the collection, and printed only when its document changed.
            return (collection, DocumentQuery())
        default:
            return nil
        }
    }

    private static let timeFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }()
}

/// Runs the watched command the way the prompt would: a runner of its own (the
/// observation calls it on the store's read queue), on the session's store,
/// display limit and ctrl-C flag.
struct WatchedRun: Sendable {
    let store: DocumentStore
    let command: REPLCommand
    let displayLimit: Int?
    let interruption: Interruption

    func result() throws -> CommandResult {
        let runner = CommandRunner(store: store, schema: StoreSchema(store: store))
        runner.displayLimit = displayLimit
        runner.interruption = interruption
        // ctrl-C interrupts the statement running now, as at the prompt: it
        // stopped the watch, but the query ran on (1.8 s of 2 million
        // documents; helper-55).
        return try interruption.interruptible { try runner.run(command) }
    }
}

/// Hands results from the observation's runs (on the store's queue) to the
/// session's thread, which waits with a timeout so it can notice ctrl-C. Only the
/// newest result is kept (a burst of commits prints once), and one equal to the
/// last handed over is dropped.
final class WatchMailbox: Sendable {
    private struct State {
        var newest: CommandResult?
        var last: CommandResult?
        var error: (any Error)?
    }

    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)

    func post(_ result: CommandResult) {
        let changed = state.withLock { state -> Bool in
            if state.last == result { return false }
            state.last = result
            state.newest = result
            return true
        }
        if changed { signal.signal() }
    }

    /// The observation failed and ended.
    func fail(_ error: any Error) {
        state.withLock { $0.error = error }
        signal.signal()
    }

    /// The newest result not yet taken, and the error that ended the
    /// observation, if any; waits up to `milliseconds` for either.
    func take(waitingUpTo milliseconds: Int) -> (result: CommandResult?, error: (any Error)?) {
        _ = signal.wait(timeout: .now() + .milliseconds(milliseconds))
        return state.withLock { state in
            defer { state.newest = nil }
            return (state.newest, state.error)
        }
    }
}
