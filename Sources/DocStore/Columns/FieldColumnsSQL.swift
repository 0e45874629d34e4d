/// The SQL of field columns (``FieldColumnsInfo``): the table, the triggers that
/// keep it in step with the collection's, and the expressions queries read
/// instead of the documents' JSON.
///
///     CREATE TABLE "docstore_columns_1" (k INTEGER PRIMARY KEY, t0, r0, v0, t1, r1, v1)
///     CREATE TRIGGER … AFTER INSERT ON "batting" BEGIN
///         INSERT OR REPLACE INTO "docstore_columns_1" (k, t0, r0, v0, …)
///         VALUES (new.key, json_type(new.body, '$."HR"'), CASE json_type(…) … END, json_extract(new.body, '$."HR"'), …); END
///
/// Field `i` has three columns holding exactly the compiler's expressions for it
/// (``FieldSQL``): `t<i>` its `json_type`, `r<i>` its rank, `v<i>` its
/// `json_extract` value. The columns have no type affinity, so each holds the
/// value as the expression returned it, and a query that reads `v0` where it
/// would have read `json_extract(body, '$."HR"')` gets the same answer, bit for bit.
///
/// Every statement writing the collection fires the triggers inside its own
/// transaction, so a rollback undoes the columns' changes with the documents'.
enum FieldColumnsSQL {
    /// The alias queries give the columns' table.
    static let alias = "docstore_columns"

    /// The statements creating the table and its triggers over an existing
    /// collection table, and filling it from the documents already stored.
    static func create(_ columns: FieldColumnsInfo, keyKind: KeyKind) throws -> [String] {
        let table = quoteIdentifier(columns.name)
        let collection = quoteIdentifier(columns.collection)
        let names = columns.fields.indices.flatMap { ["t\($0)", "r\($0)", "v\($0)"] }
        let key = keyKind == .integer ? "k INTEGER PRIMARY KEY" : "k TEXT PRIMARY KEY NOT NULL"
        let rowid = keyKind == .integer ? "" : " WITHOUT ROWID"
        let list = (["k"] + names).joined(separator: ", ")
        let write = "INSERT OR REPLACE INTO \(table) (\(list)) VALUES (new.key, \(try values(columns, body: "new.body")));"
        let remove = "DELETE FROM \(table) WHERE k = old.key;"
        return [
            "CREATE TABLE \(table) (\(([key] + names).joined(separator: ", ")))\(rowid)",
            "CREATE TRIGGER \(quoteIdentifier(columns.name + "_insert")) AFTER INSERT ON \(collection) BEGIN \(write) END",
            "CREATE TRIGGER \(quoteIdentifier(columns.name + "_update")) AFTER UPDATE ON \(collection) BEGIN \(remove) \(write) END",
            "CREATE TRIGGER \(quoteIdentifier(columns.name + "_delete")) AFTER DELETE ON \(collection) BEGIN \(remove) END",
            "INSERT INTO \(table) (\(list)) SELECT key, \(try values(columns, body: "body")) FROM \(collection)",
        ]
    }

    /// The statements dropping the table and its triggers (whether or not they exist).
    static func drop(_ columns: FieldColumnsInfo) -> [String] {
        ["_insert", "_update", "_delete"].map { "DROP TRIGGER IF EXISTS \(quoteIdentifier(columns.name + $0))" }
            + ["DROP TABLE IF EXISTS \(quoteIdentifier(columns.name))"]
    }

    /// `LEFT JOIN "docstore_columns_1" AS docstore_columns ON docstore_columns.k = <key>`:
    /// every document has its row, so the join never drops or repeats one.
    static func join(_ columns: FieldColumnsInfo, key: String) -> String {
        " LEFT JOIN \(quoteIdentifier(columns.name)) AS \(alias) ON \(alias).k = \(key)"
    }

    /// The expressions reading `path` from its columns (through ``alias``), or nil
    /// when it has none. Arrays' elements and the JSON text still come from `json`,
    /// the document's expressions for the same path.
    static func field(_ path: FieldPath, in columns: FieldColumnsInfo, json: FieldSQL) -> FieldSQL? {
        guard let position = columns.position(of: path) else { return nil }
        var field = json
        field.type = SQLFragment("\(alias).t\(position)")
        field.knownRank = SQLFragment("\(alias).r\(position)")
        field.value = SQLFragment("\(alias).v\(position)")
        field.isIndexable = false
        return field
    }

    /// The type, rank and value expressions of every field, read from `body`.
    private static func values(_ columns: FieldColumnsInfo, body: String) throws -> String {
        try columns.fields.map { path in
            _ = try IndexSQL.indexableField(path, collection: columns.collection, purpose: "field column")
            let field = FieldSQL(path, from: .json(SQLFragment(body)))
            return [field.type.sql, field.rank.sql, field.value.sql].joined(separator: ", ")
        }.joined(separator: ", ")
    }
}

/// How one statement reads a collection's fields when it has field columns: from
/// the columns, except fields that start an index, whose expressions conditions
/// and sorts seek in the index instead.
struct ColumnReads {
    let columns: FieldColumnsInfo
    let indexed: Set<FieldPath>

    /// The expressions reading `path`: its columns', or `json` (the document's) unchanged.
    func field(_ path: FieldPath, json: FieldSQL) -> FieldSQL {
        guard !indexed.contains(path) else { return json }
        return FieldColumnsSQL.field(path, in: columns, json: json) ?? json
    }

    /// The join bringing the columns' row of the document whose key is `key`.
    func join(key: String) -> String {
        FieldColumnsSQL.join(columns, key: key)
    }

    /// The columns' table alone, under the alias queries read it by.
    var table: String {
        quoteIdentifier(columns.name) + " AS " + FieldColumnsSQL.alias
    }
}
