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
///
/// It reads Unicode scalars, not `Character`s: a quote followed by a combining
/// mark (a member name `\u{301}?` quoted as `E'\u{301}?'`) is one `Character`,
/// and reading by `Character` would miss that quote and number the `?` inside it.
func numberPostgresParameters(_ sql: String) -> String {
    var result = String.UnicodeScalarView()
    var number = 0
    var quote: Unicode.Scalar?
    var escapes = false
    var previous: Unicode.Scalar?
    var skipNext = false
    for scalar in sql.unicodeScalars {
        defer { previous = scalar }
        if skipNext {
            skipNext = false
            result.append(scalar)
            continue
        }
        if let open = quote {
            if escapes && scalar == "\\" {
                skipNext = true
            } else if scalar == open {
                quote = nil
            }
            result.append(scalar)
            continue
        }
        switch scalar {
        case "'":
            quote = "'"
            escapes = previous == "E"
            result.append(scalar)
        case "\"":
            quote = "\""
            escapes = false
            result.append(scalar)
        case "?":
            number += 1
            result.append(contentsOf: "$\(number)".unicodeScalars)
        default:
            result.append(scalar)
        }
    }
    return String(result)
}
