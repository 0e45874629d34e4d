import Foundation
import Testing

@Suite("The Playground tour")
struct PlaygroundTests {
    /// Runs the built Playground executable (beside the test bundle) and returns its output.
    func runPlayground() throws -> (output: String, status: Int32) {
        let executable = try builtExecutable(named: "Playground")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "Playground not built at \(executable.path)")
        let process = Process()
        process.executableURL = executable
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }

    @Test func theTourRunsEveryStepAndShowsWhatItDid() throws {
        let (output, status) = try runPlayground()
        #expect(status == 0, "\(output)")
        let steps = output.split(separator: "\n").filter { $0.hasPrefix("== ") }
        #expect(steps.count == 12)
        #expect(output.contains("4 teams, 4 players"))
        #expect(output.contains("team 1: Boston Red Sox"))
        #expect(output.contains("team 9: none"))
        // Sorted by last name, then by number.
        #expect(output.contains("#2 Xander Bogaerts, Shortstop\n#12 Mike Napoli, First Base\n#34 David Ortiz, Designated Hitter\n#15 Dustin Pedroia, Second Base"))
        #expect(output.contains("#2 Bogaerts, #12 Napoli, #15 Pedroia, #34 Ortiz"))
        #expect(output.contains("#12 Mike Napoli, First Base\n#15 Dustin Pedroia, Second Base\nplayers without a nickname: 2"))
        #expect(output.contains("now #44 Mike Napoli, First Base"))
        #expect(output.contains("moved 1 player(s): Bogaerts"))
        #expect(output.contains("uses an index: true"))
        #expect(output.contains("3 players left"))
        #expect(output.contains("rolled back: 4 teams, 3 players"))
        // 12: the repository and the view model.
        #expect(output.contains("by \"lastName\": Bogaerts, Napoli, Ortiz, Pedroia\n"))
        #expect(output.contains("by \"lastname\": cannot sort Player by \"lastname\": it has no such sortable field (known: firstName, lastName, number, position, teamId)\n"))
        #expect(output.contains("roster: Bogaerts, Napoli, Pedroia, Ortiz (4 in the league)\n"))
        #expect(output.contains("signed: #2 Bogaerts, #12 Napoli, #13 Ramirez, #15 Pedroia, #34 Ortiz\n"))
        #expect(output.contains("updated: #99 David Ortiz, Designated Hitter\n"))
        #expect(output.contains("a Blue Jay signs: roster still 5, league 6\n"))
        #expect(output.contains("Blue Jays: Bautista\n"))
        #expect(output.contains("after deleteAll: roster 0, league 0\n"))
        #expect(output.contains("after reset: 0 teams\n"))
        #expect(!output.contains("error:"))
    }
}
