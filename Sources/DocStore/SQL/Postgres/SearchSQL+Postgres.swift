/// Full-text search on PostgreSQL: a GIN index on a `tsvector` of each searched
/// field, with DocStore's own words in it.
///
/// PostgreSQL's text search parses and folds words its own way (its parser's
/// token kinds, a dictionary's folding), which isn't what a search means on a
/// file store (``SearchTokenizer``: runs of letters and digits, each character
/// lowercased on its own, diacritics removed from Latin letters). So the vector
/// is built by one IMMUTABLE function, `docstore_search_vector(text)`, written
/// from ``SearchTokenizer``'s own tables: `translate` folds every character the
/// tokenizer folds, a bracket expression of the tokenizer's word characters
/// splits the words, and each word goes in at its position (for phrases). The
/// search text becomes a `tsquery` of the same folded words (`'home' <-> 'run':*`,
/// terms joined by `&`), bound as a value.
///
///     CREATE INDEX "docstore_search_1_0" ON "notes"
///         USING gin (docstore_search_vector(CASE WHEN jsonb_typeof(body -> E'text') = 'string' THEN (body -> E'text') #>> '{}' END))
///     … WHERE docstore_search_vector(…) @@ CAST($1 AS tsquery)
///
/// Ranking is PostgreSQL's `ts_rank_cd` (cover density), not FTS5's bm25: the
/// same documents match on both backends, their order by relevance may differ.
@_spi(Backends)
public enum PostgresSearchSQL {
    /// The search index catalog: one row per index, its collection and fields
    /// (a JSON array of paths, as the index catalog's).
    public static let catalogTable = "docstore_search_indexes"

    /// Creates the catalog when it is missing.
    public static let createCatalog = "CREATE TABLE IF NOT EXISTS \(catalogTable) (id bigserial PRIMARY KEY, name text COLLATE \"C\" UNIQUE NOT NULL, collection text COLLATE \"C\" NOT NULL, fields jsonb NOT NULL)"

    /// A collection's search indexes (`$1` collection): name, fields as JSON text.
    public static let indexes = "SELECT name, fields::text FROM \(catalogTable) WHERE collection = $1 ORDER BY id"

    /// Every search index: collection, name, fields as JSON text.
    public static let allIndexes = "SELECT collection, name, fields::text FROM \(catalogTable) ORDER BY id"

    /// Records an index (`$1` collection, `$2` fields as JSON text), returning its name.
    public static let recordIndex = "WITH n AS (SELECT nextval(pg_get_serial_sequence('\(catalogTable)', 'id')) AS id) INSERT INTO \(catalogTable) (id, name, collection, fields) SELECT n.id, 'docstore_search_' || n.id, $1, CAST($2 AS jsonb) FROM n RETURNING name"

    /// Forgets an index (`$1` name).
    public static let forgetIndex = "DELETE FROM \(catalogTable) WHERE name = $1"

    /// Forgets a collection's indexes (`$1` collection).
    public static let forgetIndexes = "DELETE FROM \(catalogTable) WHERE collection = $1"

    /// The function building a field's vector.
    static let function = "docstore_search_vector"

    /// Whether the function exists (a row when it does).
    public static let functionExists = "SELECT 1 FROM pg_proc WHERE proname = '\(function)' AND pronamespace = current_schema()::regnamespace"

    /// Creates (or replaces) the function. A vector that PostgreSQL can't hold
    /// (a text of more than a megabyte of words) is NULL rather than an error,
    /// so that writing such a document never fails: the document is then not
    /// found by searches on that field. Words longer than PostgreSQL's limit for
    /// one (2 046 bytes) are left out, and positions past 16 383 (its last)
    /// all count as that one.
    public static var createFunction: String { FoldingTables.shared.createFunction }

    /// The PostgreSQL indexes of a search index, one per field (`<name>_<n>`).
    public static func indexNames(_ index: SearchIndexInfo) -> [String] {
        index.fields.indices.map { "\(index.name)_\($0)" }
    }

    /// The statements creating a search index's GIN indexes.
    public static func create(_ index: SearchIndexInfo) throws -> [String] {
        try zip(indexNames(index), index.fields).map { name, field in
            "CREATE INDEX IF NOT EXISTS \(quoteIdentifier(name)) ON \(quoteIdentifier(index.collection)) USING gin ("
                + (try vector(of: field, collection: index.collection)).sql + ")"
        }
    }

    /// `docstore_search_vector(<the field's text, NULL unless a string>)`, the
    /// very expression the GIN index is on, so conditions use the index.
    static func vector(of path: FieldPath, collection: String) throws -> SQLFragment {
        guard !path.components.isEmpty else {
            throw DocStoreError.invalidQuery(collection: collection, field: path.description,
                                             reason: "the document itself can't be searched, only its string fields")
        }
        let field = try FieldSQL.checked(path, from: .document, collection: collection, dialect: .postgres)
        guard field.isIndexable else {
            throw DocStoreError.invalidQuery(collection: collection, field: path.description,
                                             reason: "a negative array position is never present, so no search index can hold it")
        }
        return "\(function)(CASE WHEN " + field.type + " = 'string' THEN " + field.value + " #>> '{}' END)"
    }

