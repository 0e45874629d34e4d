/// The triggers behind live queries on PostgreSQL: each collection table tells
/// listeners, through `NOTIFY`, which keys each statement wrote, and each
/// transaction that wrote any says when it committed.
///
/// - Each statement that inserts, updates or deletes rows sends one notice per
///   ~6 000 bytes of keys (`NOTIFY` payloads hold at most 8 000 bytes), from a
///   statement-level trigger reading the statement's transition tables: a
///   1 000-row insert costs a few notices, not 1 000. A statement writing more
///   than 10 000 rows, a key longer than 1 000 bytes, or an update that changes
///   a key sends one notice without keys ("anything in the collection may have
///   changed"); so do `TRUNCATE` and dropping the collection.
/// - The first statement of a transaction that sends a notice also inserts a
///   row in `docstore_live_commits`, whose deferred constraint trigger fires at
///   commit and sends the transaction's end notice (then deletes the row by
///   its `ctid`, kept in a transaction-local setting: deleting by `x` scanned
///   the table's dead rows, a cost that grew with each commit until vacuum): a
///   listener knows the transaction is complete and hands it on at once. The
///   deferred trigger sits on that table, not on the collections': PostgreSQL
///   refuses DDL (`CREATE INDEX`, `DROP TABLE`) on a table with pending
///   deferred events, and a transaction may write documents and then do both.
/// - A single-row write sent outside a transaction (`insert`, `save`, `update`,
///   `delete` of one document) says so (``aloneMark``): its statement is the
///   whole transaction, so its notice carries `"end": true` itself and no
///   commit mark is written. Listeners of earlier versions read such a notice
///   the same way (an end notice with keys).
///
/// Notices are JSON: `{"x": txid, "c": collection, "o": "i"|"u"|"d"|"t", "s": n,
/// "k": [keys]}` (no `"k"`: any key; `"end": true` on a lone statement's), and
/// `{"x": txid, "end": true}`. `"s"`
/// numbers a transaction's notices, so that `NOTIFY` never folds two equal
/// ones into one. `NOTIFY` is transactional: a rolled-back transaction (or
/// savepoint) sends nothing. The channel is per schema (``notifyChannel``), so
/// stores in different schemas of one database don't hear each other.
@_spi(Backends)
extension PostgresStoreSQL {
    /// Written as the functions' comment: a store opened by a newer DocStore
    /// replaces functions of another version.
    public static let liveTriggersVersion = "docstore live triggers v6"

    /// The channel of the store in the session's current schema (a text value).
    public static let notifyChannel = "SELECT 'docstore_' || md5(current_schema())"

    /// The channel expression inside a trigger.
    private static let channel = "'docstore_' || md5(TG_TABLE_SCHEMA)"

    /// Serializes installing the triggers between processes opening the same
    /// store (`CREATE OR REPLACE FUNCTION` concurrently fails otherwise).
    public static let lockLiveTriggers = "SELECT pg_advisory_xact_lock(7305872690212763953)"

    /// Takes a table lock, which makes the server process the catalog changes
    /// other sessions committed (an advisory lock alone doesn't).
    public static let refreshCatalogCache = "LOCK TABLE \(catalogTable) IN ACCESS SHARE MODE"

    /// The installed functions' version (a text value; no row or null when missing).
    public static let installedLiveTriggersVersion =
        "SELECT obj_description(to_regproc('docstore_notify_rows'), 'pg_proc')"

    /// The collections of the catalog whose table lacks a notice trigger (made
    /// before live queries existed, or by a process that skipped them).
    public static let collectionsWithoutLiveTriggers = """
        SELECT c.name FROM \(catalogTable) c \
        WHERE to_regclass(quote_ident(c.name)) IS NOT NULL AND \(documentTableTest("to_regclass(quote_ident(c.name))")) AND (\
        SELECT count(*) FROM pg_trigger t WHERE t.tgrelid = to_regclass(quote_ident(c.name)) AND t.tgname IN \
        ('docstore_notify_insert', 'docstore_notify_update', 'docstore_notify_delete', 'docstore_notify_truncate')) < 4 \
        ORDER BY c.name
        """

    /// The schema the store's functions are created in (a text value).
    public static let currentSchema = "SELECT current_schema()"

