import Foundation

/// The ratio table and the issue's targets, printed on stderr after the last way.
struct Report {
    let ways: [(name: String, results: [Measurement])]
    static let order = [("W1", "insert"), ("W2", "get"), ("W3", "scan"), ("W4i", "index"),
                        ("W4", "indexed"), ("W5", "all"), ("W6", "update"), ("W7", "commit"),
                        ("W8", "group"), ("W9", "join")]

    func measurement(_ way: String, _ id: String) -> Measurement? {
        ways.first { $0.name == way }?.results.first { $0.id == id }
    }

    /// DocStore's time per document over the peer's.
    func ratio(_ id: String, to peer: String) -> Double? {
        guard let docstore = measurement(DocStoreWay.name, id), let other = measurement(peer, id) else { return nil }
        return docstore.secondsPerItem / other.secondsPerItem
    }

    func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    func table() -> String {
        let peers = ways.map(\.name).filter { $0 != DocStoreWay.name }
        var lines: [String] = []
        var header = "workload    "
        for way in ways { header += pad(way.name, 14) }
        for peer in peers { header += pad("ds/" + peer, 16) }
        lines.append("rates (docs/s; W7 commits/s) and DocStore's time as a ratio to each peer's:")
        lines.append(header)
        for (id, name) in Self.order {
            var line = (id + " " + name).padding(toLength: 12, withPad: " ", startingAt: 0)
            for way in ways {
                line += pad(measurement(way.name, id).map { String(Int($0.rate)) } ?? "-", 14)
            }
            for peer in peers {
                line += pad(ratio(id, to: peer).map { String(format: "%.2fx", $0) } ?? "-", 16)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// Ways whose counts or checksums differ from the first way that has the workload.
    func mismatches() -> [String] {
        var problems: [String] = []
        for (id, name) in Self.order {
            let all = ways.compactMap { way in measurement(way.name, id).map { (way.name, $0) } }
            guard let (referenceName, reference) = all.first else { continue }
            for (wayName, m) in all.dropFirst() where m.count != reference.count || m.checksum != reference.checksum {
                problems.append("\(id) \(name): \(wayName) n=\(m.count) checksum=\(m.checksum ?? 0), "
                    + "\(referenceName) n=\(reference.count) checksum=\(reference.checksum ?? 0)")
            }
        }
        return problems
    }

    /// The issue's targets, each marked met or missed.
    func targets(memoryRatio: Double?) -> String {
        var lines = ["targets (issue 5):"]
        func check(_ label: String, _ value: Double?, _ limit: Double, strict: Bool = false) {
            guard let value else { lines.append("  \(label): not measured"); return }
            let met = strict ? value < limit : value <= limit
            lines.append("  \(label): \(String(format: "%.2f", value)) \(strict ? "<" : "≤") \(limit) \(met ? "met" : "MISSED")")
        }
        for id in ["W1", "W2", "W4", "W5", "W6"] { check("\(id) docstore/sqlite-c", ratio(id, to: SQLiteCWay.name), 1.5) }
        for id in ["W3", "W7"] { check("\(id) docstore/sqlite-c", ratio(id, to: SQLiteCWay.name), 2) }
        for id in ["W1", "W2", "W3", "W4", "W5", "W6", "W7"] {
            check("\(id) docstore/grdb-json", ratio(id, to: GRDBJSONWay.name), 1, strict: true)
        }
        for id in ["W1", "W2", "W5", "W6"] { check("\(id) docstore/grdb-records", ratio(id, to: GRDBRecordsWay.name), 1) }
        check("W5 peak memory N=1000000 / N=100000", memoryRatio, 1.2)
        for id in ["W8", "W9"] { check("\(id) docstore/sqlite-c (issue 11)", ratio(id, to: SQLiteCWay.name), 1.3) }
        return lines.joined(separator: "\n")
    }
}
