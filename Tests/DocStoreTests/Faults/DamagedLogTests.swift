import Foundation
import GRDB
import Testing
@testable import DocStore

/// A damaged frame in the middle of a store's write-ahead log: SQLite replays
/// the log up to the first frame whose checksum fails and treats the rest as
/// never written, so the intact commits after it vanish without a word, and the
/// next write overwrites them. DocStore reads the log first and refuses.
///
/// Each test makes a real log: a store with automatic checkpoints off commits
/// one team at a time, and its file and log are copied while it is open (a
/// closed store moves its log into the file), as a crash or a backup would
/// leave them. The copy is damaged the way a bad sector would: bytes of one
/// frame's page changed in place.
@Suite("Fault: a damaged write-ahead log")
struct DamagedLogTests {
    /// A copy of a store whose log holds one commit per team, and where each
    /// commit's frames start in the log.
    struct LoggedStore {
        var path: String
        var directory: URL
        var pageSize: Int
        /// For each commit, in order, the offsets of its frames.
        var commits: [[Int]]

        var logPath: String { path + "-wal" }

        func log() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: logPath)) }

        /// Changes one byte in the middle of the page of the frame at `offset`.
        func damageFrame(at offset: Int) throws {
            var bytes = try log()
            bytes[offset + 24 + pageSize / 2] ^= 0x5A
            try bytes.write(to: URL(fileURLWithPath: logPath))
        }

        func teams(damagedLog: DamagedLogHandling = .refuse, readOnly: Bool = false) throws -> [Team] {
            try DocumentStore(path: path, readOnly: readOnly, damagedLog: damagedLog).collection(Team.self).all()
        }
    }

    func makeLoggedStore(teams: [Team] = sampleTeams, lastBatch: [Team] = []) throws -> LoggedStore {
        let (original, directory) = try temporaryStorePath("original.sqlite")
        let store = try DocumentStore(path: original)
        try store.databaseWriter.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        let collection = store.collection(Team.self)
        try collection.insert(teams[0])
        // Everything before the teams goes into the file, so the log starts
        // with the first team's commit.
        try store.databaseWriter.writeWithoutTransaction { _ = try $0.checkpoint(.truncate) }
        for team in teams.dropFirst() { try collection.insert(team) }
        if !lastBatch.isEmpty { try collection.insert(contentsOf: lastBatch) }
        let path = directory.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: original, toPath: path)
        try FileManager.default.copyItem(atPath: original + "-wal", toPath: path + "-wal")
        try store.close()

        let log = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        let pageSize = Int(log[8]) << 24 | Int(log[9]) << 16 | Int(log[10]) << 8 | Int(log[11])
        var commits: [[Int]] = []
        var current: [Int] = []
        for offset in stride(from: 32, through: log.count - 24 - pageSize, by: 24 + pageSize) {
            current.append(offset)
            if log[offset + 4 ..< offset + 8].contains(where: { $0 != 0 }) {
                commits.append(current)
                current = []
            }
        }
        return LoggedStore(path: path, directory: directory, pageSize: pageSize, commits: commits)
    }

    @Test func anUndamagedLogOpensWithEveryCommit() throws {
        let store = try makeLoggedStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        #expect(store.commits.count == sampleTeams.count - 1, "one commit per team after the checkpoint")
        #expect(try WriteAheadLogCheck.damage(inLogAt: store.logPath, databasePageSize: nil) == nil)
        #expect(try store.teams() == sampleTeams)
    }

    @Test func aDamagedFrameBeforeIntactCommitsIsRefusedAndNothingChanges() throws {
        let store = try makeLoggedStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let damaged = try #require(store.commits.first?.first)
        try store.damageFrame(at: damaged)
        let fileBefore = try Data(contentsOf: URL(fileURLWithPath: store.path))
        let logBefore = try store.log()

        for readOnly in [false, true] {
            do {
                _ = try store.teams(readOnly: readOnly)
                Issue.record("a log that would drop \(store.commits.count - 1) commits was opened (readOnly: \(readOnly))")
            } catch let DocStoreError.damagedLog(path, offset, frame, droppedCommits) {
                #expect(path == store.path)
                #expect(offset == damaged)
                #expect(frame == 1)
                #expect(droppedCommits == store.commits.count - 1)
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == fileBefore)
        #expect(try store.log() == logBefore, "the log is as it was: its later commits are still there")

        let message = DocStoreError.damagedLog(path: store.path, offset: damaged, frame: 1, droppedCommits: 2).localizedDescription
        #expect(message.contains("\(store.path)-wal is damaged (frame 1, at byte \(damaged))"))
        #expect(message.contains("2 intact commits") && message.contains("--set-aside-damaged-log"))
    }

    /// What SQLite does with the same log when told to go on: the commits after
    /// the damage are gone from the store (which is why opening is refused),
    /// and the copy set aside holds the log exactly as it was.
    @Test func settingTheLogAsideOpensTheStoreAsOfItsLastGoodCommit() throws {
        let store = try makeLoggedStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        // The third team's commit is damaged: the first team (in the file) and
        // the second (the log's first commit) are kept, the rest dropped.
        try store.damageFrame(at: try #require(store.commits.dropFirst().first?.first))
        let damagedLog = try store.log()

        let damagedAt = try #require(store.commits.dropFirst().first?.first)
        let opened = try DocumentStore(path: store.path, damagedLog: .setAsideAndOpen)
        #expect(try opened.collection(Team.self).all() == Array(sampleTeams.prefix(2)))
        // What was set aside is told, so a caller can say which file holds the rest.
        #expect(opened.setAsideLog == SetAsideLog(offset: damagedAt, frame: (damagedAt - 32) / (24 + store.pageSize) + 1, droppedCommits: store.commits.count - 2,
                                                  copyPath: store.logPath + ".damaged"))
        try opened.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.logPath + ".damaged")) == damagedLog)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).filter { $0.contains("partial") }
        #expect(leftovers.isEmpty, "no temporary copy is left: \(leftovers)")

        // Writing then overwrote the dropped commits in the log: only the copy has them.
        let writer = try DocumentStore(path: store.path)
        try writer.collection(Team.self).insert(Team(id: 99, city: "Reno", nickName: "Aces", abbreviation: "RNO"))
        try writer.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.logPath + ".damaged")) == damagedLog)
    }

    @Test func aSecondDamagedLogIsSetAsideBesideTheFirstNeverOverIt() throws {
        let store = try makeLoggedStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        try store.damageFrame(at: try #require(store.commits.first?.first))
        let earlier = Data("an earlier copy".utf8)
        try earlier.write(to: URL(fileURLWithPath: store.logPath + ".damaged"))

        _ = try store.teams(damagedLog: .setAsideAndOpen)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.logPath + ".damaged")) == earlier)
        #expect(FileManager.default.fileExists(atPath: store.logPath + ".damaged-2"))
    }

    /// A crash cuts the log's last transaction short: SQLite rightly drops
    /// it, and nothing intact follows, so the store opens.
    @Test func aTornLastTransactionIsNotDamage() throws {
        let store = try makeLoggedStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let last = try #require(store.commits.last)
        var log = try store.log()
        log.removeSubrange((last[0] + 24 + store.pageSize / 3)...)  // the last commit, cut mid-page
        try log.write(to: URL(fileURLWithPath: store.logPath))
        #expect(try store.teams() == Array(sampleTeams.dropLast()))
    }

    @Test func damageInTheLastCommitLosesNothingElseAndOpens() throws {
        let store = try makeLoggedStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        try store.damageFrame(at: try #require(store.commits.last?.last))
        #expect(try store.teams() == Array(sampleTeams.dropLast()))
    }

    /// Damage in the last transaction, in any of its frames: SQLite rightly
    /// drops that transaction, nothing intact follows, so the store opens (its
    /// own commit frame was counted as an intact commit after the damage,
    /// helper-44).
    @Test func damageAnywhereInTheLastTransactionIsNotRefused() throws {
        let batch = (100..<140).map { Team(id: $0, city: String(repeating: "c", count: 900), nickName: "N\($0)", abbreviation: "A") }
        let store = try makeLoggedStore(lastBatch: batch)
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let last = try #require(store.commits.last)
        try #require(last.count > 3, "the last transaction spans several frames")
        let pristine = try store.log()
        for frame in last {
            try pristine.write(to: URL(fileURLWithPath: store.logPath))
            try store.damageFrame(at: frame)
            #expect(try WriteAheadLogCheck.damage(inLogAt: store.logPath, databasePageSize: nil) == nil, "frame at \(frame)")
        }
        // Damage in the transaction before it counts that one commit only.
        try pristine.write(to: URL(fileURLWithPath: store.logPath))
        try store.damageFrame(at: try #require(store.commits.dropLast().last?.first))
        #expect(try WriteAheadLogCheck.damage(inLogAt: store.logPath, databasePageSize: nil)?.droppedCommits == 1)
    }

    /// The header's salts, magic number or page size damaged: SQLite reads no
    /// frame at all, and opened the store silently without any of them
    /// (helper-44). The frames are read with the first frame's salts and the
    /// store file's page size. Also changes that leave a valid-looking header
    /// (helper-47): the magic number's byte-order bit, and a page size of
    /// 8192 or 2048 for 4096, which SQLite refuses by the header's checksum.
    @Test(arguments: [(0, 0x10), (3, 0x10), (9, 0x10), (16, 0x10), (21, 0x10), (3, 0x01), (10, 0x30), (10, 0x18)])
    func anyDamagedHeaderByteIsRefused(byte: Int, mask: UInt8) throws {
        let store = try makeLoggedStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        var log = try store.log()
        try #require(store.pageSize == 4096 || byte != 10, "the page-size cases assume 4096-byte pages")
        log[byte] ^= mask
        try log.write(to: URL(fileURLWithPath: store.logPath))
        let error = #expect(throws: DocStoreError.self) { _ = try store.teams() }
        guard case .damagedLog(_, 0, nil, let dropped)? = error else {
            Issue.record("byte \(byte): \(String(describing: error))")
            return
        }
        #expect(dropped == store.commits.count)
    }

    /// A damaged header makes SQLite ignore the whole log.
    @Test func aDamagedLogHeaderIsRefused() throws {
        let store = try makeLoggedStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        var log = try store.log()
        log[12] ^= 0x01  // the checkpoint sequence number, covered by the header's checksum
        try log.write(to: URL(fileURLWithPath: store.logPath))
        #expect(throws: DocStoreError.self) { _ = try store.teams() }
        #expect(try WriteAheadLogCheck.damage(inLogAt: store.logPath, databasePageSize: nil)
                == .init(frame: nil, offset: 0, frames: store.commits.joined().count, droppedCommits: store.commits.count))
    }
}
