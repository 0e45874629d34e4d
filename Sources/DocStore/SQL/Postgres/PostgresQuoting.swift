/// The one function that puts a JSON path into PostgreSQL SQL text: a chain of
/// `->` steps, member names as escape-string literals and positions as integers:
///
///     [stats, battingAverage]  →  -> E'stats' -> E'battingAverage'
///     [tags, 2]                →  -> E'tags' -> 2
///
/// `nil` for a negative position (which `->` would count from the end, where
/// DocStore finds nothing). Like SQLite's paths (``quoteJSONPath(_:)``), paths
/// live in the text, not in bindings, so that an index expression can repeat
/// them. `E'…'` escapes `\` and `'` whatever `standard_conforming_strings` says;
/// member names holding NUL (which jsonb can't store) are refused before this.
func quotePostgresJSONPath<Components: Collection<FieldPath.Component>>(_ components: Components) -> String? {
    var path = ""
    for component in components {
        switch component {
        case .key(let key):
            path += " -> " + quotePostgresString(key)
        case .index(let index):
            guard index >= 0 else { return nil }
            path += " -> \(index)"
        }
    }
    return path
}

/// A PostgreSQL escape-string literal (`E'…'`) holding `text` exactly, for the
/// names a statement must repeat in its text (JSON paths). Never for values.
func quotePostgresString(_ text: String) -> String {
    var literal = "E'"
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": literal += "\\\\"
        case "'": literal += "\\'"
        default: literal.unicodeScalars.append(scalar)
        }
    }
    return literal + "'"
}

/// SQL text with each `?` parameter (outside string literals and quoted
/// identifiers) numbered `$1`, `$2`… as PostgreSQL writes them. The compiler
/// writes `?` for every dialect, so fragments concatenate the same way.
func numberPostgresParameters(_ sql: String) -> String {
    var result = ""
    result.reserveCapacity(sql.utf8.count + 16)
    var number = 0
    var quote: Character?
    var escapes = false
    var previous: Character?
    var skipNext = false
    for character in sql {
        defer { previous = character }
        if skipNext {
            skipNext = false
            result.append(character)
            continue
        }
        if let open = quote {
            if escapes && character == "\\" {
                skipNext = true
            } else if character == open {
                quote = nil
            }
            result.append(character)
            continue
        }
        switch character {
        case "'":
            quote = "'"
            escapes = previous == "E"
            result.append(character)
        case "\"":
            quote = "\""
            escapes = false
            result.append(character)
        case "?":
            number += 1
            result += "$\(number)"
        default:
            result.append(character)
        }
    }
    return result
}
