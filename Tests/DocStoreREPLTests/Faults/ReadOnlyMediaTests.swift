import Foundation
import Testing

/// A store on a read-only file system (a read-only mount, a snapshot, a backup
/// medium) can be read with `--read-only`: SQLite can't create a WAL store's
/// `-shm` index there, so DocStore opens the file as immutable — unless a
/// write-ahead log beside it holds commits the file doesn't, which immutable
/// would hide. The file system is a real tmpfs, mounted read-write, filled,
/// then remounted read-only, in a private mount namespace (`unshare`), so the
/// mount ends with the test's shell whatever happens.
@Suite("Fault: a store on a read-only file system")
struct ReadOnlyMediaTests {
    @Test func aCleanlyClosedStoreIsReadWithReadOnly() throws {
        let run = try runInPrivateTmpfs("""
            "$D" s.sqlite -c 'teams.insert([{"id": 1, "city": "Boston"}, {"id": 2, "city": "Chicago"}, {"id": 3}])' >/dev/null
            test ! -e s.sqlite-wal   # closed: everything is in the file
            cd /; mount -o remount,ro "$M"
            plain=$("$D" "$M/s.sqlite" -c 'teams.count()' 2>&1) && echo "plain: opened" || echo "plain: rc=$? $plain" | tr '\n' ' '; echo
            "$D" "$M/s.sqlite" --read-only --mode ndjson -c 'teams.filter { $0.city == "Chicago" }' -c 'teams.count()'
            """)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        // Opened to write, it says why it can't and what to do.
        #expect(lines.first?.hasPrefix("plain: rc=1 ") == true, "\(run.stdout)")
        #expect(lines.first?.contains("can't be written") == true && lines.first?.contains("--read-only") == true, "\(run.stdout)")
        #expect(Array(lines.dropFirst()) == [#"{"id":2,"city":"Chicago"}"#, "3"], "\(run.stdout)")
    }

    @Test func commitsStillInTheWriteAheadLogAreNotHidden() throws {
        // The last writer died before its commit reached the file: the -wal holds it.
        let run = try runInPrivateTmpfs("""
            "$D" s.sqlite -c 'teams.insert([{"id": 1}, {"id": 2}])' >/dev/null
            python3 - <<'PY'
            import os, sqlite3
            c = sqlite3.connect("s.sqlite")
            c.execute("PRAGMA wal_autocheckpoint = 0")
            c.execute("INSERT INTO teams (key, body) VALUES (3, '{\\"id\\":3}')")
            c.commit()
            os._exit(0)  # no checkpoint: the commit stays in s.sqlite-wal
            PY
            test -s s.sqlite-wal
            cd /; mount -o remount,ro "$M"
            "$D" "$M/s.sqlite" --read-only -c 'teams.count()'
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "3", "the commit in the -wal is read: \(run.stdout)")
    }
}
