#!/usr/bin/env python3
"""SQL helpers for typed-columns.sh (a measurement, not part of DocStore).

  typed_columns.py emitted FILE QUERY     the SQL of QUERY's `.explain` output, runnable in sqlite3
  typed_columns.py layout KIND TABLE F…   the SQL that adds typed values of fields F… to TABLE
  typed_columns.py substitute KIND        the SQL on stdin, with each stored field's expressions
                                          replaced by its column (KIND: stored or sidecar)
  typed_columns.py insert KIND F…         a script inserting Batting's documents (attached as
                                          `src`) into a fresh table laid out as KIND
  typed_columns.py same LABEL A B         exit 1 unless the two sqlite3 list outputs hold the
                                          same values (numbers rounded, documents expanded)

The typed values are exactly the two expressions DocStore's compiler emits for a
field (FieldSQL: the json_type rank and the json_extract value), so a column can
stand in for its expression wherever the compiler writes it, by construction.
"""
import json
import re
import sys

RANK = ("CASE json_type({body}, '$.\"{field}\"') WHEN 'true' THEN 1 WHEN 'false' THEN 1 "
        "WHEN 'integer' THEN 2 WHEN 'real' THEN 2 WHEN 'text' THEN 3 WHEN 'array' THEN 4 "
        "WHEN 'object' THEN 5 ELSE 0 END")
VALUE = "json_extract({body}, '$.\"{field}\"')"

# The fields the eight questions read, per collection.
STORED = {
    "batting": ["playerID", "yearID", "teamID", "HR", "H", "AB"],
    "people": ["playerID", "birthYear", "birthCountry"],
    "teams": ["yearID", "lgID", "W"],
}


def emitted(path, query):
    """The SQL of a `.explain` output with its bindings written in as literals."""
    text = open(path, encoding="utf-8").read()
    sql = re.search(r"^sql: (.*)$", text, re.M).group(1)
    bindings = re.search(r"^bindings: (.*)$", text, re.M)
    values = [v.strip() for v in bindings.group(1).split(",")] if bindings else []
    # `.count()` runs `SELECT count(*) FROM table WHERE …` (QueryCompiler.count);
    # `.explain` shows the documents' query with the same WHERE.
    sql = re.sub(r'^SELECT key, body FROM ("\w+") (WHERE .*) ORDER BY key$',
                 r"SELECT count(*) FROM \1 \2", sql) if query.endswith(".count()") else sql
    parts = sql.split("?")
    if len(parts) != len(values) + 1:
        sys.exit(f"{path}: {len(parts) - 1} placeholders, {len(values)} bindings")
    out = parts[0]
    for value, rest in zip(values, parts[1:]):
        out += ("'" + value[1:-1].replace("'", "''") + "'" if value.startswith('"') else value) + rest
    # DocStore's overflow function (registered on its connection) raises an error;
    # this expression raises SQLite's "integer overflow" the same way.
    return out.replace("docstore_overflow()", "abs(-9223372036854775807 - 1)") + ";"


def stored_table(name, fields):
    """A documents table with STORED generated columns r_F, v_F for each field."""
    columns = ", ".join(
        f'"r_{f}" GENERATED ALWAYS AS ({RANK.format(body="body", field=f)}) STORED, '
        f'"v_{f}" GENERATED ALWAYS AS ({VALUE.format(body="body", field=f)}) STORED'
        for f in fields)
    return f'CREATE TABLE "{name}" (key INTEGER PRIMARY KEY, body TEXT NOT NULL, {columns});'


def sidecar_values(body, fields):
    return ", ".join(f"{RANK.format(body=body, field=f)}, {VALUE.format(body=body, field=f)}" for f in fields)


def sidecar_table(table, fields):
    columns = ", ".join(f'"r_{f}", "v_{f}"' for f in fields)
    return f'CREATE TABLE "{table}_typed" (key INTEGER PRIMARY KEY, {columns});'


def sidecar_insert_trigger(table, fields):
    return (f'CREATE TRIGGER "{table}_typed_insert" AFTER INSERT ON "{table}" BEGIN '
            f'INSERT INTO "{table}_typed" VALUES (new.key, {sidecar_values("new.body", fields)}); END;')


def layout(kind, table, fields):
    if kind == "stored":
        # A STORED column cannot be added by ALTER TABLE: the table is rebuilt.
        return "\n".join([stored_table(f"{table}_new", fields),
                          f'INSERT INTO "{table}_new"(key, body) SELECT key, body FROM "{table}";',
                          f'DROP TABLE "{table}";',
                          f'ALTER TABLE "{table}_new" RENAME TO "{table}";'])
    return "\n".join([
        sidecar_table(table, fields),
        f'INSERT INTO "{table}_typed" SELECT key, {sidecar_values("body", fields)} FROM "{table}";',
        sidecar_insert_trigger(table, fields),
        f'CREATE TRIGGER "{table}_typed_update" AFTER UPDATE ON "{table}" BEGIN '
        f'DELETE FROM "{table}_typed" WHERE key = old.key; '
        f'INSERT INTO "{table}_typed" VALUES (new.key, {sidecar_values("new.body", fields)}); END;',
        f'CREATE TRIGGER "{table}_typed_delete" AFTER DELETE ON "{table}" BEGIN '
        f'DELETE FROM "{table}_typed" WHERE key = old.key; END;'])


