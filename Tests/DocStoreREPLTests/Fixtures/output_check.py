"""Parses `docstore` output in one mode with Python's own parsers and compares
it with the documents the test stored, computed here independently.

    python3 output_check.py MODE EXPECTED.json [--no-headers] < output

EXPECTED.json is the JSON array of the stored documents, in key order. Prints
"ok" and exits 0, or prints what differs and exits 1.
"""
import csv
import io
import json
import sys
import unicodedata

mode, expected_path = sys.argv[1], sys.argv[2]
headers = "--no-headers" not in sys.argv
with open(expected_path, encoding="utf-8") as f:
    documents = json.load(f)
raw = sys.stdin.buffer.read().decode("utf-8")

columns = []
for document in documents:
    for key in document:
        if key not in columns:
            columns.append(key)


def number_text(value):
    return json.dumps(value)


def cell(value, spaced=False):
    """A value as text formats show it (csv, tsv, markdown, table)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return number_text(value)
    if isinstance(value, str):
        return value
    if spaced:
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def printable(text):
    """Control characters as a terminal shows them (tab a space, newline ↵)."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch == "\t":
            out.append(" ")
        elif ch == "\n":
            out.append("\u21b5")
        elif code < 0x20:
            out.append(chr(0x2400 + code))
        else:
            out.append(ch)
    return "".join(out)


def delimited_cell(document, column):
    if column not in document or document[column] is None:
        return ""
    return cell(document[column])


def fail(message):
    print(message)
    sys.exit(1)


def expect(actual, wanted, what):
    if actual != wanted:
        fail(f"{what}:\n  got      {actual!r}\n  expected {wanted!r}")


if mode == "json":
    expect(json.loads(raw), documents, "json")
elif mode == "ndjson":
    lines = raw.split("\n")
    expect(lines[-1], "", "ndjson ends with a newline")
    expect([json.loads(line) for line in lines[:-1]], documents, "ndjson")
elif mode == "csv":
    rows = list(csv.reader(io.StringIO(raw, newline="")))
    expect(raw.endswith("\r\n"), True, "csv lines end with CRLF")
    wanted = [[delimited_cell(d, c) for c in columns] for d in documents]
    expect(rows, ([columns] if headers else []) + wanted, "csv")
elif mode == "tsv":
    def unescape(field):
        out, i = [], 0
        while i < len(field):
            if field[i] == "\\" and i + 1 < len(field):
                out.append({"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}[field[i + 1]])
                i += 2
            else:
                out.append(field[i])
                i += 1
        return "".join(out)
    lines = raw.split("\n")
    expect(lines[-1], "", "tsv ends with a newline")
    rows = [[unescape(f) for f in line.split("\t")] for line in lines[:-1]]
    wanted = [[delimited_cell(d, c) for c in columns] for d in documents]
    expect(rows, ([columns] if headers else []) + wanted, "tsv")
elif mode == "markdown":
    def split_row(line):
        if not (line.startswith("| ") and line.endswith(" |")):
            fail(f"not a markdown row: {line!r}")
        cells, current, i, body = [], [], 0, line[2:-2]
        while i < len(body):
            if body[i] == "\\" and i + 1 < len(body):
                current.append(body[i + 1])
                i += 2
            elif body.startswith(" | ", i):
                cells.append("".join(current))
                current = []
                i += 3
            else:
                current.append(body[i])
                i += 1
        cells.append("".join(current))
        return [c.replace("<br>", "\n") for c in cells]
    lines = raw.rstrip("\n").split("\n")
    if headers:
        expect(split_row(lines[0]), columns, "markdown header")
        expect(split_row(lines[1]), ["---"] * len(columns), "markdown separator")
        lines = lines[2:]
    wanted = [[cell(d[c]) if c in d else "" for c in columns] for d in documents]
    expect([split_row(line) for line in lines], wanted, "markdown rows")
elif mode == "table":
    lines = raw.rstrip("\n").split("\n")
    expect(lines[0][0] + lines[-1][0], "┌└", "table borders")
    body = [l for l in lines if l.startswith("│")]
    rows = [[c.strip() for c in l.split("│")[1:-1]] for l in body]
    wanted = [[printable(cell(d[c], spaced=True)) if c in d else "" for c in columns] for d in documents]
    expect(rows, ([columns] if headers else []) + wanted, "table cells")
    def width(text):
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    widths = {width(l) for l in lines}
    expect(len(widths), 1, "every table line as wide")
elif mode == "line":
    records = raw.rstrip("\n").split("\n\n")
    parsed = []
    for record in records:
        fields = {}
        for l in record.split("\n"):
            name, _, value = l.partition(" = ")
            fields[name.strip()] = value
        parsed.append(fields)
    wanted = [{k: printable(cell(v, spaced=True)) for k, v in d.items()} for d in documents]
    expect(parsed, wanted, "line records")
else:
    fail(f"unknown mode {mode}")
print("ok")
