import DocStore
import Foundation
@testable import DocStoreREPL

/// What import suites share: a temporary folder for their files, a store in
/// memory, and the calls that write a file and import it.
protocol ImportFixture {
    var directory: URL { get }
    var store: DocumentStore { get }
    /// The collection `importFile` fills when none is named.
    static var defaultCollection: String { get }
    /// Documents per transaction batch; small values exercise batch boundaries.
    static var batchSize: Int? { get }
}

extension ImportFixture {
    static var batchSize: Int? { nil }

    /// Writes `text` into a file named `name` in the fixture's folder; returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func importFile(_ path: String, into collection: String = Self.defaultCollection,
                    _ options: ImportOptions = ImportOptions()) throws -> ImportReport {
        var importer = Importer(store: store, collection: collection, options: options)
        if let batchSize = Self.batchSize { importer.batchSize = batchSize }
        return try importer.importFile(atPath: path)
    }

    /// The error `body` throws, as text; nil when it throws none.
    func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
