import Foundation

/// Runs `script` in bash inside a private mount namespace (as a mapped root
/// user when not root), with `$D` the docstore binary and `$M` a new tmpfs of
/// `size` it is in: a real file system a test may fill or remount read-only,
/// whose mount ends with the shell, whatever happens.
func runInPrivateTmpfs(_ script: String, size: String = "16m") throws -> ProcessOutput {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let mountPoint = directory.appendingPathComponent("medium").path
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
    let namespace = getuid() == 0 ? ["--mount"] : ["--map-root-user", "--mount"]
    let setup = "set -e; D='\(try docstoreBinary().path)'; M='\(mountPoint)'; mount -t tmpfs -o size=\(size) tmpfs \"$M\"; cd \"$M\"\n"
    return try runProcess(URL(fileURLWithPath: "/usr/bin/unshare"), namespace + ["/bin/bash", "-c", setup + script])
}