    /// The `tsquery` text meaning `search`: each term's words in a row (`<->`),
    /// the last with `:*` when it is a prefix, terms joined by `&`. The words
    /// are folded as the function folds them; each is quoted, so nothing in a
    /// search text is tsquery syntax.
    static func tsquery(_ search: SearchText) -> String {
        search.terms.map { term in
            let words = term.words.enumerated().map { offset, word in
                quoteLexeme(word) + (term.isPrefix && offset == term.words.count - 1 ? ":*" : "")
            }
            return words.count == 1 ? words[0] : "(" + words.joined(separator: " <-> ") + ")"
        }.joined(separator: " & ")
    }

    /// A word as a quoted lexeme of tsvector/tsquery text.
    static func quoteLexeme(_ word: String) -> String {
        "'" + word.replacingBytes(of: "\\", with: "\\\\").replacingBytes(of: "'", with: "''") + "'"
    }

    /// `(<document key> IN (SELECT key FROM <collection> WHERE <vector> @@ CAST(? AS tsquery)))`:
    /// two-valued, and the same in any scope that knows the document's key.
    static func match(_ path: FieldPath, collection: String, search: SearchText, documentKey: SQLFragment) throws -> SQLFragment {
        "(" + documentKey + " IN (SELECT key FROM " + SQLFragment(quoteIdentifier(collection)) + " WHERE "
            + (try vector(of: path, collection: collection)) + " @@ CAST(" + .bound(.text(tsquery(search))) + " AS tsquery)))"
    }

    /// `(SELECT key AS docstore_key, -ts_rank_cd(…) AS docstore_rank FROM … WHERE … @@ …)`:
    /// negated, so that the best comes first in ascending order, as bm25's.
    static func ranks(_ path: FieldPath, collection: String, search: SearchText) throws -> SQLFragment {
        let vector = try vector(of: path, collection: collection)
        let query: SQLFragment = "CAST(" + .bound(.text(tsquery(search))) + " AS tsquery)"
        return "(SELECT key AS docstore_key, -ts_rank_cd(" + vector + ", " + query + ") AS docstore_rank FROM "
            + SQLFragment(quoteIdentifier(collection)) + " WHERE " + vector + " @@ " + query + ")"
    }
}

/// ``SearchTokenizer``'s folding and word characters, read once from the
/// Unicode tables it uses, as the pieces of the SQL function.
private struct FoldingTables: Sendable {
    static let shared = FoldingTables()

    let createFunction: String

    init() {
        var from = String.UnicodeScalarView(), to = String.UnicodeScalarView(), dropped = String.UnicodeScalarView()
        var ranges: [(Unicode.Scalar, Unicode.Scalar)] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), SearchTokenizer.isWordScalar(scalar) else { continue }
            if let last = ranges.last, last.1.value == value - 1 { ranges[ranges.count - 1].1 = scalar } else { ranges.append((scalar, scalar)) }
            let folded = Array(SearchTokenizer.words(in: String(scalar)).first?.unicodeScalars ?? String.UnicodeScalarView())
            if folded == [scalar] { continue }
            if folded.isEmpty {
                dropped.append(scalar)
            } else {
                // The tokenizer folds no character to more than one (checked
                // when this was written); a longer folding keeps its first.
                from.append(scalar)
                to.append(folded[0])
            }
        }
        var separators = String.UnicodeScalarView()
        for (low, high) in ranges {
            separators.append(low)
            if high != low {
                separators.append("-")
                separators.append(high)
            }
        }
        let fold = "translate(w, \(quotePostgresString(String(from) + String(dropped))), \(quotePostgresString(String(to))))"
        let pattern = quotePostgresString("[^" + String(separators) + "]+")
        // Words first (ASCII lowercased by `lower` under "C", which touches
        // nothing else), then each word that isn't plain ASCII folded by
        // `translate` (whose cost grows with the text times its table, so it
        // only sees the words that need it); words folding to nothing are
        // dropped before the positions are counted, as the tokenizer drops them.
        createFunction = """
            CREATE OR REPLACE FUNCTION \(PostgresSearchSQL.function)(t text) RETURNS tsvector LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $docstore$
            BEGIN
                IF t IS NULL THEN RETURN NULL; END IF;
                RETURN CAST(coalesce((SELECT string_agg('''' || replace(replace(w, '\\', '\\\\'), '''', '''''') || ''':' || least(p, 16383), ' ')
                    FROM (SELECT w, row_number() OVER (ORDER BY n) AS p
                          FROM (SELECT CASE WHEN w ~ '^[a-z0-9]*$' THEN w ELSE \(fold) END AS w, n
                                FROM regexp_split_to_table(lower(t COLLATE "C"), \(pattern)) WITH ORDINALITY AS s(w, n)) AS folded
                          WHERE w <> '') AS numbered
                    WHERE octet_length(w) < 2047), '') AS tsvector);
            EXCEPTION WHEN OTHERS THEN
                RETURN NULL;
            END
            $docstore$
            """
    }
}
