import DocStore
import DocStorePostgres

/// DocStore on PostgreSQL through its public API, written as a user writes it:
/// the same `@Document` model and query closures as ``DocStoreWay``, awaited.
final class PostgresDocStoreWay: PostgresBenchmarkWay {
    static let name = "docstore"
    let store: PostgresDocumentStore
    let players: PostgresCollection<Player>

    private init(store: PostgresDocumentStore) {
        self.store = store
        players = store.collection(Player.self, named: "players")
    }

    static func open(url: String) async throws -> PostgresDocStoreWay {
        PostgresDocStoreWay(store: try await PostgresDocumentStore(url: url))
    }

    func insertAll(_ players: [Player]) async throws -> StepResult {
        try await self.players.insert(contentsOf: players)
        return StepResult(count: players.count)
    }

    func get(keys: [Int]) async throws -> StepResult {
        var result = StepResult()
        for key in keys {
            guard let player = try await players.get(key) else { throw BenchmarkError("docstore: no document \(key)") }
            result.add(player)
        }
        return result
    }

    func scan(teams: Range<Int>, minimumNumber: Int) async throws -> StepResult {
        var result = StepResult()
        for team in teams {
            let found = try await players.filter {
                $0.teamId == team
                $0.number >= minimumNumber
            }.fetch()
            for player in found { result.add(player) }
        }
        return result
    }

    func createTeamIndex() async throws {
        try await players.createIndex(on: \.teamId)
    }

    func indexed(teams: Range<Int>) async throws -> StepResult {
        var result = StepResult()
        for team in teams {
            for player in try await players.filter({ $0.teamId == team }).fetch() { result.add(player) }
        }
        return result
    }

    func all() async throws -> StepResult {
        var result = StepResult()
        try await players.forEach { result.add($0) }
        return result
    }

    func update(keys: ClosedRange<Int>) async throws -> StepResult {
        try await store.transaction { transaction in
            let players = transaction.collection(Player.self, named: "players")
            var result = StepResult()
            for key in keys {
                guard var player = try await players.get(key) else { throw BenchmarkError("docstore: no document \(key)") }
                player.number += 1
                try await players.update(player)
                result.add(player)
            }
            return result
        }
    }

    func insertEach(_ players: [Player]) async throws -> StepResult {
        for player in players { try await self.players.insert(player) }
        return StepResult(count: players.count)
    }

    func group(rounds: Int) async throws -> StepResult {
        var result = StepResult()
        for _ in 0..<rounds {
            let rows = try await players.query
                .group(by: \.teamId) { (count: $0.count(), total: $0.sum(\.number), best: $0.max(\.battingAverage)) }
                .fetch()
            for row in rows {
                result.addGroup(teamId: row.teamId, count: row.count, sum: row.total, maxAverage: row.best ?? 0)
            }
        }
        return result
    }

    func insertTeams(_ teams: [BenchTeam]) async throws {
        try await store.collection(BenchTeam.self, named: "teams").insert(contentsOf: teams)
    }

    func join(teams: Range<Int>) async throws -> StepResult {
        let roster = store.collection(RosterLine.self, named: "players")
        let teamCollection = store.collection(BenchTeam.self, named: "teams")
        var result = StepResult()
        for team in teams {
            let rows = try await roster.filter { $0.teamId == team }
                .join(teamCollection, onKey: \.teamId, as: \.team)
                .select { ($0.lastName, $0.team.name) }
            for (lastName, name) in rows { result.addJoined(lastName: lastName, teamName: name ?? "") }
        }
        return result
    }

    func close() async {
        await store.close()
    }
}
