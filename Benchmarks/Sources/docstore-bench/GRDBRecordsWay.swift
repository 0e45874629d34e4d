import GRDB

/// What a Swift developer would write instead: a `Codable` record, one column per
/// field (GRDB stores the `tags` array as JSON text), GRDB's record methods.
extension Player: FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
}

final class GRDBRecordsWay: BenchmarkWay {
    static let name = "grdb-records"
    let pool: DatabasePool

    init(path: String) throws {
        pool = try GRDBSupport.pool(path: path)
        try pool.write { db in
            try db.create(table: Player.databaseTableName) { t in
                t.primaryKey("id", .integer)
                t.column("firstName", .text).notNull()
                t.column("lastName", .text).notNull()
                t.column("number", .integer).notNull()
                t.column("teamId", .integer).notNull()
                t.column("position", .text).notNull()
                t.column("battingAverage", .double).notNull()
                t.column("nickname", .text)
                t.column("tags", .text).notNull()  // JSON text
            }
        }
    }

    func insertAll(_ players: [Player]) throws -> StepResult {
        try pool.write { db in
            for player in players { try player.insert(db) }
        }
        return StepResult(count: players.count)
    }

    func get(keys: [Int]) throws -> StepResult {
        var result = StepResult()
        for key in keys {
            guard let player = try pool.read({ db in try Player.fetchOne(db, id: key) }) else {
                throw BenchmarkError("grdb-records: no record \(key)")
            }
            result.add(player)
        }
        return result
    }

    func scan(teams: Range<Int>, minimumNumber: Int) throws -> StepResult? {
        var result = StepResult()
        for team in teams {
            let players = try pool.read { db in
                try Player
                    .filter(Column("teamId") == team && Column("number") >= minimumNumber)
                    .order(Column("id"))
                    .fetchAll(db)
            }
            for player in players { result.add(player) }
        }
        return result
    }

    func createTeamIndex() throws -> Bool {
        try pool.write { db in
            try db.create(index: "player_teamId", on: Player.databaseTableName, columns: ["teamId"])
        }
        return true
    }

    func indexed(teams: Range<Int>) throws -> StepResult? {
        var result = StepResult()
        for team in teams {
            let players = try pool.read { db in
                try Player.filter(Column("teamId") == team).order(Column("id")).fetchAll(db)
            }
            for player in players { result.add(player) }
        }
        return result
    }

    func all() throws -> StepResult {
        try pool.read { db in
            var result = StepResult()
            let cursor = try Player.order(Column("id")).fetchCursor(db)  // streams
            while let player = try cursor.next() { result.add(player) }
            return result
        }
    }

    func update(keys: ClosedRange<Int>) throws -> StepResult {
        try pool.write { db in
            var result = StepResult()
            for key in keys {
                guard var player = try Player.fetchOne(db, id: key) else {
                    throw BenchmarkError("grdb-records: no record \(key)")
                }
                player.number += 1
                try player.update(db)
                result.add(player)
            }
            return result
        }
    }

    func insertEach(_ players: [Player]) throws -> StepResult {
        for player in players {
            try pool.write { db in try player.insert(db) }
        }
        return StepResult(count: players.count)
    }

    func close() throws {
        try pool.close()
    }
}
