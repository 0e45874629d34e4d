#!/usr/bin/env bash
# One query's time inside a session, as `.timer on` reports it, in `docstore`
# and in sqlite3 on the same data, in the same run.
#
#   Benchmarks/repl/query-time.sh [RUNS]        (from the repository root; RUNS: 7)
#   DOCSTORE_BIN=/path/to/docstore Benchmarks/repl/query-time.sh 5
#   FIELD_COLUMNS=1 Benchmarks/repl/query-time.sh        (docstore keeps the fields
#       the questions read in field columns: `createFieldColumns`, opt-in as an
#       index is, made after the import and before the timing)
#
# Builds the release `docstore` unless DOCSTORE_BIN names one. LAHMAN names the
# data folder (People.csv, Teams.csv, Batting.csv).
#
# Lahman's Batting, People and Teams are imported into a docstore store with
# `.import` and into sqlite3 with `.import --csv`. Each question then runs
# RUNS + 1 times in one session of each (output into /dev/null, `.timer on`);
# the first run is dropped (it warms the page cache and docstore's schema
# sample), the median of the others is reported, CPU (user + sys, which the
# load of a shared machine moves far less) and wall clock ("real").
#
# Three columns per question:
#  - docstore: the query language at the `docstore` prompt (`--mode ndjson`);
#  - sqlite3: the plain SQL a sqlite3 user would write on sqlite3's own imported
#    table (every column TEXT after `.import --csv`, so numbers are compared and
#    sorted through CAST where text order would give another answer): the
#    demanding reading of "the equivalent SQL", and the one the ratio uses;
#  - JSON1: a hand-written json_extract query over DocStore's own table (sqlite3
#    opening the store file read-only): what SQLite costs for reading the same
#    documents, without DocStore's type tests.
set -euo pipefail

runs=${1:-7}
root=$(cd "$(dirname "$0")/../.." && pwd)
data=${LAHMAN:-$root/../shared/data/lahman}
[[ -f "$data/Batting.csv" ]] || data=/work/shared/data/lahman
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ -z "${DOCSTORE_BIN:-}" ]]; then
    (cd "$root" && swift build -c release --product docstore >&2)
    DOCSTORE_BIN=$root/.build/release/docstore
fi
bin=$DOCSTORE_BIN

