/// What one workload step did: how many documents it decoded (or wrote), and a
/// checksum over the decoded values, compared across ways to catch a way that
/// skips work or reads the wrong documents.
struct StepResult {
    var count: Int
    var checksum: Int

    init(count: Int = 0, checksum: Int = 0) {
        self.count = count
        self.checksum = checksum
    }

    mutating func add(_ player: Player) {
        count += 1
        checksum &+= player.checksum
    }
}

/// One way of storing the workload's documents: DocStore or a peer. Each method is
/// one workload of WORKLOAD.md, timed by the driver; every document read is decoded
/// into a complete native value.
protocol BenchmarkWay: AnyObject {
    static var name: String { get }
    /// Opens a fresh file database at `path`: WAL mode, synchronous=NORMAL.
    init(path: String) throws
    /// W1: all documents in one transaction.
    func insertAll(_ players: [Player]) throws -> StepResult
    /// W2: one point look-up per key, each decoded.
    func get(keys: [Int]) throws -> StepResult
    /// W3: for each team, `teamId == t && number >= minimumNumber`, no index;
    /// nil when this way cannot run queries yet.
    func scan(teams: Range<Int>, minimumNumber: Int) throws -> StepResult?
    /// W4i: an index on teamId; false when this way cannot create one yet.
    func createTeamIndex() throws -> Bool
    /// W4: for each team, `teamId == t`, served by the index.
    func indexed(teams: Range<Int>) throws -> StepResult?
    /// W5: every document, streamed in key order.
    func all() throws -> StepResult
    /// W6: read, `number += 1`, write back, for each key, in one transaction.
    func update(keys: ClosedRange<Int>) throws -> StepResult
    /// W7: each document inserted in its own transaction.
    func insertEach(_ players: [Player]) throws -> StepResult
    /// W8: every document grouped by teamId (count, sum of number, max of
    /// battingAverage), `rounds` times, the group rows decoded; nil when this way
    /// can't group.
    func group(rounds: Int) throws -> StepResult?
    /// W9's untimed set-up: the `teams` collection; false when this way can't join.
    func insertTeams(_ teams: [BenchTeam]) throws -> Bool
    /// W9: for each team, its players joined to it by key, as (lastName, team name).
    func join(teams: Range<Int>) throws -> StepResult?
    /// Closes the database so its files can be removed.
    func close() throws
}

extension BenchmarkWay {
    func group(rounds: Int) throws -> StepResult? { nil }
    func insertTeams(_ teams: [BenchTeam]) throws -> Bool { false }
    func join(teams: Range<Int>) throws -> StepResult? { nil }
}

extension StepResult {
    /// W8: one group row.
    mutating func addGroup(teamId: Int, count: Int, sum: Int, maxAverage: Double) {
        self.count += count
        checksum &+= teamId &* 1_000_003 &+ count &* 31 &+ sum &+ Int((maxAverage * 1000).rounded())
    }

    /// W9: one joined row.
    mutating func addJoined(lastName: String, teamName: String) {
        count += 1
        checksum &+= lastName.utf8.count &* 7 &+ teamName.utf8.count
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
