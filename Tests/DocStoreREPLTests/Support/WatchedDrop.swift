import Foundation
import Testing

/// Runs `docstore STORE -c '.watch QUERY'` (STORE a file or a URL), waits for
/// its first result, drops `collection` from another docstore process, and
/// checks that the watch stopped by itself, saying so, where it printed 0 or
/// [] and watched on (helper-55).
func expectAWatchStopsWhenAnotherProcessDrops(_ collection: String, in store: String, watching query: String, firstResult: String,
                                              sourceLocation: SourceLocation = #_sourceLocation) throws {
    let watching = try PipedSession([store, "-c", ".watch " + query])
    #expect(watching.availableOutput() == firstResult, sourceLocation: sourceLocation)
    let drop = try runProcess(try docstoreBinary(), [store, "-c", ".drop " + collection])
    #expect(drop.status == 0, "\(drop.stderr)", sourceLocation: sourceLocation)
    let ended = try #require(watching.ended(within: 20), "the watch went on after the drop", sourceLocation: sourceLocation)
    #expect(ended.status == 1, sourceLocation: sourceLocation)
    #expect(ended.stdout.isEmpty, "no result for a dropped collection: \(ended.stdout)", sourceLocation: sourceLocation)
    #expect(ended.stderr.contains(#"error at line 1: another session dropped "\#(collection)" (stopped watching); watch it again once it is made anew"#),
            "\(ended.stderr)", sourceLocation: sourceLocation)
    #expect(!ended.stderr.contains("SQLSTATE"), "\(ended.stderr)", sourceLocation: sourceLocation)
}