# The questions: the docstore query, the SQL on sqlite3's table, the JSON1 SQL
# on DocStore's table. Each answers the same (ties broken the same way).
names=(
    "filter + count (HR >= 40)"
    "filter + count (playerID)"
    "filter + sort + limit (BOS by HR)"
    "group: career HR leaders"
    "filter + group: players per country"
    "group: wins per league and year"
    "group + computed: career average"
    "filter + sort + limit + join"
)
docstore_queries=(
    'batting.filter { $0.HR >= 40 }.count()'
    'batting.filter { $0.playerID == "ruthba01" }.count()'
    'batting.filter { $0.teamID == "BOS" }.sorted { $0.HR.descending }.limit(10)'
    'batting.group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }.sorted { $0.hr.descending }.limit(10)'
    'people.filter { $0.birthYear >= 1970 }.group(by: \.birthCountry) { (players: $0.count()) }.sorted { $0.players.descending }.limit(5)'
    'teams.group(by: \.yearID, \.lgID) { (wins: $0.sum(\.W), best: $0.max(\.W), teams: $0.count()) }.filter { $0.teams >= 14 }.sorted { $0.yearID.descending; $0.lgID }.limit(6)'
    'batting.group(by: \.playerID) { (h: $0.sum(\.H), ab: $0.sum(\.AB)) }.filter { $0.ab >= 8000 }.select { ($0.playerID, avg: Double($0.h) / Double($0.ab)) }.sorted { $0.avg.descending }.limit(5)'
    'batting.filter { $0.yearID == 2001 }.sorted { $0.HR.descending }.limit(5).join(people, on: \.playerID, as: \.player).select { ($0.player.nameFirst, $0.player.nameLast, $0.HR) }'
)
sqlite_queries=(
    "SELECT count(*) FROM batting WHERE CAST(HR AS INTEGER) >= 40;"
    "SELECT count(*) FROM batting WHERE playerID = 'ruthba01';"
    "SELECT rowid AS id, * FROM batting WHERE teamID = 'BOS' ORDER BY CAST(HR AS INTEGER) DESC, rowid LIMIT 10;"
    "SELECT playerID, sum(HR) AS hr, count(*) AS seasons FROM batting GROUP BY playerID ORDER BY hr DESC, playerID LIMIT 10;"
    "SELECT birthCountry, count(*) AS players FROM people WHERE CAST(birthYear AS INTEGER) >= 1970 GROUP BY birthCountry ORDER BY players DESC, birthCountry LIMIT 5;"
    "SELECT yearID, lgID, sum(W) AS wins, max(CAST(W AS INTEGER)) AS best, count(*) AS teams FROM teams GROUP BY yearID, lgID HAVING teams >= 14 ORDER BY yearID DESC, lgID LIMIT 6;"
    "SELECT playerID, CAST(sum(H) AS REAL) / sum(AB) AS avg FROM batting GROUP BY playerID HAVING sum(AB) >= 8000 ORDER BY avg DESC, playerID LIMIT 5;"
    "SELECT p.nameFirst, p.nameLast, b.HR FROM (SELECT rowid AS id, * FROM batting WHERE yearID = '2001' ORDER BY CAST(HR AS INTEGER) DESC, rowid LIMIT 5) AS b LEFT JOIN people AS p ON p.playerID = b.playerID ORDER BY CAST(b.HR AS INTEGER) DESC, b.id;"
)
json1_queries=(
    "SELECT count(*) FROM batting WHERE json_extract(body, '\$.HR') >= 40;"
    "SELECT count(*) FROM batting WHERE json_extract(body, '\$.playerID') = 'ruthba01';"
    "SELECT body FROM batting WHERE json_extract(body, '\$.teamID') = 'BOS' ORDER BY json_extract(body, '\$.HR') DESC, key LIMIT 10;"
    "SELECT json_extract(body, '\$.playerID') AS p, sum(json_extract(body, '\$.HR')) AS hr, count(*) AS seasons FROM batting GROUP BY p ORDER BY hr DESC, p LIMIT 10;"
    "SELECT json_extract(body, '\$.birthCountry') AS c, count(*) AS players FROM people WHERE json_extract(body, '\$.birthYear') >= 1970 GROUP BY c ORDER BY players DESC, c LIMIT 5;"
    "SELECT json_extract(body, '\$.yearID') AS y, json_extract(body, '\$.lgID') AS l, sum(json_extract(body, '\$.W')) AS wins, max(json_extract(body, '\$.W')) AS best, count(*) AS teams FROM teams GROUP BY y, l HAVING teams >= 14 ORDER BY y DESC, l LIMIT 6;"
    "SELECT json_extract(body, '\$.playerID') AS p, CAST(sum(json_extract(body, '\$.H')) AS REAL) / sum(json_extract(body, '\$.AB')) AS avg FROM batting GROUP BY p HAVING sum(json_extract(body, '\$.AB')) >= 8000 ORDER BY avg DESC, p LIMIT 5;"
    "SELECT json_extract(p.body, '\$.nameFirst'), json_extract(p.body, '\$.nameLast'), b.hr FROM (SELECT key, json_extract(body, '\$.playerID') AS playerID, json_extract(body, '\$.HR') AS hr FROM batting WHERE json_extract(body, '\$.yearID') = 2001 ORDER BY hr DESC, key LIMIT 5) AS b LEFT JOIN people AS p ON json_extract(p.body, '\$.playerID') = b.playerID ORDER BY b.hr DESC, b.key;"
)

# median: the median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

# times FILE: from the "Run Time: real R user U sys S" lines in FILE, all but the
# first, prints "cpu_ms real_ms" (medians).
times() {
    local lines; lines=$(grep '^Run Time:' "$1" | tail -n +2)
    [[ -n "$lines" ]] || { echo "no Run Time lines in $1" >&2; exit 1; }
    local cpu real
    cpu=$(awk '{ printf "%.3f\n", ($6 + $8) * 1000 }' <<< "$lines" | median)
    real=$(awk '{ printf "%.3f\n", $4 * 1000 }' <<< "$lines" | median)
    echo "$cpu $real"
}

# script FILE SETUP QUERY: SETUP, `.timer on`, then QUERY RUNS + 1 times.
script() {
    { echo "$2"; echo ".timer on"; for _ in $(seq $((runs + 1))); do echo "$3"; done; } > "$1"
}

