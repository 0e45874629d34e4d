import Foundation

/// Whether two paths name one file, however they are spelled (`./a`, a
/// symbolic or hard link), whether or not it exists yet.
enum FileIdentity {
    static func same(_ first: String, _ second: String) -> Bool {
        var a = stat(), b = stat()
        if stat(first, &a) == 0, stat(second, &b) == 0 {
            return a.st_dev == b.st_dev && a.st_ino == b.st_ino
        }
        return canonical(first) == canonical(second)
    }

    /// The absolute path with its folder's links resolved (the file itself may
    /// not exist yet).
    private static func canonical(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let folder = url.deletingLastPathComponent().resolvingSymlinksInPath().path
        return (folder as NSString).appendingPathComponent(url.lastPathComponent)
    }
}
