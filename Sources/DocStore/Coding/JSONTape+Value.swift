import OrderedCollections

extension JSONTape {
    /// Builds the `JSONValue` at `index` (recursion is bounded by the parser's
    /// depth limit). Integers that fit `Int64` become `.integer`, reals a
    /// `Double` holds become `.double`, and other numbers (larger integers, more
    /// digits than a `Double` keeps) `.exactNumber`, digit for digit.
    func value(at index: Int) -> JSONValue {
        let entry = entries[index]
        switch entry.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .string: return .string(string(entry))
        case .integer:
            let text = text(of: entry)
            if let integer = JSONNumberText.integer(text), let exact = JSONNumberText.exact(integer, as: Int64.self) {
                return .integer(exact)
            }
            return JSONNumberLiteral.value(ofValidText: text)
        case .real:
            return JSONNumberLiteral.value(ofValidText: text(of: entry))
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(entry.count))
            var child = index + 1
            while child < Int(entry.end) {
                elements.append(value(at: child))
                child = next(after: child)
            }
            return .array(elements)
        case .object:
            var members = OrderedDictionary<String, JSONValue>(minimumCapacity: Int(entry.count))
            var child = index + 1
            while child < Int(entry.end) {
                let key = string(entries[child])
                // Duplicate keys (written by another tool): the first one wins,
                // as in SQLite's JSON functions, so queries and reads agree.
                if !entry.hasDuplicateKeys || members[key] == nil {
                    members[key] = value(at: child + 1)
                }
                child = next(after: child + 1)
            }
            return .object(members)
        }
    }
}