echo "# docstore query time, $(date -u +%Y-%m-%d), median of $runs runs after one warm-up, .timer on"
echo "# $bin; sqlite3 $(sqlite3 --version | cut -d' ' -f1); $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg); field columns: ${FIELD_COLUMNS:-0}"

for table in Batting People Teams; do
    lower=$(tr '[:upper:]' '[:lower:]' <<< "$table")
    "$bin" "$work/lahman.docstore" -c ".import $lower $data/$table.csv" 2>/dev/null
    sqlite3 "$work/lahman.sqlite" ".import --csv $data/$table.csv $lower"
done
if [[ "${FIELD_COLUMNS:-0}" == 1 ]]; then
    "$bin" "$work/lahman.docstore" -c 'batting.createFieldColumns(\.HR, \.playerID, \.teamID, \.yearID, \.H, \.AB)' \
        -c 'people.createFieldColumns(\.playerID, \.birthYear, \.birthCountry)' -c 'teams.createFieldColumns(\.yearID, \.lgID, \.W)' 2>/dev/null
fi

# Every side must give the same answer, or the comparison means nothing: the
# last run's output of each (docstore's as NDJSON, the others as lists) is
# compared after normalising to bare values.
check_same() {
    python3 - "$@" <<'PY'
import json, sys
# Cells as text, documents expanded into their members' values, and empty cells
# dropped (DocStore leaves a CSV's empty cells out of the document).
def cells(value):
    if isinstance(value, dict):
        return [c for v in value.values() for c in cells(v)]
    if value is None or value == "":
        return []
    if isinstance(value, float):
        return [str(round(value, 6))]
    text = str(value)
    if text.startswith("{"):
        return cells(json.loads(text))
    try:
        return [str(round(float(text), 6)) if any(ch in text for ch in ".e") else str(int(text))]
    except ValueError:
        return [text]
def rows(path, ndjson):
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("Run Time:"):
            continue
        out.append(cells(json.loads(line)) if ndjson else [c for part in line.split("|") for c in cells(part)])
    return out
docstore, sqlite, json1, label, runs = sys.argv[1:6]
runs = int(runs) + 1
def last(found):  # the last run's rows
    return found[-(len(found) // runs):] if len(found) >= runs else found
d, s, j = last(rows(docstore, True)), last(rows(sqlite, False)), last(rows(json1, False))
if not (d == s == j):
    print(f"ANSWERS DIFFER for {label}:\n docstore {d}\n sqlite3 {s}\n JSON1 {j}", file=sys.stderr)
    sys.exit(1)
PY
}

printf '\n%-38s %17s %17s %17s %9s %9s\n' "question" "docstore cpu(real)" "sqlite3 cpu(real)" "JSON1 cpu(real)" "/sqlite3" "/JSON1"
failed=0
for i in "${!docstore_queries[@]}"; do
    script "$work/d.script" ".mode ndjson" "${docstore_queries[$i]}"
    script "$work/s.script" ".mode list" "${sqlite_queries[$i]}"
    script "$work/j.script" ".mode list" "${json1_queries[$i]}"
    "$bin" "$work/lahman.docstore" < "$work/d.script" > "$work/d.out" 2> "$work/d.err"
    sqlite3 "$work/lahman.sqlite" < "$work/s.script" > "$work/s.out"
    sqlite3 -readonly "$work/lahman.docstore" < "$work/j.script" > "$work/j.out"
    read -r dc dr <<< "$(times "$work/d.err")"
    read -r sc sr <<< "$(times "$work/s.out")"
    read -r jc jr <<< "$(times "$work/j.out")"
    check_same "$work/d.out" "$work/s.out" "$work/j.out" "${names[$i]}" "$runs" || failed=1
    printf '%-38s %7.1f (%6.1f) %7.1f (%6.1f) %7.1f (%6.1f) %8sx %8sx\n' "Q$((i + 1)) ${names[$i]}" \
        "$dc" "$dr" "$sc" "$sr" "$jc" "$jr" "$(ratio "$dc" "$sc")" "$(ratio "$dc" "$jc")"
done
echo "# ms per query; ratios of CPU time (docstore / sqlite3's own table, docstore / JSON1 over DocStore's table)"
exit $failed
