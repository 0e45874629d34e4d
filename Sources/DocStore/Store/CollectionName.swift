/// Rules for collection names and the default name of a model's collection.
enum CollectionName {
    /// Names are used as SQLite table names (quoted), so any text works except
    /// an empty name, NUL, and the prefixes SQLite and DocStore reserve.
    static func validate(_ name: String) throws(DocStoreError) {
        if name.isEmpty {
            throw .invalidCollectionName(name, reason: "the name is empty")
        }
        if name.utf8.contains(0) {
            throw .invalidCollectionName(name, reason: "the name contains a NUL character")
        }
        let lower = name.lowercased()
        for reserved in ["sqlite_", "docstore_"] where lower.hasPrefix(reserved) {
            throw .invalidCollectionName(name, reason: "names starting with \"\(reserved)\" are reserved")
        }
    }

    /// The default collection name for a model type: the type's name with its first
    /// letter lowercased, in the plural (`Team` → `teams`, `Category` → `categories`,
    /// `Match` → `matches`). Give a name explicitly when English plurals surprise.
    static func defaultName<T>(for type: T.Type) -> String {
        let typeName = String(describing: type)
        guard let first = typeName.first else { return typeName }
        let base = first.lowercased() + typeName.dropFirst()
        return pluralize(base)
    }

    /// Why `type` can't have a default name, or nil when it can. A generic type's
    /// specializations are different types: one name for all of them (`boxes`)
    /// would mix `Box<Int>` and `Box<String>` documents in one collection from one
    /// run to the next, and a name spelling the arguments out (`box<Int>s`) changes
    /// whenever an argument type is renamed or moved. So the caller names it.
    static func defaultNameProblem<T>(for type: T.Type) -> DocStoreError? {
        guard String(describing: type).contains("<") else { return nil }
        return .noDefaultCollectionName(
            type: String(reflecting: type),
            reason: "it is a generic type, and a name derived from it would either mix its specializations' documents or change when a type argument is renamed")
    }

    private static func pluralize(_ word: String) -> String {
        let lower = word.lowercased()
        if ["s", "x", "z", "ch", "sh"].contains(where: { lower.hasSuffix($0) }) {
            return word + "es"
        }
        if lower.hasSuffix("y"), let beforeY = lower.dropLast().last, !"aeiou".contains(beforeY) {
            return word.dropLast() + "ies"
        }
        return word + "s"
    }
}
