import Foundation

/// Reads a file in fixed-size chunks, so imports stream whatever the file's size.
struct FileChunks {
    let path: String
    let handle: FileHandle
    /// The file's size in bytes, for progress.
    let size: UInt64
    private(set) var bytesRead: UInt64 = 0
    static let chunkSize = 1 << 16

    init(path: String) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandError("cannot open \(path): no such file")
        }
        guard !isDirectory.boolValue else { throw CommandError("cannot import \(path): it is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CommandError("cannot open \(path): permission denied")
        }
        self.handle = handle
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        size = (attributes?[.size] as? NSNumber)?.uint64Value ?? 0
    }

    /// The next chunk, or nil at the end of the file.
    mutating func next() throws -> Data? {
        let data: Data?
        do {
            data = try handle.read(upToCount: Self.chunkSize)
        } catch {
            throw CommandError("cannot read \(path): \(error.localizedDescription)")
        }
        guard let data, !data.isEmpty else { return nil }
        bytesRead += UInt64(data.count)
        return data
    }

    func close() { try? handle.close() }

    /// Refuses encodings other than UTF-8 up front, with what to do about it.
    static func checkEncoding(ofFirstChunk data: Data, path: String) throws {
        let prefix = Array(data.prefix(4))
        if prefix.starts(with: [0xFF, 0xFE]) || prefix.starts(with: [0xFE, 0xFF]) {
            throw CommandError("\(path) is UTF-16 encoded; convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)")
        }
    }

    /// The length of a UTF-8 byte order mark at the start, skipped by readers.
    static func byteOrderMarkLength(_ data: Data) -> Int {
        data.prefix(3).elementsEqual([0xEF, 0xBB, 0xBF]) ? 3 : 0
    }
}
