import Foundation
import Synchronization
import Testing

/// The built `docstore` executable, beside the test bundle.
func docstoreBinary() throws -> URL {
    let testBinary = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    let candidate = testBinary.deletingLastPathComponent().appendingPathComponent("docstore")
    try #require(FileManager.default.isExecutableFile(atPath: candidate.path), "docstore not built at \(candidate.path)")
    return candidate
}

/// What a finished process printed and returned.
struct ProcessOutput {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `executable` with `arguments`, feeding `input` on stdin.
func runProcess(_ executable: URL, _ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> ProcessOutput {
    try runProcess(executable, arguments, inputBytes: input.map { Data($0.utf8) }, environment: environment)
}

/// Runs `executable` with `arguments`, feeding `inputBytes` (any bytes) on stdin.
func runProcess(_ executable: URL, _ arguments: [String], inputBytes input: Data?, environment: [String: String] = [:]) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    if let input { stdin.fileHandleForWriting.write(input) }
    try stdin.fileHandleForWriting.close()
    // Read both pipes before waiting, so a full pipe can't block the child;
    // stderr on a thread of its own: Dispatch's few threads may all be held
    // by tests waiting like this one, and this wait would then wait for them.
    let errorData = Mutex(Data())
    let errorsRead = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        let data = stderr.fileHandleForReading.readDataToEndOfFile()
        errorData.withLock { $0 = data }
        errorsRead.signal()
    }
    let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
    errorsRead.wait()
    process.waitUntilExit()
    return ProcessOutput(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                         stderr: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
}

/// Whether process `pid` has ended (gone, or a zombie its parent has yet to reap).
func processHasEnded(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
    // The state follows the command name, which is in parentheses and may hold spaces.
    guard let close = stat.lastIndex(of: ")") else { return true }
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    return state == "Z" || state == "X"
}

/// Waits up to `seconds` for the processes to end, then kills those left.
func endProcesses(_ pids: [Int32], within seconds: TimeInterval) {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline, !pids.allSatisfy(processHasEnded) {
        Thread.sleep(forTimeInterval: 0.05)
    }
    for pid in pids where !processHasEnded(pid) { kill(pid, SIGKILL) }
}

/// Runs `body` with `signals` unblocked on this thread (and so in the
/// processes it starts, which inherit the mask), then restores the mask.
func withSignalMask<R>(unblocking signals: [Int32], _ body: () throws -> R) rethrows -> R {
    var set = sigset_t(), previous = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    pthread_sigmask(SIG_UNBLOCK, &set, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    return try body()
}

/// Rows of CSV text, read by Python's csv module.
func csvRows(_ text: String) throws -> [[String]] {
    let python = try runProcess(URL(fileURLWithPath: "/usr/bin/env"),
                                ["python3", "-c", "import csv, json, sys; print(json.dumps(list(csv.reader(sys.stdin))))"], input: text)
    try #require(python.status == 0, "\(python.stderr)")
    return try JSONDecoder().decode([[String]].self, from: Data(python.stdout.utf8))
}
