import Foundation
import Testing

/// `.output FILE` replaces FILE when it ends. On a full disk the error said
/// FILE "was not changed", and then the end of `.output` replaced it with the
/// results written before the failure (an empty file, for a failing first
/// query: helper-60). Now a failed write leaves FILE as it was for good, and
/// later results are refused rather than sent somewhere else.
@Suite("Fault: disk full while .output writes")
struct DiskFullOutputTests {
    @Test func aFullDiskLeavesOutputsFileAsItWas() throws {
        let run = try runInPrivateTmpfs("""
            echo precious > o.txt
            dd if=/dev/zero of=fill bs=4k 2>/dev/null || true   # the disk is full
            set +e
            printf '.output o.txt\\nteams\\nplayers\\n.output\\nteams.count()\\n' | "$D" --keep-going 2>/dev/stdout
            echo "rc=$?"
            echo "o.txt: $(cat o.txt)"
            """, size: "2m")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "o.txt: precious", "\(run.stdout)\(run.stderr)")
        #expect(lines.contains("rc=1"), "\(run.stdout)")
        // The failed write says what happened and what comes next.
        #expect(lines.contains { $0.hasPrefix("error at line 2: disk full while writing o.txt; it was not changed") && $0.contains(".output won't change it either") },
                "\(run.stdout)")
        // The next result is refused, not printed elsewhere; after `.output`
        // ends, results go to the standard output.
        #expect(lines.contains { $0.hasPrefix("error at line 3: results can't go to o.txt: writing it failed") }, "\(run.stdout)")
        #expect(lines.contains("4"), "teams.count() after .output: \(run.stdout)")
    }
}
