#!/usr/bin/env python3
"""Computes the expected answers of issue 11's five REPL lines from the Lahman
CSV files with Python's csv module alone (no DocStore), and writes them to
lahman_expected.json beside this script:

    python3 Tests/DocStoreREPLTests/Fixtures/lahman_expected.py [../shared/data/lahman]

Semantics mirrored from the REPL's: an empty CSV cell is a missing field (left
out of sums and counts of values); numbers compare numerically; ties in a sort
are broken by the group key (ascending, missing first) or by the document key
(the CSV row order); a join takes the first document (in key order) whose
field equals the row's.
"""
import csv, json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "..", "..", "shared", "data", "lahman")


def rows(name):
    with open(os.path.join(data, name), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def number(text):
    if text is None or text == "":
        return None
    try:
        return int(text)
    except ValueError:
        return float(text)


def key_order(value):
    # missing < numbers < strings (DocStore's order for the values that occur here)
    if value is None or value == "":
        return (0, 0, b"")
    if isinstance(value, (int, float)):
        return (1, value, b"")
    return (2, 0, value.encode("utf-8"))


def grouped(records, keys):
    groups = {}
    for record in records:
        groups.setdefault(tuple(record.get(k) or None for k in keys), []).append(record)
    return groups


batting = rows("Batting.csv")
people = rows("People.csv")
teams = rows("Teams.csv")
expected = []

# 1. career home runs
result = []
for (player,), items in grouped(batting, ["playerID"]).items():
    result.append([player, sum(number(r["HR"]) or 0 for r in items), len(items)])
result.sort(key=lambda r: key_order(r[0]))
result.sort(key=lambda r: -r[1])
expected.append({"columns": ["playerID", "hr", "seasons"], "rows": result[:10]})

# 2. players born in 1970 or later, per country
recent = [p for p in people if number(p["birthYear"]) is not None and number(p["birthYear"]) >= 1970]
result = [[country, len(items)] for (country,), items in grouped(recent, ["birthCountry"]).items()]
result.sort(key=lambda r: key_order(r[0]))
result.sort(key=lambda r: -r[1])
expected.append({"columns": ["birthCountry", "players"], "rows": result[:5]})

# 3. wins per league and year
result = []
for (year, league), items in grouped(teams, ["yearID", "lgID"]).items():
    wins = [number(t["W"]) for t in items if number(t["W"]) is not None]
    result.append([number(year), league, sum(wins), max(wins) if wins else None, len(items)])
result = [r for r in result if r[4] >= 14]
result.sort(key=lambda r: (key_order(r[0]), key_order(r[1])))
result.sort(key=lambda r: key_order(r[1]))
result.sort(key=lambda r: -r[0])
expected.append({"columns": ["yearID", "lgID", "wins", "best", "teams"], "rows": result[:6]})

# 4. the 2001 home-run leaders with their names
season = [(index, r) for index, r in enumerate(batting) if number(r["yearID"]) == 2001]
season.sort(key=lambda item: (-(number(item[1]["HR"]) if number(item[1]["HR"]) is not None else float("-inf")), item[0]))
first_person = {}
for p in people:
    first_person.setdefault(p["playerID"], p)
result = []
for _, r in season[:5]:
    person = first_person.get(r["playerID"])
    result.append([person["nameFirst"] if person else None, person["nameLast"] if person else None, number(r["HR"])])
expected.append({"columns": ["player.nameFirst", "player.nameLast", "HR"], "rows": result})

# 5. career batting average of players with 8000 at-bats or more
result = []
for (player,), items in grouped(batting, ["playerID"]).items():
    h = sum(number(r["H"]) or 0 for r in items)
    ab = sum(number(r["AB"]) or 0 for r in items)
    if ab >= 8000:
        result.append([player, float(h) / float(ab)])
result.sort(key=lambda r: key_order(r[0]))
result.sort(key=lambda r: -r[1])
expected.append({"columns": ["playerID", "avg"], "rows": result[:5]})

with open(os.path.join(here, "lahman_expected.json"), "w", encoding="utf-8") as f:
    json.dump(expected, f, indent=1, ensure_ascii=False)
    f.write("\n")
