import NIOCore
import PostgresNIO

/// The PostgreSQL peer: the jsonb SQL an expert writes by hand, sent through
/// postgres-nio's `PostgresClient` (the pool DocStore uses too) as named prepared
/// statements, each prepared once per connection. The same table shape as
/// DocStore's (`key bigint PRIMARY KEY, body jsonb`); documents written by
/// ``HandJSON`` and sent as binary jsonb, read as binary jsonb straight from the
/// row's bytes and parsed by libjansson: no `String` in between. W4's index is
/// the plain expression index an expert makes, `((body -> 'teamId'))`, and the
/// queries compare `body -> 'teamId'` with a bound jsonb value so that it serves them.
final class PostgresNIOWay: PostgresBenchmarkWay {
    static let name = "postgres-nio"
    let client: PostgresClient
    private let runner: Task<Void, Never>
    /// Quiet but for critical messages, as DocStore's.
    static let logger: Logger = {
        var logger = Logger(label: "postgres-nio-way")
        logger.logLevel = .critical
        return logger
    }()

    private init(client: PostgresClient) {
        self.client = client
        runner = Task { await client.run() }
    }

    static func open(url: String) async throws -> PostgresNIOWay {
        let way = PostgresNIOWay(client: PostgresClient(configuration: try PostgresBenchServer.configuration(url), backgroundLogger: logger))
        try await way.client.query("CREATE TABLE players (key bigint PRIMARY KEY, body jsonb NOT NULL)", logger: logger)
        return way
    }

    static let batchSize = 1_000

    func insertAll(_ players: [Player]) async throws -> StepResult {
        try await client.withTransaction(logger: Self.logger) { connection in
            var json: [UInt8] = []
            for start in stride(from: 0, to: players.count, by: Self.batchSize) {
                let batch = players[start..<min(start + Self.batchSize, players.count)]
                var statement = InsertMany()
                statement.keys.reserveCapacity(batch.count)
                statement.bodies.reserveCapacity(batch.count)
                for player in batch {
                    json.removeAll(keepingCapacity: true)
                    HandJSON.encode(player, into: &json)
                    statement.keys.append(player.id)
                    statement.bodies.append(JSONBText(bytes: json))
                }
                _ = try await connection.execute(statement, logger: Self.logger)
            }
        }
        return StepResult(count: players.count)
    }

    func get(keys: [Int]) async throws -> StepResult {
        var result = StepResult()
        for key in keys {
            var found = false
            for try await player in try await client.execute(Get(key: key), logger: Self.logger) {
                result.add(player)
                found = true
            }
            if !found { throw BenchmarkError("postgres-nio: no document \(key)") }
        }
        return result
    }

    func scan(teams: Range<Int>, minimumNumber: Int) async throws -> StepResult {
        var result = StepResult()
        for team in teams {
            for try await player in try await client.execute(Scan(team: team, minimumNumber: minimumNumber), logger: Self.logger) {
                result.add(player)
            }
        }
        return result
    }

    func createTeamIndex() async throws {
        try await client.query("CREATE INDEX players_team ON players ((body -> 'teamId'))", logger: Self.logger)
    }

    func indexed(teams: Range<Int>) async throws -> StepResult {
        var result = StepResult()
        for team in teams {
            for try await player in try await client.execute(Team(team: team), logger: Self.logger) { result.add(player) }
        }
        return result
    }

    func all() async throws -> StepResult {
        var result = StepResult()
        for try await player in try await client.execute(All(), logger: Self.logger) { result.add(player) }
        return result
    }

    func update(keys: ClosedRange<Int>) async throws -> StepResult {
        try await client.withTransaction(logger: Self.logger) { connection in
            var result = StepResult()
            var json: [UInt8] = []
            for key in keys {
                var found: Player?
                for try await player in try await connection.execute(Get(key: key), logger: Self.logger) { found = player }
                guard var player = found else { throw BenchmarkError("postgres-nio: no document \(key)") }
                player.number += 1
                json.removeAll(keepingCapacity: true)
                HandJSON.encode(player, into: &json)
                _ = try await connection.execute(Replace(key: key, body: JSONBText(bytes: json)), logger: Self.logger)
                result.add(player)
            }
            return result
        }
    }

    func insertEach(_ players: [Player]) async throws -> StepResult {
        var json: [UInt8] = []
        for player in players {
            json.removeAll(keepingCapacity: true)
            HandJSON.encode(player, into: &json)
            // Outside a transaction: each INSERT commits on its own.
            for try await _ in try await client.execute(InsertOne(key: player.id, body: JSONBText(bytes: json)), logger: Self.logger) {}
        }
        return StepResult(count: players.count)
    }

    func group(rounds: Int) async throws -> StepResult {
        var result = StepResult()
        for _ in 0..<rounds {
            for try await (team, count, sum, best) in try await client.execute(Group(), logger: Self.logger) {
                result.addGroup(teamId: team, count: count, sum: sum, maxAverage: best ?? 0)
            }
        }
        return result
    }

