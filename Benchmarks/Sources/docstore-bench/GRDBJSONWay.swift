import Foundation
import GRDB

/// GRDB storing the model as one JSON text column, with Foundation's
/// JSONEncoder/JSONDecoder (one of each, reused) and GRDB's cached statements.
final class GRDBJSONWay: BenchmarkWay {
    static let name = "grdb-json"
    static let teamId = #"json_extract(body, '$."teamId"')"#
    static let number = #"json_extract(body, '$."number"')"#

    let pool: DatabasePool
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()

    init(path: String) throws {
        pool = try GRDBSupport.pool(path: path)
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE players (key INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        }
    }

    private func body(_ player: Player) throws -> String {
        String(decoding: try encoder.encode(player), as: UTF8.self)
    }

    private func decode(_ body: String) throws -> Player {
        try decoder.decode(Player.self, from: Data(body.utf8))
    }

    private func insert(_ player: Player, in db: Database) throws {
        let statement = try db.cachedStatement(sql: "INSERT INTO players (key, body) VALUES (?, ?)")
        try statement.execute(arguments: [player.id, body(player)])
    }

    func insertAll(_ players: [Player]) throws -> StepResult {
        try pool.write { db in
            for player in players { try insert(player, in: db) }
        }
        return StepResult(count: players.count)
    }

    func get(keys: [Int]) throws -> StepResult {
        var result = StepResult()
        for key in keys {
            let body = try pool.read { db in
                try String.fetchOne(db.cachedStatement(sql: "SELECT body FROM players WHERE key = ?"), arguments: [key])
            }
            guard let body else { throw BenchmarkError("grdb-json: no document \(key)") }
            result.add(try decode(body))
        }
        return result
    }

    /// Decodes the bodies a query selects.
    private func decodeAll(sql: String, arguments: StatementArguments, into result: inout StepResult) throws {
        try pool.read { db in
            let bodies = try String.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
            while let body = try bodies.next() { result.add(try decode(body)) }
        }
    }

    func scan(teams: Range<Int>, minimumNumber: Int) throws -> StepResult? {
        var result = StepResult()
        for team in teams {
            try decodeAll(sql: "SELECT body FROM players WHERE \(Self.teamId) = ? AND \(Self.number) >= ? ORDER BY key",
                          arguments: [team, minimumNumber], into: &result)
        }
        return result
    }

    func createTeamIndex() throws -> Bool {
        try pool.write { db in
            try db.execute(sql: #"CREATE INDEX "players_teamId" ON players (\#(Self.teamId))"#)
        }
        return true
    }

    func indexed(teams: Range<Int>) throws -> StepResult? {
        var result = StepResult()
        for team in teams {
            try decodeAll(sql: "SELECT body FROM players WHERE \(Self.teamId) = ? ORDER BY key",
                          arguments: [team], into: &result)
        }
        return result
    }

    func all() throws -> StepResult {
        var result = StepResult()
        try decodeAll(sql: "SELECT body FROM players ORDER BY key", arguments: [], into: &result)
        return result
    }

    func update(keys: ClosedRange<Int>) throws -> StepResult {
        try pool.write { db in
            var result = StepResult()
            let select = try db.cachedStatement(sql: "SELECT body FROM players WHERE key = ?")
            let write = try db.cachedStatement(sql: "UPDATE players SET body = ? WHERE key = ?")
            for key in keys {
                guard let body = try String.fetchOne(select, arguments: [key]) else {
                    throw BenchmarkError("grdb-json: no document \(key)")
                }
                var player = try decode(body)
                player.number += 1
                try write.execute(arguments: [self.body(player), key])
                result.add(player)
            }
            return result
        }
    }

    func insertEach(_ players: [Player]) throws -> StepResult {
        for player in players {
            try pool.write { db in try insert(player, in: db) }
        }
        return StepResult(count: players.count)
    }

    func close() throws {
        try pool.close()
    }
}
