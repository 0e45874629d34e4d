/// The fields of a collection, learnt from a sample of its documents: every path
/// to a member (objects are walked into; arrays are not), the JSON types seen at
/// each, and in how many sampled documents.
package struct FieldSample: Sendable {
    package var sampled = 0
    /// Damaged documents (not valid JSON) left out of the sample: `.check` lists them.
    package var damagedSkipped = 0
    package var fields: [FieldPath: (types: Set<String>, documents: Int)] = [:]
    /// Paths in the order they were first seen, so `.schema` follows the documents.
    package var order: [FieldPath] = []
    /// Whether every document was read, not a sample of them.
    package var sampledEveryDocument = false

    package init() {}

    package mutating func add(_ document: JSONValue) {
        sampled += 1
        var seen: Set<FieldPath> = []
        walk(document, at: .root, seen: &seen)
    }

    private mutating func walk(_ value: JSONValue, at path: FieldPath, seen: inout Set<FieldPath>) {
        guard case .object(let members) = value else { return }
        for (key, member) in members {
            let memberPath = path.appending(key)
            let type = Self.typeName(member)
            if fields[memberPath] == nil { order.append(memberPath) }
            var entry = fields[memberPath] ?? ([], 0)
            entry.types.insert(type)
            if seen.insert(memberPath).inserted { entry.documents += 1 }
            fields[memberPath] = entry
            walk(member, at: memberPath, seen: &seen)
        }
    }

    /// `JSONValue.typeName`, with both booleans as `boolean`.
    package static func typeName(_ value: JSONValue) -> String {
        if case .bool = value { return "boolean" }
        return value.typeName
    }
}

