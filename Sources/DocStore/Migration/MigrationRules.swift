import Foundation

/// The rules every backend's migrator follows, in one place: step names, the
/// steps a `migrate(upTo:)` covers, and the refusal of stores that ran steps the
/// code lacks.
@_spi(Backends)
public enum MigrationRules {
    /// Refuses an empty step name or two steps with one name.
    public static func checkRegistration(_ names: [String]) throws {
        var seen: Set<String> = []
        for name in names {
            if name.isEmpty {
                throw DocStoreError.invalidMigration(name: name, reason: "a step needs a name, which the store records")
            }
            guard seen.insert(name).inserted else {
                throw DocStoreError.invalidMigration(name: name, reason: "two steps are registered with this name; each name is recorded once, so each step needs its own")
            }
        }
    }

    /// How many of the registered steps `migrate(upTo: target)` covers (all when nil).
    public static func stepCount(upTo target: String?, of names: [String]) throws -> Int {
        guard let target else { return names.count }
        guard let end = names.firstIndex(of: target) else {
            throw DocStoreError.invalidMigration(name: target, reason: "no step of this name is registered, so the store can't be migrated up to it")
        }
        return end + 1
    }

    /// Refuses a store (named by `path`) that has run steps not registered.
    public static func refuseUnknown(_ applied: [AppliedMigration], registered: [String], path: String) throws {
        let registered = Set(registered)
        let unknown = applied.map(\.name).filter { !registered.contains($0) }
        if !unknown.isEmpty { throw DocStoreError.unknownMigrations(path: path, names: unknown) }
    }

    /// A stored field value decoded as `Old` and converted by `transform`, or an
    /// error naming the collection, the document and the field.
    public static func converted<Old: Decodable, New>(
        _ json: [UInt8], at path: FieldPath, collection: String, key: DocumentKey, _ transform: (Old) throws -> New
    ) throws -> New {
        let old: Old
        do {
            old = try DocumentCodec.decode(Old.self, from: json)
        } catch {
            let shown = String(decoding: json.prefix(80), as: UTF8.self) + (json.count > 80 ? "…" : "")
            throw DocStoreError.invalidUpdate(collection: collection, field: path.description, key: key,
                                              reason: "the stored value \(shown) is not a \(Old.self) (\(error.reason))")
        }
        do {
            return try transform(old)
        } catch {
            throw DocStoreError.invalidUpdate(collection: collection, field: path.description, key: key,
                                              reason: "the conversion threw: \(describe(error))")
        }
    }

    private static func describe(_ error: any Error) -> String {
        (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
    }
}
