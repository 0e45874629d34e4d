import Foundation

extension StoreFile {
    /// What SQLite opens for the store at `path`: the path itself, or, for a
    /// store opened read-only on a read-only file system (a read-only mount, a
    /// snapshot, a backup medium), an `immutable=1` URI of it.
    ///
    /// A WAL store's readers need its `-shm` index, which SQLite can't create on
    /// a read-only file system, so such a store could not be read at all. With
    /// `immutable=1` SQLite reads the main file alone, without locks or `-shm` —
    /// safe only when nothing can change the file (a read-only file system) and
    /// when the file holds every commit. A non-empty `-wal` beside it holds
    /// commits the file doesn't yet: `immutable=1` would hide them, so the plain
    /// path is opened then (SQLite reads the log through an existing `-shm`, or
    /// fails saying it can't open the file).
    static func sqliteLocation(path: String, readOnly: Bool) -> String {
        guard readOnly, isOnReadOnlyFileSystem(path), !hasWriteAheadLog(path) else { return path }
        return immutableURI(path)
    }

    static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var info = statvfs()
        return statvfs(path, &info) == 0 && info.f_flag & UInt(ST_RDONLY) != 0
    }

    private static func hasWriteAheadLog(_ path: String) -> Bool {
        let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber
        return (size?.intValue ?? 0) > 0
    }

    /// `file:PATH?immutable=1`, with the characters a URI path can't hold
    /// escaped (SQLite reads `file:` names as URIs: Debian builds it with
    /// SQLITE_USE_URI, and GRDB doesn't pass the flag otherwise).
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "file:" + escaped + "?immutable=1"
    }
}
