import DocStorePostgres
import Synchronization

/// Tells a command that waits for a PostgreSQL server which went away why it
/// waits, within seconds.
///
/// postgres-nio's pool tries again and again to connect when it has no
/// connection left, for about a minute, before a waiting statement fails: a
/// command typed after the server stopped gave no prompt for 70 s (helper-56).
/// While a command runs longer than ``firstCheck``, every PostgreSQL store the
/// session has open is asked directly (``PostgresDocumentStore/checkServer(timeout:)``),
/// at most every ``interval``; when one can't be reached, the command is
/// cancelled and fails with that store's reason ("No such file or directory").
/// A command that runs long on a server that answers goes on untouched.
enum ServerWatch {
    /// How long a command runs before the servers are first asked.
    static let firstCheck: Duration = .seconds(2)
    /// How long between two checks while the command still runs.
    static let interval: Duration = .seconds(5)

    /// The check ``AsyncBridge/wait(interruption:stuck:_:)`` asks: at once
    /// while a server was last found unreachable, so the commands after the
    /// first fail without waiting too.
    static let check = AsyncBridge.Check(first: { lastFoundUnreachable() ? .zero : firstCheck }, interval: interval) {
        let reason = await unreachableServer()
        foundUnreachable.withLock { $0 = reason != nil }
        return reason
    }

    /// Whether the last check found a server unreachable.
    private static let foundUnreachable = Mutex(false)
    private static func lastFoundUnreachable() -> Bool { foundUnreachable.withLock { $0 } }

    /// The PostgreSQL stores open in this process (a session's, or a copy's
    /// source and destination).
    private static let open = Mutex<[ObjectIdentifier: PostgresDocumentStore]>([:])

    static func watch(_ store: PostgresDocumentStore) {
        open.withLock { $0[ObjectIdentifier(store)] = store }
    }

    static func unwatch(_ store: PostgresDocumentStore) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(store)) }
    }

    /// Why a store open in this process can't reach its server, or nil when
    /// they all can (or none is open). A server that refuses the connection
    /// with an error of its own answered: only an unreachable one counts, so
    /// a long statement is never cancelled because the server is busy.
    static func unreachableServer() async -> PostgresStoreError? {
        for store in open.withLock({ Array($0.values) }) {
            do {
                try await store.checkServer()
            } catch let error as PostgresStoreError {
                if case .unreachable = error { return error }
                if case let .server(sqlState, _, _, _, _) = error, sqlState?.hasPrefix("57P") == true { return error }  // shutting down
            } catch {
                continue
            }
        }
        return nil
    }
}
