import DocStore

// W8 and W9 through the typed DSL, as a user writes them.
extension DocStoreWay {
    func group(rounds: Int) throws -> StepResult? {
        var result = StepResult()
        for _ in 0..<rounds {
            let rows = try players.query
                .group(by: \.teamId) { (count: $0.count(), total: $0.sum(\.number), best: $0.max(\.battingAverage)) }
                .fetch()
            for row in rows {
                result.addGroup(teamId: row.teamId, count: row.count, sum: row.total, maxAverage: row.best ?? 0)
            }
        }
        return result
    }

    func insertTeams(_ teams: [BenchTeam]) throws -> Bool {
        try store.collection(BenchTeam.self, named: "teams").insert(contentsOf: teams)
        return true
    }

    func join(teams: Range<Int>) throws -> StepResult? {
        let roster = store.collection(RosterLine.self, named: "players")
        let teamCollection = store.collection(BenchTeam.self, named: "teams")
        var result = StepResult()
        for team in teams {
            let rows = try roster.filter { $0.teamId == team }
                .join(teamCollection, onKey: \.teamId, as: \.team)
                .select { ($0.lastName, $0.team.name) }
            for (lastName, name) in rows { result.addJoined(lastName: lastName, teamName: name ?? "") }
        }
        return result
    }
}
