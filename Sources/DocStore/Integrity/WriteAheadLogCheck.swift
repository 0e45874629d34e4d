import Foundation

/// Finds commits in a store's write-ahead log (`-wal`) that SQLite would drop
/// without a word because an earlier frame of the log is damaged.
///
/// SQLite replays the log frame by frame, each frame's checksum chained to the
/// one before, and stops at the first frame that fails: everything after it is
/// treated as never written, and the next write overwrites it. That is right
/// for the tail a crash cut short (a transaction without its commit frame), but
/// when a frame in the middle is damaged (a bad sector, a copy cut in two, a
/// stray write) the later transactions are complete and intact, and SQLite
/// silently hides them, then destroys them. This check reads the log before
/// SQLite does and reports that case, so nothing is hidden or overwritten.
///
/// The rule: after the first frame that fails, a frame is intact when it
/// carries this log's salts and its checksum matches when chained from the
/// stored checksum of the frame before it. An intact commit frame after the
/// break is a transaction SQLite would drop. Frames of an older log (other
/// salts), left over from a rolled-back transaction (never a commit), or a torn
/// tail never count, so a crash mid-write or an ordinary log is never reported;
/// nor does the commit that ends the damaged transaction itself (that
/// transaction is lost to the damage, not hidden by SQLite).
///
/// A damaged header makes SQLite ignore the whole log. Its salts, magic number
/// or page size may be the damaged bytes, so the frames are then read with the
/// first frame's salts, the database file's page size and either byte order.
///
/// The log is read without a lock: another process may be writing it (or
/// starting it over after a checkpoint) meanwhile, which can look like damage.
/// So damage counts only when three reads, 50 ms apart, find the same
/// (``StoreFile/checkLog``); a log in flux has a live writer, whose own opening
/// already replayed it.
///
/// The format is SQLite's (https://www.sqlite.org/fileformat2.html#walformat):
/// a 32-byte header, then frames of a 24-byte header and one page.
struct WriteAheadLogCheck {
    /// What a damaged log would lose.
    struct Damage: Equatable, Sendable {
        /// The first frame SQLite would reject, counted from 1; nil when the
        /// log's header is damaged, which makes SQLite ignore every frame.
        var frame: Int?
        /// Where the damage starts in the log file: the frame, or 0 for the header.
        var offset: Int
        /// The log's frames, whole ones only.
        var frames: Int
        /// Intact commits after the damage, which SQLite would drop.
        var droppedCommits: Int
    }

    private static let headerSize = 32
    private static let frameHeaderSize = 24
    /// Frames read at a time, so a long log is read in bounded memory.
    private static let framesPerRead = 64

    /// The damage in the log at `path`, or nil when the log is missing, empty,
    /// not a log, or loses nothing but its last transaction. `databasePageSize`
    /// (the store file's) reads a log whose header lost its own.
    ///
    /// The log is read through a file handle, not mapped: another process's
    /// checkpoint may truncate it while it is read.
    /// - Throws: when the log exists but can't be read.
    static func damage(inLogAt path: String, databasePageSize: Int?) throws -> Damage? {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            if errno == ENOENT { return nil }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        defer { try? handle.close() }
        guard let start = try handle.read(upToCount: headerSize + frameHeaderSize), start.count == headerSize + frameHeaderSize else {
            return nil  // no whole frame: nothing to lose
        }
        var worst: Damage?
        for var scan in start.withUnsafeBytes({ Scan.candidates(start: $0, databasePageSize: databasePageSize) }) {
            try handle.seek(toOffset: UInt64(headerSize))
            let frameSize = frameHeaderSize + scan.pageSize
            while let chunk = try handle.read(upToCount: frameSize * framesPerRead), chunk.count >= frameSize {
                chunk.withUnsafeBytes { bytes in
                    for start in stride(from: 0, through: bytes.count - frameSize, by: frameSize) {
                        scan.read(frame: UnsafeRawBufferPointer(rebasing: bytes[start..<start + frameSize]))
                    }
                }
                if chunk.count % frameSize != 0 { break }  // a torn last frame
            }
            if let damage = scan.damage, damage.droppedCommits > (worst?.droppedCommits ?? 0) { worst = damage }
        }
        return worst
    }

    /// The log read so far: where the chain of checksums first broke, and the
    /// intact commits seen after that.
    private struct Scan {
        let pageSize: Int
        /// The low bit of the magic number says in which byte order the
        /// checksums read the data's 32-bit words.
        let wordsAreBigEndian: Bool
        let salts: (UInt32, UInt32)
        /// The stored checksum of the header or the last frame read.
        var previous: (UInt32, UInt32)
        var frames = 0
        /// The first frame that failed (0-based), or -1 for a damaged header,
        /// which makes SQLite ignore the whole log.
        var firstBad: Int?
        var droppedCommits = 0

        /// Past the damaged frame, whether the commit ending its transaction
        /// was read: commits after it are intact ones SQLite would drop.
        var pastDamagedTransaction = false

