import DocStore
import Foundation
import GRDB

/// Issue 14's migration figures: a ``DocumentMigrator`` step renaming a field in
/// every document (`firstName` → `givenName`, with an index on it that follows),
/// and one converting a field's type with a Swift closure (`number`, an integer,
/// to a string), at N = 100 000 and 1 000 000; each in a fresh child process on a
/// freshly populated file, so its peak memory is its own. The peer: the same
/// rename written by hand in SQL on the same kind of file (drop the index, one
/// `UPDATE … json_set(json_remove(…))`, create the index), through GRDB.
///
///     docstore-bench --migration-only          all three, both sizes
///     docstore-bench --migrate PATH KIND       child: KIND is rename, convert or sql-rename
enum MigrationBenchmark {
    static let sizes = [100_000, 1_000_000]
    static let kinds = ["rename", "sql-rename", "convert"]

    /// Child: runs one kind of migration on a populated store and prints
    /// `changed= wall= cpu= before_kib= peak_kib=`.
    static func migrate(path: String, kind: String) throws {
        let store = try DocumentStore(path: path)
        let players = store.collection(named: "players")
        try players.createIndex(on: FieldPath("firstName"))   // untimed: the index the rename carries along
        let before = PeakMemory.peakKiB()
        let cpuStart = Clock.processCPUSeconds()
        let (changed, wall) = try Clock.time { () -> Int in
            switch kind {
            case "rename":
                var migrator = DocumentMigrator()
                migrator.registerMigration("given name") { try $0.collection(named: "players").rename("firstName", to: "givenName") }
                return try migrator.migrate(store).first?.changes.first?.documentsChanged ?? 0
            case "convert":
                var migrator = DocumentMigrator()
                migrator.registerMigration("number as text") { migration in
                    try migration.collection(named: "players").convert(FieldPath("number")) { (number: Int) in String(number) }
                }
                return try migrator.migrate(store).first?.changes.first?.documentsChanged ?? 0
            case "sql-rename":
                let index = try players.indexes()[0].name
                return try store.databaseWriter.write { db in
                    try db.execute(sql: "DROP INDEX \"\(index)\"")
                    try db.execute(sql: """
                        UPDATE players SET body = json_remove(json_set(body, '$."givenName"', json(body -> '$."firstName"')), '$."firstName"')
                        WHERE json_type(body, '$."firstName"') IS NOT NULL
                        """)
                    let changed = db.changesCount
                    try db.execute(sql: """
                        CREATE INDEX "\(index)" ON players (CASE json_type(body, '$."givenName"') WHEN 'true' THEN 1 WHEN 'false' THEN 1 \
                        WHEN 'integer' THEN 2 WHEN 'real' THEN 2 WHEN 'text' THEN 3 WHEN 'array' THEN 4 WHEN 'object' THEN 5 ELSE 0 END, \
                        json_extract(body, '$."givenName"'))
                        """)
                    return changed
                }
            default:
                throw BenchmarkError("unknown migration kind \(kind)")
            }
        }
        let cpu = Clock.processCPUSeconds() - cpuStart
        Output.line("changed=\(changed) wall=\(String(format: "%.3f", wall)) cpu=\(String(format: "%.3f", cpu)) before_kib=\(before) peak_kib=\(PeakMemory.peakKiB())")
    }

    struct Figure {
        var kind: String
        var n: Int
        var wall: Double
        var cpu: Double
        var beforeKiB: Int
        var peakKiB: Int

        var line: String {
            let id = ["rename": "M1", "sql-rename": "M1s", "convert": "M2"][kind] ?? kind
            return "\(id) migrate-\(kind) n=\(n) seconds=\(String(format: "%.3f", wall)) rate=\(Int(Double(n) / max(wall, 1e-9))) cpu=\(String(format: "%.3f", cpu)) peak_kib=\(peakKiB)"
        }
    }

    /// Parent: every kind at every size, each on a freshly populated file.
    static func run(in directory: URL) throws -> [Figure] {
        var figures: [Figure] = []
        for n in sizes {
            for kind in kinds {
                let path = directory.appendingPathComponent("migrate-\(kind)-\(n).sqlite").path
                defer {
                    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                }
                _ = try PeakMemory.runChild(["--populate", path, String(n)])
                let output = try PeakMemory.runChild(["--migrate", path, kind])
                var fields: [String: Double] = [:]
                for pair in output.split(whereSeparator: \.isWhitespace) {
                    let parts = pair.split(separator: "=")
                    if parts.count == 2, let value = Double(parts[1]) { fields[String(parts[0])] = value }
                }
                guard fields["changed"] == Double(n), let wall = fields["wall"], let cpu = fields["cpu"],
                      let before = fields["before_kib"], let peak = fields["peak_kib"] else {
                    throw BenchmarkError("--migrate \(kind) printed \(output)")
                }
                let figure = Figure(kind: kind, n: n, wall: wall, cpu: cpu, beforeKiB: Int(before), peakKiB: Int(peak))
                Output.line(figure.line)
                figures.append(figure)
            }
        }
        return figures
    }

    /// The stderr summary: DocStore against the hand-written SQL, and memory at
    /// both sizes.
    static func summary(_ figures: [Figure]) -> String {
        func figure(_ kind: String, _ n: Int) -> Figure? { figures.first { $0.kind == kind && $0.n == n } }
        var lines = ["migrations (issue 14), each in a fresh process on a fresh file, CPU time:"]
        for n in sizes {
            guard let rename = figure("rename", n), let sql = figure("sql-rename", n), let convert = figure("convert", n) else { continue }
            lines.append("  N=\(n): rename \(String(format: "%.2f", rename.cpu)) s (\(String(format: "%.2f", rename.cpu / max(sql.cpu, 1e-9)))x the SQL by hand, \(String(format: "%.2f", sql.cpu)) s); "
                + "convert \(String(format: "%.2f", convert.cpu)) s (\(String(format: "%.2f", convert.cpu * 1e6 / Double(n))) µs a document)")
        }
        for kind in kinds {
            guard let small = figure(kind, sizes[0]), let large = figure(kind, sizes[1]) else { continue }
            lines.append("  peak memory, \(kind): \(small.peakKiB) KiB at N=\(small.n), \(large.peakKiB) KiB at N=\(large.n) "
                + "(after opening: \(small.beforeKiB), \(large.beforeKiB)); ratio \(String(format: "%.2f", Double(large.peakKiB) / Double(small.peakKiB)))")
        }
        return lines.joined(separator: "\n")
    }
}
