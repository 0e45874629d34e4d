import DocStore

/// The sample data a `docstore` with no store file starts with: the classic
/// four teams of the AL East and four Red Sox players.
public enum SampleData {
    public static let teams: [JSONValue] = [
        ["id": 1, "city": "Boston", "nickName": "Red Sox", "abbreviation": "BOS"],
        ["id": 2, "city": "Baltimore", "nickName": "Orioles", "abbreviation": "BAL"],
        ["id": 3, "city": "Tampa Bay", "nickName": "Rays", "abbreviation": "TB"],
        ["id": 4, "city": "Toronto", "nickName": "Blue Jays", "abbreviation": "TOR"],
    ]

    /// Players, some with optional fields (a nickname, tags, stats) and some
    /// without, so that `== nil`, `.contains` and nested paths have something to find.
    public static let players: [JSONValue] = [
        ["id": 34, "teamId": 1, "firstName": "David", "lastName": "Ortiz", "number": 34, "position": "Designated Hitter",
         "nickname": "Big Papi", "tags": ["veteran", "slugger"], "stats": ["battingAverage": 0.286, "homeRuns": 541]],
        ["id": 12, "teamId": 1, "firstName": "Mike", "lastName": "Napoli", "number": 12, "position": "First Base",
         "tags": ["veteran"], "stats": ["battingAverage": 0.246, "homeRuns": 267]],
        ["id": 15, "teamId": 1, "firstName": "Dustin", "lastName": "Pedroia", "number": 15, "position": "Second Base",
         "nickname": "Laser Show", "tags": [], "stats": ["battingAverage": 0.299, "homeRuns": 140]],
        ["id": 2, "teamId": 1, "firstName": "Xander", "lastName": "Bogaerts", "number": 2, "position": "Shortstop",
         "tags": ["prospect"]],
    ]

    /// Creates `teams` and `players` in `store` (one transaction), and an index
    /// on the players' `teamId`, so `.explain` has an index to show.
    public static func load(into store: DocumentStore) throws {
        try store.write { transaction in
            try transaction.collection(named: "teams").insert(contentsOf: teams)
            try transaction.collection(named: "players").insert(contentsOf: players)
        }
        _ = try store.collection(named: "players").createIndex(on: [FieldPath("teamId")])
    }
}
