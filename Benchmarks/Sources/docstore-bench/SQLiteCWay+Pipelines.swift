// W8 and W9 as hand-written SQL over the same JSON documents.
extension SQLiteCWay {
    func group(rounds: Int) throws -> StepResult? {
        let statement = try db.prepare("""
            SELECT \(Self.teamId), count(*), sum(\(Self.number)), max(json_extract(body, '$."battingAverage"'))
            FROM players GROUP BY \(Self.teamId)
            """)
        var result = StepResult()
        for _ in 0..<rounds {
            while try statement.step() {
                result.addGroup(teamId: statement.int(at: 0), count: statement.int(at: 1),
                                sum: statement.int(at: 2), maxAverage: statement.double(at: 3))
            }
            statement.reset()
        }
        return result
    }

    func insertTeams(_ teams: [BenchTeam]) throws -> Bool {
        try db.execute("CREATE TABLE teams (key INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        let statement = try db.prepare("INSERT INTO teams (key, body) VALUES (?, ?)")
        for team in teams {
            let json = Array(#"{"id":\#(team.id),"name":"\#(team.name)","city":"\#(team.city)"}"#.utf8)
            statement.bind(team.id, at: 1)
            try json.withUnsafeBufferPointer { bytes in
                statement.bindStatic(bytes, at: 2)
                _ = try statement.step()
            }
            statement.reset()
        }
        return true
    }

    func join(teams: Range<Int>) throws -> StepResult? {
        let statement = try db.prepare("""
            SELECT json_extract(p.body, '$."lastName"'), json_extract(t.body, '$."name"')
            FROM players AS p LEFT JOIN teams AS t ON t.key = json_extract(p.body, '$."teamId"')
            WHERE json_extract(p.body, '$."teamId"') = ? ORDER BY p.key
            """)
        var result = StepResult()
        for team in teams {
            statement.bind(team, at: 1)
            while try statement.step() {
                result.addJoined(lastName: String(decoding: statement.text(at: 0), as: UTF8.self),
                                 teamName: String(decoding: statement.text(at: 1), as: UTF8.self))
            }
            statement.reset()
        }
        return result
    }
}
