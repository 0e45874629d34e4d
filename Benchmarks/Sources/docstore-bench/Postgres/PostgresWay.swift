/// One way of storing the workload's documents on a PostgreSQL server: DocStore's
/// `PostgresDocumentStore`, or jsonb SQL written by hand. The same workloads as
/// ``BenchmarkWay`` (W1–W9 of WORKLOAD.md), as async calls; every document read
/// is decoded into a complete `Player`.
protocol PostgresBenchmarkWay: AnyObject, Sendable {
    static var name: String { get }
    /// Connects to `url`, a fresh empty database.
    static func open(url: String) async throws -> Self
    /// W1: all documents in one transaction.
    func insertAll(_ players: [Player]) async throws -> StepResult
    /// W2: one point look-up per key, each decoded.
    func get(keys: [Int]) async throws -> StepResult
    /// W3: for each team, `teamId == t && number >= minimumNumber`, no index.
    func scan(teams: Range<Int>, minimumNumber: Int) async throws -> StepResult
    /// W4i: an index on teamId.
    func createTeamIndex() async throws
    /// W4: for each team, `teamId == t`, served by the index.
    func indexed(teams: Range<Int>) async throws -> StepResult
    /// W5: every document in key order, decoded one at a time.
    func all() async throws -> StepResult
    /// W6: read, `number += 1`, write back, for each key, in one transaction.
    func update(keys: ClosedRange<Int>) async throws -> StepResult
    /// W7: each document inserted in its own transaction.
    func insertEach(_ players: [Player]) async throws -> StepResult
    /// W8: every document grouped by teamId (count, sum of number, max of
    /// battingAverage), `rounds` times, the group rows decoded.
    func group(rounds: Int) async throws -> StepResult
    /// W9's untimed set-up: the `teams` collection.
    func insertTeams(_ teams: [BenchTeam]) async throws
    /// W9: for each team, its players joined to it by key, as (lastName, team name).
    func join(teams: Range<Int>) async throws -> StepResult
    /// Closes the connections.
    func close() async
}
