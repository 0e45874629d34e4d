import Foundation

/// A `docstore` session fed through a pipe a few lines at a time, while the
/// test changes the store under it between them; ended (SIGKILL) with the
/// test if still running.
final class PipedSession {
    private let process = Process()
    private let input = Pipe(), output = Pipe(), errors = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = try docstoreBinary()
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Ends the session with SIGKILL, as a crash or the OOM killer would: no
    /// clean-up of its own runs.
    func killNow() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// What the session has printed to stderr so far, after it ended.
    func errorsAfterExit() -> String {
        String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Sends lines to the session.
    func send(_ text: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// What the session has printed to stdout since last read, waiting for some.
    func availableOutput() -> String {
        String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    }

    /// Waits up to `seconds` for the session to end by itself (its input left
    /// open): its status and the rest of its output, or nil when it was still
    /// running (it is killed then).
    func ended(within seconds: Double) -> ProcessOutput? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return ProcessOutput(status: process.terminationStatus,
                             stdout: String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                             stderr: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// Ends the input and waits for the session: its status and the rest of its output.
    func finish() throws -> ProcessOutput {
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        return ProcessOutput(status: process.terminationStatus,
                             stdout: String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                             stderr: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }
}
