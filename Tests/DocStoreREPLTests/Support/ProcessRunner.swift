import Foundation
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
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    // Read both pipes before waiting, so a full pipe can't block the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var errorData = Data()
    group.enter()
    DispatchQueue.global().async {
        errorData = stderr.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessOutput(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                         stderr: String(decoding: errorData, as: UTF8.self))
}
