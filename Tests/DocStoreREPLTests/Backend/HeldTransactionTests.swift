import Foundation
import Synchronization
import Testing
@testable import DocStoreREPL

/// The transaction a copy or an import holds open across calls: a call
/// submitted without waiting (a copy's page) that fails must stop everything
/// after it, and above all the commit.
@Suite("HeldTransaction: submitted calls")
struct HeldTransactionTests {
    struct Refused: Error {}

    /// A value shared with the transaction's task.
    final class Shared<Value: Sendable>: Sendable {
        private let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        func update(_ change: @Sendable (inout Value) -> Void) { value.withLock { change(&$0) } }
        var current: Value { value.withLock { $0 } }
    }

    /// Runs `body` on a thread of its own and returns its result, as the REPL
    /// calls a held transaction from its own thread: blocking a thread of
    /// Swift's pool (where a test runs) could leave none for the transaction's task.
    static func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// A transaction that records whether its body returned (committed).
    static func held(_ committed: Shared<Bool>) -> HeldTransaction<Int> {
        HeldTransaction<Int> { body in
            try await body(1)
            committed.update { $0 = true }
        }
    }

    /// Whether `call` threw `Refused`.
    static func refuses(_ call: () throws -> Void) -> Bool {
        do { try call() } catch is Refused { return true } catch { return false }
        return false
    }

    @Test func submittedCallsRunInOrderBeforeTheCommit() async throws {
        let committed = Shared(false)
        let log = Shared<[Int]>([])
        let (seenByRun, committedWithoutError) = await Self.onOwnThread { () -> ([Int]?, Bool) in
            let held = Self.held(committed)
            do {
                for page in 1...5 { try held.submit { _ in log.update { $0.append(page) } } }
                let seen = try held.run { _ in log.current }
                try held.submit { _ in log.update { $0.append(6) } }
                try held.commit()
                return (seen, true)
            } catch {
                held.rollBack()
                return (nil, false)
            }
        }
        #expect(seenByRun == [1, 2, 3, 4, 5], "a run waits for the calls submitted before it")
        #expect(committedWithoutError)
        #expect(log.current == [1, 2, 3, 4, 5, 6])
        #expect(committed.current)
    }

    @Test func aFailedSubmittedCallIsThrownByTheNextCallsAndNothingCommits() async throws {
        let committed = Shared(false)
        let refusals = await Self.onOwnThread { () -> [Bool] in
            let held = Self.held(committed)
            var refusals: [Bool] = []
            refusals.append(Self.refuses { try held.submit { _ in throw Refused() } } == false)
            refusals.append(Self.refuses { try held.submit { _ in } })
            refusals.append(Self.refuses { _ = try held.run { _ in 0 } })
            refusals.append(Self.refuses { try held.commit() })
            held.rollBack()
            return refusals
        }
        // Submitting doesn't wait, so it succeeds; every later call throws
        // the failure, the commit included.
        #expect(refusals == [true, true, true, true])
        #expect(!committed.current)
    }

    @Test func theLastSubmittedCallsFailureStopsTheCommit() async throws {
        let committed = Shared(false)
        let refused = await Self.onOwnThread { () -> Bool in
            let held = Self.held(committed)
            let refused = Self.refuses {
                try held.submit { _ in }
                try held.submit { _ in throw Refused() }
                try held.commit()
            }
            held.rollBack()
            return refused
        }
        #expect(refused)
        #expect(!committed.current)
    }
}
