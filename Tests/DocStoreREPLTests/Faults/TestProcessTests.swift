import Foundation
import Testing
@testable import DocStoreREPL

/// Every process a test starts ends with the test: `docstore` obeys SIGTERM and
/// SIGHUP even when its parent blocked them (test runners do), and a tmux
/// screen takes its server and program with it.
@Suite("Fault: processes end with their test", .serialized)
struct TestProcessTests {
    /// Runs `body` with SIGHUP and SIGTERM blocked on this thread, as a threaded
    /// parent's mask is inherited by the processes it starts.
    func withTerminationBlocked<R>(_ body: () throws -> R) rethrows -> R {
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGHUP)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    @Test(.timeLimit(.minutes(10)), arguments: [SIGTERM, SIGHUP])
    func theExecutableEndsOnASignalItsParentBlocked(signal: Int32) throws {
        let process = Process()
        process.executableURL = try docstoreBinary()
        let input = Pipe()
        process.standardInput = input  // kept open: docstore waits for a line
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try withTerminationBlocked { try process.run() }
        defer {
            endProcesses([process.processIdentifier], within: 0)
            try? input.fileHandleForWriting.close()
        }
        Thread.sleep(forTimeInterval: 0.3)  // past the launch, reading stdin
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!process.isRunning, "docstore ignored signal \(signal)")
    }

    @Test(.timeLimit(.minutes(10)))
    func aTmuxScreenEndsItsServerAndProgram() throws {
        let command = "env DOCSTORE_HISTORY= TERM=xterm-256color LANG=C.UTF-8 \(try docstoreBinary().path)"
        var processes: [Int32] = []
        var start = Date()
        try withTerminationBlocked {
            let screen = try TmuxScreen(command: command)
            try screen.waitFor("the prompt") { $0.contains("docstore>") }
            processes = screen.processes
            start = Date()
        }
        #expect(processes.count == 2)
        // Ended by `kill-server` itself, not by the last resort's SIGKILL.
        #expect(Date().timeIntervalSince(start) < 2.5, "tmux did not end within its kill-server")
        let deadline = Date().addingTimeInterval(1)
        while Date() < deadline, !processes.allSatisfy(processHasEnded) { Thread.sleep(forTimeInterval: 0.05) }
        #expect(processes.allSatisfy(processHasEnded), "still running: \(processes.filter { !processHasEnded($0) })")
    }
}