    func insertTeams(_ teams: [BenchTeam]) async throws {
        try await client.query("CREATE TABLE teams (key bigint PRIMARY KEY, body jsonb NOT NULL)", logger: Self.logger)
        for team in teams {
            let json = JSONBText(bytes: Array(#"{"id":\#(team.id),"name":"\#(team.name)","city":"\#(team.city)"}"#.utf8))
            try await client.query("INSERT INTO teams (key, body) VALUES (\(team.id), \(json))", logger: Self.logger)
        }
    }

    func join(teams: Range<Int>) async throws -> StepResult {
        var result = StepResult()
        for team in teams {
            for try await (lastName, teamName) in try await client.execute(Join(team: team), logger: Self.logger) {
                result.addJoined(lastName: lastName, teamName: teamName ?? "")
            }
        }
        return result
    }

    func close() async {
        runner.cancel()
        await runner.value
    }
}

// MARK: The statements

extension PostgresNIOWay {
    struct InsertMany: PostgresPreparedStatement {
        static let sql = "INSERT INTO players (key, body) SELECT * FROM unnest($1::bigint[], $2::jsonb[])"
        typealias Row = ()
        var keys: [Int] = []
        var bodies: [JSONBText] = []
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(keys)
            bindings.append(bodies)
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }

    struct InsertOne: PostgresPreparedStatement {
        static let sql = "INSERT INTO players (key, body) VALUES ($1, $2)"
        typealias Row = ()
        var key: Int
        var body: JSONBText
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(key)
            bindings.append(body)
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }

    struct Replace: PostgresPreparedStatement {
        static let sql = "UPDATE players SET body = $2 WHERE key = $1"
        typealias Row = ()
        var key: Int
        var body: JSONBText
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(key)
            bindings.append(body)
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }

    struct Get: PostgresPreparedStatement {
        static let sql = "SELECT body FROM players WHERE key = $1"
        typealias Row = Player
        var key: Int
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(key)
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> Player { try PostgresNIOWay.player(row) }
    }

    struct Scan: PostgresPreparedStatement {
        static let sql = "SELECT body FROM players WHERE body -> 'teamId' = $1 AND body -> 'number' >= $2 ORDER BY key"
        typealias Row = Player
        var team: Int
        var minimumNumber: Int
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(JSONBText(integer: team))
            bindings.append(JSONBText(integer: minimumNumber))
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> Player { try PostgresNIOWay.player(row) }
    }

    struct Team: PostgresPreparedStatement {
        static let sql = "SELECT body FROM players WHERE body -> 'teamId' = $1 ORDER BY key"
        typealias Row = Player
        var team: Int
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(JSONBText(integer: team))
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> Player { try PostgresNIOWay.player(row) }
    }

    struct All: PostgresPreparedStatement {
        static let sql = "SELECT body FROM players ORDER BY key"
        typealias Row = Player
        func makeBindings() -> PostgresBindings { PostgresBindings() }
        func decodeRow(_ row: PostgresRow) throws -> Player { try PostgresNIOWay.player(row) }
    }

    struct Group: PostgresPreparedStatement {
        static let sql = """
            SELECT (body ->> 'teamId')::bigint AS team, count(*), sum((body ->> 'number')::bigint)::bigint,
                   max((body ->> 'battingAverage')::float8)
            FROM players GROUP BY team
            """
        typealias Row = (Int, Int, Int, Double?)
        func makeBindings() -> PostgresBindings { PostgresBindings() }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    struct Join: PostgresPreparedStatement {
        static let sql = """
            SELECT p.body ->> 'lastName', t.body ->> 'name'
            FROM players AS p LEFT JOIN teams AS t ON t.key = (p.body ->> 'teamId')::bigint
            WHERE p.body -> 'teamId' = $1 ORDER BY p.key
            """
        typealias Row = (String, String?)
        var team: Int
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(JSONBText(integer: team))
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// The player in the row's only column, binary jsonb: a version byte (1),
    /// then the JSON text, parsed where it lies.
    static func player(_ row: PostgresRow) throws -> Player {
        var cells = row.makeIterator()
        guard let cell = cells.next(), let bytes = cell.bytes, bytes.readableBytes > 0 else {
            throw BenchmarkError("postgres-nio: a row without a body")
        }
        return try bytes.withUnsafeReadableBytes { raw in
            guard raw[0] == 1 else { throw BenchmarkError("postgres-nio: jsonb version \(raw[0])") }
            return try HandJSON.decode(UnsafeRawBufferPointer(rebasing: raw.dropFirst()))
        }
    }
}

/// JSON text sent as a binary `jsonb` value (a version byte, then the text), so
/// the server parses it once, as jsonb, with no cast.
struct JSONBText: PostgresArrayEncodable, PostgresNonThrowingEncodable {
    var bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }

    init(integer: Int) {
        var bytes: [UInt8] = []
        HandJSON.appendInteger(integer, to: &bytes)
        self.bytes = bytes
    }

    static var psqlType: PostgresDataType { .jsonb }
    static var psqlFormat: PostgresFormat { .binary }
    static var psqlArrayType: PostgresDataType { .jsonbArray }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        buffer.writeInteger(UInt8(1))
        buffer.writeBytes(bytes)
    }
}
