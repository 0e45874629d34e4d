/// The one function that puts a JSON path's member name into PostgreSQL SQL
/// text: an escape-string literal (`E'…'`) holding `text` exactly, which `E'…'`
/// escapes (`\\`, `\'`) whatever `standard_conforming_strings` says. Paths live in
/// the text, not in bindings, so that an index expression can repeat them
/// (``FieldSQL/postgresValue(_:_:)`` builds the path). Never for values; names
/// holding NUL (which jsonb can't store) are refused before this.
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