    /// The statements creating (or replacing) the trigger functions, the table
    /// of commit marks and its trigger, and the catalog's trigger that reports
    /// dropped collections, in `schema` (the session's current one).
    ///
    /// The functions name the schema's objects qualified, as static SQL: a
    /// writer whose `search_path` differs still reaches them, and PL/pgSQL plans
    /// static statements once per session, where `EXECUTE format(…)` parsed
    /// and planned two statements per transaction. Server time per commit of
    /// a one-row insert, 20 000 commits from a procedure (fsync off): 10 µs
    /// without triggers, 43–62 µs (growing) with `EXECUTE` and deleting the
    /// commit mark by `x`, 36 µs static and deleting it by `ctid`.
    public static func createLiveFunctions(schema: String) -> [String] {
        let schema = quoteIdentifier(schema)
        return [
        """
        CREATE OR REPLACE FUNCTION docstore_notify_rows() RETURNS trigger LANGUAGE plpgsql AS $fn$
        DECLARE
            channel text := \(channel);
            head text;
            keys text;
            chunk text := '';
            item text;
            seq int := coalesce(nullif(current_setting('docstore.notify_seq', true), ''), '0')::int;
            -- Set by a statement that is its transaction's only one
            -- (PostgresStoreSQL.aloneMark): its last notice is the end notice.
            tail text := CASE WHEN current_setting('docstore.alone', true) = '1' THEN ',"end":true}' ELSE '}' END;
            total bigint;
            longest int;
            keyless boolean;
        BEGIN
            -- One pass for the common case: the count, the longest key and every key.
            IF TG_OP = 'DELETE' THEN
                SELECT count(*), max(octet_length(key::text)), string_agg(to_json(key)::text, ',') INTO total, longest, keys FROM docstore_old_rows;
            ELSE
                SELECT count(*), max(octet_length(key::text)), string_agg(to_json(key)::text, ',') INTO total, longest, keys FROM docstore_new_rows;
            END IF;
            IF total = 0 THEN RETURN NULL; END IF;
            head := '{"x":"' || txid_current() || '","c":' || to_json(TG_TABLE_NAME::text) || ',"o":"' || lower(left(TG_OP, 1)) || '"';
            keyless := total > 10000 OR longest > 1000;
            IF NOT keyless AND TG_OP = 'UPDATE' THEN
                keyless := EXISTS (SELECT 1 FROM docstore_old_rows o WHERE NOT EXISTS (SELECT 1 FROM docstore_new_rows n WHERE n.key = o.key));
            END IF;
            IF keyless THEN
                seq := seq + 1;
                PERFORM pg_notify(channel, head || ',"s":' || seq || tail);
            ELSIF octet_length(keys) <= 6000 THEN
                seq := seq + 1;
                PERFORM pg_notify(channel, head || ',"s":' || seq || ',"k":[' || keys || ']' || tail);
            ELSE
                FOR item IN EXECUTE 'SELECT to_json(key)::text FROM ' || CASE TG_OP WHEN 'DELETE' THEN 'docstore_old_rows' ELSE 'docstore_new_rows' END LOOP
                    IF octet_length(chunk) + octet_length(item) > 6000 THEN
                        seq := seq + 1;
                        PERFORM pg_notify(channel, head || ',"s":' || seq || ',"k":[' || chunk || ']}');
                        chunk := '';
                    END IF;
                    chunk := CASE WHEN chunk = '' THEN item ELSE chunk || ',' || item END;
                END LOOP;
                seq := seq + 1;
                PERFORM pg_notify(channel, head || ',"s":' || seq || ',"k":[' || chunk || ']' || tail);
            END IF;
            PERFORM set_config('docstore.notify_seq', seq::text, true);
            IF tail = '}' THEN
                PERFORM \(schema).docstore_expect_commit(TG_TABLE_SCHEMA);
            END IF;
            RETURN NULL;
        END
        $fn$
        """,
        """
        CREATE OR REPLACE FUNCTION docstore_notify_keyless() RETURNS trigger LANGUAGE plpgsql AS $fn$
        DECLARE
            seq int := coalesce(nullif(current_setting('docstore.notify_seq', true), ''), '0')::int + 1;
            collection text := TG_TABLE_NAME::text;
            dropped record;
        BEGIN
            PERFORM set_config('docstore.notify_seq', seq::text, true);
            IF TG_OP = 'TRUNCATE' THEN
                PERFORM pg_notify(\(channel), '{"x":"' || txid_current() || '","c":' || to_json(collection) || ',"o":"t","s":' || seq || '}');
            ELSE
                FOR dropped IN SELECT o.name FROM docstore_old_rows o LOOP
                    PERFORM pg_notify(\(channel), '{"x":"' || txid_current() || '","c":' || to_json(dropped.name::text) || ',"o":"t","s":' || seq || '}');
                END LOOP;
            END IF;
            PERFORM \(schema).docstore_expect_commit(TG_TABLE_SCHEMA);
            RETURN NULL;
        END
        $fn$
        """,
        """
        CREATE OR REPLACE FUNCTION docstore_expect_commit(schema text) RETURNS void LANGUAGE plpgsql AS $fn$
        DECLARE
            setting text := 'docstore.commit_' || left(md5(schema), 16);
            marker tid;
        BEGIN
            -- Unset (NULL) in a session's first transaction, '' in later ones.
            IF coalesce(current_setting(setting, true), '') = '' THEN
                INSERT INTO \(schema).docstore_live_commits (x) VALUES (txid_current()) RETURNING ctid INTO marker;
                PERFORM set_config(setting, marker::text, true);
            END IF;
        END
        $fn$
        """,
        """
        CREATE OR REPLACE FUNCTION docstore_notify_commit() RETURNS trigger LANGUAGE plpgsql AS $fn$
        BEGIN
            PERFORM pg_notify(\(channel), '{"x":"' || NEW.x || '","end":true}');
            -- The row expect_commit inserted in this transaction: nothing
            -- moves a row while its inserting transaction is open.
            DELETE FROM \(schema).docstore_live_commits WHERE ctid = current_setting('docstore.commit_' || left(md5(TG_TABLE_SCHEMA), 16))::tid;
            RETURN NULL;
        END
        $fn$
        """,
        "CREATE UNLOGGED TABLE IF NOT EXISTS docstore_live_commits (x bigint NOT NULL)",
        "DROP TRIGGER IF EXISTS docstore_notify_commit ON docstore_live_commits",
        """
        CREATE CONSTRAINT TRIGGER docstore_notify_commit AFTER INSERT ON docstore_live_commits \
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION docstore_notify_commit()
        """,
        "COMMENT ON FUNCTION docstore_notify_rows() IS '\(liveTriggersVersion)'",
        "DROP TRIGGER IF EXISTS docstore_notify_drop ON \(catalogTable)",
        "CREATE TRIGGER docstore_notify_drop AFTER DELETE ON \(catalogTable) REFERENCING OLD TABLE AS docstore_old_rows FOR EACH STATEMENT EXECUTE FUNCTION docstore_notify_keyless()",
        ]
    }

    /// The statements adding the notice triggers to a collection's table
    /// (replacing any it has).
    public static func createLiveTriggers(_ collection: String) -> [String] {
        let table = quoteIdentifier(collection)
        return [
            "CREATE OR REPLACE TRIGGER docstore_notify_insert AFTER INSERT ON \(table) REFERENCING NEW TABLE AS docstore_new_rows FOR EACH STATEMENT EXECUTE FUNCTION docstore_notify_rows()",
            "CREATE OR REPLACE TRIGGER docstore_notify_update AFTER UPDATE ON \(table) REFERENCING OLD TABLE AS docstore_old_rows NEW TABLE AS docstore_new_rows FOR EACH STATEMENT EXECUTE FUNCTION docstore_notify_rows()",
            "CREATE OR REPLACE TRIGGER docstore_notify_delete AFTER DELETE ON \(table) REFERENCING OLD TABLE AS docstore_old_rows FOR EACH STATEMENT EXECUTE FUNCTION docstore_notify_rows()",
            "CREATE OR REPLACE TRIGGER docstore_notify_truncate AFTER TRUNCATE ON \(table) FOR EACH STATEMENT EXECUTE FUNCTION docstore_notify_keyless()",
        ]
    }
}
