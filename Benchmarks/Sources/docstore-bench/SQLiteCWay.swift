/// The practical limit: SQLite's C API with statements prepared once, JSON text
/// written by hand and parsed by libjansson. Same schema shape as DocStore's
/// collections (`key INTEGER PRIMARY KEY, body TEXT`), and the same `json_extract`
/// expressions for the queries and the index.
final class SQLiteCWay: BenchmarkWay {
    static let name = "sqlite-c"
    static let teamId = #"json_extract(body, '$."teamId"')"#
    static let number = #"json_extract(body, '$."number"')"#

    let db: SQLiteConnection
    private var buffer: [UInt8] = []

    init(path: String) throws {
        db = try SQLiteConnection(path: path)
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("PRAGMA synchronous = NORMAL")
        try db.execute("CREATE TABLE players (key INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        buffer.reserveCapacity(512)
    }

    /// Inserts one document with a prepared INSERT.
    @inline(__always)
    private func insert(_ player: Player, with statement: SQLiteStatement) throws {
        buffer.removeAll(keepingCapacity: true)
        HandJSON.encode(player, into: &buffer)
        statement.bind(player.id, at: 1)
        try buffer.withUnsafeBufferPointer { bytes in
            statement.bindStatic(bytes, at: 2)
            _ = try statement.step()
        }
        statement.reset()
    }

    func insertAll(_ players: [Player]) throws -> StepResult {
        let statement = try db.prepare("INSERT INTO players (key, body) VALUES (?, ?)")
        try db.execute("BEGIN IMMEDIATE")
        for player in players { try insert(player, with: statement) }
        try db.execute("COMMIT")
        return StepResult(count: players.count)
    }

    func get(keys: [Int]) throws -> StepResult {
        let statement = try db.prepare("SELECT body FROM players WHERE key = ?")
        var result = StepResult()
        for key in keys {
            statement.bind(key, at: 1)
            guard try statement.step() else { throw BenchmarkError("sqlite-c: no document \(key)") }
            result.add(try HandJSON.decode(statement.text(at: 0)))
            statement.reset()
        }
        return result
    }

    /// Decodes every row of a query whose first column is the body.
    private func decodeAll(_ statement: SQLiteStatement, into result: inout StepResult) throws {
        while try statement.step() {
            result.add(try HandJSON.decode(statement.text(at: 0)))
        }
        statement.reset()
    }

    func scan(teams: Range<Int>, minimumNumber: Int) throws -> StepResult? {
        let statement = try db.prepare("SELECT body FROM players WHERE \(Self.teamId) = ? AND \(Self.number) >= ? ORDER BY key")
        var result = StepResult()
        for team in teams {
            statement.bind(team, at: 1)
            statement.bind(minimumNumber, at: 2)
            try decodeAll(statement, into: &result)
        }
        return result
    }

    func createTeamIndex() throws -> Bool {
        try db.execute(#"CREATE INDEX "players_teamId" ON players (\#(Self.teamId))"#)
        return true
    }

    func indexed(teams: Range<Int>) throws -> StepResult? {
        let statement = try db.prepare("SELECT body FROM players WHERE \(Self.teamId) = ? ORDER BY key")
        var result = StepResult()
        for team in teams {
            statement.bind(team, at: 1)
            try decodeAll(statement, into: &result)
        }
        return result
    }

    func all() throws -> StepResult {
        let statement = try db.prepare("SELECT body FROM players ORDER BY key")
        var result = StepResult()
        try db.execute("BEGIN")  // one snapshot, as DocStore's forEach
        try decodeAll(statement, into: &result)
        try db.execute("COMMIT")
        return result
    }

    func update(keys: ClosedRange<Int>) throws -> StepResult {
        let select = try db.prepare("SELECT body FROM players WHERE key = ?")
        let write = try db.prepare("UPDATE players SET body = ? WHERE key = ?")
        var result = StepResult()
        try db.execute("BEGIN IMMEDIATE")
        for key in keys {
            select.bind(key, at: 1)
            guard try select.step() else { throw BenchmarkError("sqlite-c: no document \(key)") }
            var player = try HandJSON.decode(select.text(at: 0))
            select.reset()
            player.number += 1
            buffer.removeAll(keepingCapacity: true)
            HandJSON.encode(player, into: &buffer)
            try buffer.withUnsafeBufferPointer { bytes in
                write.bindStatic(bytes, at: 1)
                write.bind(key, at: 2)
                _ = try write.step()
            }
            write.reset()
            result.add(player)
        }
        try db.execute("COMMIT")
        return result
    }

    func insertEach(_ players: [Player]) throws -> StepResult {
        let statement = try db.prepare("INSERT INTO players (key, body) VALUES (?, ?)")
        for player in players { try insert(player, with: statement) }  // autocommit: one transaction each
        return StepResult(count: players.count)
    }

    func close() throws {
        db.close()
    }
}