EXPRESSION = re.compile(
    r"CASE json_type\((?:(\w+)\.)?body, '\$\.\"(\w+)\"'\) WHEN 'true' THEN 1 WHEN 'false' THEN 1 "
    r"WHEN 'integer' THEN 2 WHEN 'real' THEN 2 WHEN 'text' THEN 3 WHEN 'array' THEN 4 "
    r"WHEN 'object' THEN 5 ELSE 0 END"
    r"|json_extract\((?:(\w+)\.)?body, '\$\.\"(\w+)\"'\)")


def substitute(kind, sql):
    aliases = dict((alias, table) for table, alias in re.findall(r'"(\w+)" AS (\w+)\b', sql))
    unaliased = re.search(r'FROM "(\w+)"(?! AS)', sql)
    used = set()

    def column(match):
        alias = match.group(1) or match.group(3)
        field = match.group(2) or match.group(4)
        table = aliases.get(alias) if alias else (unaliased.group(1) if unaliased else None)
        if field not in STORED.get(table, []):
            return match.group(0)
        used.add(alias)
        name = ("r_" if match.group(2) else "v_") + field
        if kind == "stored":
            return f'{alias}."{name}"' if alias else f'"{name}"'
        return f'{alias}t."{name}"' if alias else f'"{name}"'

    sql = EXPRESSION.sub(column, sql)
    if kind == "sidecar":
        # The typed table alone when the query does not read the document, else
        # joined by key.
        for alias in used:
            if alias is None:
                table = unaliased.group(1)
                joined = f'"{table}" JOIN "{table}_typed" USING (key)' if re.search(r"\bbody\b", sql) else f'"{table}_typed"'
                sql = sql.replace(f'FROM "{table}"', "FROM " + joined, 1)
            elif re.search(rf"\b{alias}\.body\b", sql):
                table = aliases[alias]
                sql = sql.replace(f'"{table}" AS {alias}', f'"{table}" AS {alias} JOIN "{table}_typed" AS {alias}t ON {alias}t.key = {alias}.key', 1)
            else:
                table = aliases[alias]
                sql = sql.replace(f'"{table}" AS {alias}', f'"{table}_typed" AS {alias}t', 1)
                sql = re.sub(rf"\b{alias}\.key\b", f"{alias}t.key", sql)
    return sql


def insert(kind, fields):
    """Batting's documents (attached as `src`; the sidecar store as `typed`)
    inserted, timed, into a fresh `batting` laid out as KIND."""
    plain = "CREATE TABLE batting (key INTEGER PRIMARY KEY, body TEXT NOT NULL);"
    setup = {
        "plain": [plain],
        "stored": [stored_table("batting", fields)],
        "sidecar": [plain, sidecar_table("batting", fields), sidecar_insert_trigger("batting", fields)],
        "bound": [plain, sidecar_table("batting", fields)],  # values bound by the writer, no JSON read
    }[kind]
    copy_typed = ["INSERT INTO batting_typed SELECT * FROM typed.batting_typed;"] if kind == "bound" else []
    return "\n".join(setup + [".timer on", "BEGIN;", "INSERT INTO batting(key, body) SELECT key, body FROM src.batting;"]
                     + copy_typed + ["COMMIT;"])


def cells(value):
    if isinstance(value, dict):
        return [c for v in value.values() for c in cells(v)]
    if value is None or value == "":
        return []
    text = str(value)
    if text.startswith("{"):
        return cells(json.loads(text))
    try:
        return [str(round(float(text), 6)) if any(ch in text for ch in ".e") else str(int(text))]
    except ValueError:
        return [text]


def same(label, first, second):
    def rows(path):
        return [[c for part in line.rstrip("\n").split("|") for c in cells(part)]
                for line in open(path, encoding="utf-8") if line.strip()]
    a, b = rows(first), rows(second)
    if a != b:
        sys.exit(f"ANSWERS DIFFER for {label}:\n {first}: {a}\n {second}: {b}")


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    if command == "emitted":
        print(emitted(args[0], args[1]))
    elif command == "layout":
        print(layout(args[0], args[1], args[2:] or STORED[args[1]]))
    elif command == "substitute":
        print(substitute(args[0], sys.stdin.read().strip()))
    elif command == "insert":
        print(insert(args[0], args[1:]))
    elif command == "same":
        same(*args)
    else:
        sys.exit(f"unknown command {command}")
