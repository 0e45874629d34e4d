import Foundation

/// Runs the workload one way after another, each on a fresh database file in a
/// temporary directory that is removed afterwards.
struct Runner {
    let n: Int
    let directory: URL
    var timeMode: TimeMode = .wall

    static var allWays: [any BenchmarkWay.Type] { [DocStoreWay.self, SQLiteCWay.self, GRDBRecordsWay.self, GRDBJSONWay.self] }

    /// The workload for one way, W1 to W7 in WORKLOAD.md's order.
    func run(_ way: any BenchmarkWay.Type, players: [Player], keys: [Int], extra: [Player]) throws -> [Measurement] {
        let path = directory.appendingPathComponent("\(way.name).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let db = try way.init(path: path)
        defer { try? db.close() }
        var results: [Measurement] = []

        func record(_ id: String, _ name: String, _ body: () throws -> StepResult?) throws {
            let (step, seconds) = try Clock.time(timeMode, body)
            guard let step else { return }
            results.append(Measurement(id: id, name: name, count: step.count, seconds: seconds, checksum: step.checksum))
        }

        try record("W1", "insert") { try db.insertAll(players) }
        try record("W2", "get") { try db.get(keys: keys) }
        try record("W3", "scan") { try db.scan(teams: Workload.scanTeams, minimumNumber: Workload.scanMinimumNumber) }
        try record("W4i", "index") { try db.createTeamIndex() ? StepResult(count: n) : nil }
        try record("W4", "indexed") { try db.indexed(teams: Workload.indexedTeams) }
        try record("W5", "all") { try db.all() }
        try record("W6", "update") { try db.update(keys: 1...max(n / 10, 1)) }
        try record("W7", "commit") { try db.insertEach(extra) }
        try record("W8", "group") { try db.group(rounds: Workload.groupRounds) }
        if try db.insertTeams(Workload.teams) {
            try record("W9", "join") { try db.join(teams: Workload.joinedTeams) }
        }
        return results
    }

    /// All ways, `rounds` times over, interleaved; for each way and workload the
    /// fastest round is kept (a round is slower only because of noise).
    func runAll(ways: [any BenchmarkWay.Type], rounds: Int) throws -> [(name: String, results: [Measurement])] {
        let players = Workload.players(n)
        let keys = Workload.lookupKeys(n)
        let extra = (n + 1...n + Workload.commitCount).map(Workload.player)
        var best: [[Measurement]] = Array(repeating: [], count: ways.count)
        for round in 1...rounds {
            for (index, way) in ways.enumerated() {
                let results = try run(way, players: players, keys: keys, extra: extra)
                if best[index].isEmpty {
                    best[index] = results
                } else {
                    for (i, m) in results.enumerated() where m.seconds < best[index][i].seconds { best[index][i] = m }
                }
                if rounds == 1 { Self.print(way.name, results) }
            }
            if rounds > 1 { Output.note("round \(round) of \(rounds) done") }
        }
        if rounds > 1 {
            for (index, way) in ways.enumerated() { Self.print(way.name, best[index]) }
        }
        return zip(ways, best).map { ($0.name, $1) }
    }

    static func print(_ name: String, _ results: [Measurement]) {
        Output.line("# way \(name)")
        for m in results { Output.line(m.line) }
    }
}
