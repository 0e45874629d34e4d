import DocStore

// W3 and W4 through DocStore's typed query DSL, as a user writes them: `@Document`
// on Player gives `$0.teamId` and `$0.number` their types.
extension DocStoreWay {
    func scan(teams: Range<Int>, minimumNumber: Int) throws -> StepResult? {
        var result = StepResult()
        for team in teams {
            let found = try players.filter {
                $0.teamId == team
                $0.number >= minimumNumber
            }.fetch()
            for player in found { result.add(player) }
        }
        return result
    }

    func createTeamIndex() throws -> Bool {
        try players.createIndex(on: \.teamId)
        return true
    }

    func indexed(teams: Range<Int>) throws -> StepResult? {
        var result = StepResult()
        for team in teams {
            for player in try players.filter({ $0.teamId == team }).fetch() { result.add(player) }
        }
        return result
    }

    /// The SQL and plans DocStore runs for W3 and W4, from a small in-memory store
    /// (printed on stderr beside the table, to compare with the peers' SQL).
    static func explainQueries() throws -> String {
        let store = try DocumentStore.inMemory()
        let players = store.collection(Player.self)
        try players.insert(contentsOf: (1...100).map(Workload.player))
        let minimumNumber = Workload.scanMinimumNumber
        let scan = try players.filter { $0.teamId == 0; $0.number >= minimumNumber }.explain()
        try players.createIndex(on: \.teamId)
        let indexed = try players.filter { $0.teamId == 0 }.explain()
        return "DocStore's W3 query:\n\(scan)\nDocStore's W4 query (after W4i):\n\(indexed)"
    }
}