        init(pageSize: Int, wordsAreBigEndian: Bool, salts: (UInt32, UInt32), seed: (UInt32, UInt32), headerIntact: Bool) {
            self.pageSize = pageSize
            self.wordsAreBigEndian = wordsAreBigEndian
            self.salts = salts
            previous = seed
            firstBad = headerIntact ? nil : -1
            pastDamagedTransaction = !headerIntact
        }

        /// The ways to read a log from its first bytes (its header and its
        /// first frame's header): its header's, when that is intact; else with
        /// the first frame's salts and, for a page size or magic number that
        /// is itself damaged, the database's page size and each byte order.
        static func candidates(start: UnsafeRawBufferPointer, databasePageSize: Int?) -> [Scan] {
            let magic = bigEndian(start, at: 0)
            let seed = (bigEndian(start, at: 24), bigEndian(start, at: 28))
            let headerPageSize = Int(bigEndian(start, at: 8))
            let validPageSize = { (size: Int) in size >= 512 && size <= 65536 && size & (size - 1) == 0 }
            let magicValid = magic & 0xFFFF_FFFE == 0x377F_0682
            if magicValid, validPageSize(headerPageSize) {
                let bigEndianWords = magic & 1 == 1
                let salts = (bigEndian(start, at: 16), bigEndian(start, at: 20))
                if checksum(start, from: 0, count: 24, seed: (0, 0), bigEndianWords: bigEndianWords) == seed {
                    return [Scan(pageSize: headerPageSize, wordsAreBigEndian: bigEndianWords, salts: salts, seed: seed, headerIntact: true)]
                }
            }
            // A header whose checksum fails may have lost its page size or its
            // byte order to a change that still looks valid (4096 → 8192, the
            // magic's low bit: helper-47), so every page size it may have had
            // and both orders are tried; the reading that finds the most
            // intact commits counts.
            var pageSizes: [Int] = []
            for size in [validPageSize(headerPageSize) ? headerPageSize : nil, databasePageSize] {
                if let size, validPageSize(size), !pageSizes.contains(size) { pageSizes.append(size) }
            }
            let frameSalts = (bigEndian(start, at: headerSize + 8), bigEndian(start, at: headerSize + 12))
            return pageSizes.flatMap { pageSize in
                [false, true].map { Scan(pageSize: pageSize, wordsAreBigEndian: $0, salts: frameSalts, seed: seed, headerIntact: false) }
            }
        }

        mutating func read(frame: UnsafeRawBufferPointer) {
            let stored = (bigEndian(frame, at: 16), bigEndian(frame, at: 20))
            let intact = bigEndian(frame, at: 0) != 0
                && (bigEndian(frame, at: 8), bigEndian(frame, at: 12)) == salts
                && frameChecksum(frame, pageSize: pageSize, seed: previous, bigEndianWords: wordsAreBigEndian) == stored
            let isCommit = bigEndian(frame, at: 4) != 0
            if firstBad == nil {
                if !intact {
                    firstBad = frames
                    pastDamagedTransaction = isCommit
                }
            } else if !pastDamagedTransaction {
                pastDamagedTransaction = isCommit
            } else if intact, isCommit {
                droppedCommits += 1
            }
            previous = stored
            frames += 1
        }

        var damage: Damage? {
            guard let firstBad, droppedCommits > 0 else { return nil }
            guard firstBad >= 0 else { return Damage(frame: nil, offset: 0, frames: frames, droppedCommits: droppedCommits) }
            return Damage(frame: firstBad + 1, offset: headerSize + firstBad * (frameHeaderSize + pageSize),
                          frames: frames, droppedCommits: droppedCommits)
        }
    }

    /// A frame's checksum: its header's first 8 bytes, then its page.
    private static func frameChecksum(_ frame: UnsafeRawBufferPointer, pageSize: Int,
                                      seed: (UInt32, UInt32), bigEndianWords: Bool) -> (UInt32, UInt32) {
        let afterHeader = checksum(frame, from: 0, count: 8, seed: seed, bigEndianWords: bigEndianWords)
        return checksum(frame, from: frameHeaderSize, count: pageSize, seed: afterHeader, bigEndianWords: bigEndianWords)
    }

    /// SQLite's log checksum (`walChecksumBytes`): two running sums over pairs
    /// of 32-bit words, wrapping.
    private static func checksum(_ log: UnsafeRawBufferPointer, from start: Int, count: Int,
                                 seed: (UInt32, UInt32), bigEndianWords: Bool) -> (UInt32, UInt32) {
        var (s1, s2) = seed
        var offset = start
        let end = start + count
        while offset < end {
            let first = log.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            let second = log.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let a = bigEndianWords ? UInt32(bigEndian: first) : UInt32(littleEndian: first)
            let b = bigEndianWords ? UInt32(bigEndian: second) : UInt32(littleEndian: second)
            s1 = s1 &+ a &+ s2
            s2 = s2 &+ b &+ s1
            offset += 8
        }
        return (s1, s2)
    }

    private static func bigEndian(_ log: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bigEndian: log.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
