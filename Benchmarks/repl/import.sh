#!/usr/bin/env bash
# Import and in-session query timing of the release `docstore` against sqlite3,
# on the same data, in the same run (ratios are what to read; the machine's load
# moves both sides). Usage, from the package root:
#
#     swift build -c release --product docstore
#     Benchmarks/repl/import.sh [speed|memory|queries|all]
#
# DOCSTORE overrides the binary, LAHMAN the data folder, RUNS the repetitions
# (the median is reported), WORKDIR where generated files go (removed after),
# CLOCK=wall times by the wall clock instead of CPU time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
DOCSTORE=${DOCSTORE:-$root/.build/release/docstore}
LAHMAN=${LAHMAN:-$root/../shared/data/lahman}
[ -f "$LAHMAN/Batting.csv" ] || LAHMAN=/work/shared/data/lahman
RUNS=${RUNS:-5}
what=${1:-all}
work=$(mktemp -d "${WORKDIR:-${TMPDIR:-/tmp}}/docstore-import-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -x "$DOCSTORE" ] || { echo "no release docstore at $DOCSTORE: swift build -c release --product docstore" >&2; exit 1; }

# The median of the arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
ms() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }
ms2() { awk -v s="$1" 'BEGIN { printf "%.2f", s * 1000 }'; }

# Seconds one run of "$@" takes (output discarded): CPU time (user + sys), which
# the load of a shared machine moves far less than wall time; CLOCK=wall for wall time.
timed() {
    /usr/bin/time -f '%e %U %S' -o "$work/time" "$@" > /dev/null
    if [ "${CLOCK:-cpu}" = wall ]; then awk '{ print $1 }' "$work/time"; else awk '{ print $2 + $3 }' "$work/time"; fi
}

speed() {
    echo "== Import Batting.csv ($(($(wc -l < "$LAHMAN/Batting.csv") - 1)) rows), median of $RUNS runs"
    local d=() s=()
    for _ in $(seq "$RUNS"); do
        rm -f "$work"/d.db* "$work"/s.db*
        d+=("$(timed "$DOCSTORE" "$work/d.db" -c ".import batting $LAHMAN/Batting.csv")")
        s+=("$(timed sqlite3 "$work/s.db" ".import --csv $LAHMAN/Batting.csv batting")")
    done
    local dm sm; dm=$(median "${d[@]}"); sm=$(median "${s[@]}")
    printf '  docstore .import batting Batting.csv     %8s ms\n' "$(ms "$dm")"
    printf '  sqlite3 .import --csv Batting.csv batting %7s ms\n' "$(ms "$sm")"
    printf '  ratio %sx (target <= 1.5x)\n' "$(ratio "$dm" "$sm")"
}

# Generated documents: NDJSON, a JSON array and CSV with the same fields.
generate() {
    python3 - "$1" "$work/gen$1" <<'PY'
import json, sys
n, base = int(sys.argv[1]), sys.argv[2]
teams = ["BOS", "NYA", "007", "SFN", "CHN"]
with open(base + ".ndjson", "w") as nd, open(base + ".json", "w") as js, open(base + ".csv", "w") as cs:
    js.write("[\n")
    cs.write("id,name,team,code,avg,games,note\n")
    for i in range(1, n + 1):
        doc = {"id": i, "name": f"player {i}", "team": teams[i % 5], "code": f"{i % 1000:04d}",
               "avg": round((i % 400) / 1000, 3), "games": i % 162, "note": "a, \"quoted\" note" if i % 7 == 0 else ""}
        line = json.dumps(doc, separators=(",", ":"))
        nd.write(line + "\n")
        js.write(line + (",\n" if i < n else "\n"))
        note = '"a, ""quoted"" note"' if i % 7 == 0 else ""
        cs.write(f'{i},player {i},{doc["team"]},{doc["code"]},{doc["avg"]},{doc["games"]},{note}\n')
    js.write("]\n")
PY
}

# Peak resident memory (kB) of importing a file into a new store.
peak() {
    rm -f "$work"/m.db*
    /usr/bin/time -f '%M' -o "$work/rss" "$DOCSTORE" "$work/m.db" -c ".import rows $1" > /dev/null
    cat "$work/rss"
}

memory() {
    echo "== Peak RSS importing generated documents (/usr/bin/time, max resident)"
    generate 100000
    generate 1000000
    for format in ndjson json csv; do
        local small large
        small=$(peak "$work/gen100000.$format")
        large=$(peak "$work/gen1000000.$format")
        printf '  %-7s 100 000: %7s kB   1 000 000: %7s kB   ratio %sx (target <= 1.2x)\n' \
            "$format" "$small" "$large" "$(ratio "$large" "$small")"
    done
}

# The Lahman questions of LahmanQuestionsTests and the README, and the same in SQL.
docstore_queries=(
    'batting.group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }.sorted { $0.hr.descending }.limit(10)'
    'people.filter { $0.birthYear >= 1970 }.group(by: \.birthCountry) { (players: $0.count()) }.sorted { $0.players.descending }.limit(5)'
    'teams.group(by: \.yearID, \.lgID) { (wins: $0.sum(\.W), best: $0.max(\.W), teams: $0.count()) }.filter { $0.teams >= 14 }.sorted { $0.yearID.descending; $0.lgID }.limit(6)'
    'batting.filter { $0.yearID == 2001 }.sorted { $0.HR.descending }.limit(5).join(people, on: \.playerID, as: \.player).select { ($0.player.nameFirst, $0.player.nameLast, $0.HR) }'
    'batting.group(by: \.playerID) { (h: $0.sum(\.H), ab: $0.sum(\.AB)) }.filter { $0.ab >= 8000 }.select { ($0.playerID, avg: Double($0.h) / Double($0.ab)) }.sorted { $0.avg.descending }.limit(5)'
    'batting.filter { $0.playerID == "ruthba01" }.count()'
)
sql_queries=(
    'SELECT playerID, sum(HR) AS hr, count(*) AS seasons FROM batting GROUP BY playerID ORDER BY hr DESC LIMIT 10;'
    'SELECT birthCountry, count(*) AS players FROM people WHERE birthYear >= 1970 GROUP BY birthCountry ORDER BY players DESC LIMIT 5;'
    'SELECT yearID, lgID, sum(W) AS wins, max(W) AS best, count(*) AS teams FROM teams GROUP BY yearID, lgID HAVING teams >= 14 ORDER BY yearID DESC, lgID LIMIT 6;'
    'SELECT p.nameFirst, p.nameLast, b.HR FROM (SELECT * FROM batting WHERE yearID = 2001 ORDER BY HR DESC LIMIT 5) b LEFT JOIN people p ON p.playerID = b.playerID;'
    'SELECT playerID, CAST(sum(H) AS REAL) / sum(AB) AS avg FROM batting GROUP BY playerID HAVING sum(AB) >= 8000 ORDER BY avg DESC LIMIT 5;'
    "SELECT count(*) FROM batting WHERE playerID = 'ruthba01';"
)

# A script running `$2` `$3` times after `$1` (a setup line).
script() { { echo "$1"; for _ in $(seq "$3"); do echo "$2"; done; } > "$work/script"; }

queries() {
    # Each side runs the query 1 and 1 + N times in a session; the difference / N
    # is one query's time, start-up and loading cancelled out. sqlite3 gets a
    # larger N: its queries take a few ms, and /usr/bin/time counts in 10 ms.
    local dn=${DOCSTORE_REPEAT:-10} sn=${SQLITE_REPEAT:-200}
    echo "== One query's time inside a session: (time of 1 + N runs - time of 1) / N (docstore N=$dn, sqlite3 N=$sn), median of $RUNS"
    "$DOCSTORE" "$work/q.db" -c ".import batting $LAHMAN/Batting.csv" > /dev/null
    "$DOCSTORE" "$work/q.db" -c ".import people $LAHMAN/People.csv" > /dev/null
    "$DOCSTORE" "$work/q.db" -c ".import teams $LAHMAN/Teams.csv" > /dev/null
    # sqlite3 gets typed columns (integers as integers, empty cells NULL), as the documents have.
    python3 - "$work/q.sqlite" "$LAHMAN" <<'PY'
import csv, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for name in ["Batting", "People", "Teams"]:
    rows = list(csv.reader(open(f"{sys.argv[2]}/{name}.csv", encoding="utf-8")))
    header, body = rows[0], rows[1:]
    def kind(i):
        cells = [r[i] for r in body if r[i] != ""]
        def ok(f):
            try: [f(c) for c in cells]; return True
            except ValueError: return False
        if ok(int) and not any(c.lstrip("-").startswith("0") and len(c.lstrip("-")) > 1 for c in cells): return "INTEGER", int
        if ok(float): return "REAL", float
        return "TEXT", str
    kinds = [kind(i) for i in range(len(header))]
    db.execute(f"CREATE TABLE {name.lower()} ({', '.join(f'[{h}] {k[0]}' for h, k in zip(header, kinds))})")
    db.executemany(f"INSERT INTO {name.lower()} VALUES ({', '.join('?' * len(header))})",
                   [[None if c == "" else k[1](c) for c, k in zip(r, kinds)] for r in body])
db.commit()
PY
    printf '  %-8s %10s %10s %7s   %s\n' "" docstore sqlite3 ratio query
    local i
    for i in "${!docstore_queries[@]}"; do
        local d=() s=() one many
        for _ in $(seq "$RUNS"); do
            script ".mode ndjson" "${docstore_queries[$i]}" 1; one=$(timed "$DOCSTORE" "$work/q.db" < "$work/script")
            script ".mode ndjson" "${docstore_queries[$i]}" $((dn + 1)); many=$(timed "$DOCSTORE" "$work/q.db" < "$work/script")
            d+=("$(awk -v a="$one" -v b="$many" -v n="$dn" 'BEGIN { print (b - a) / n }')")
            script ".mode list" "${sql_queries[$i]}" 1; one=$(timed sqlite3 "$work/q.sqlite" < "$work/script")
            script ".mode list" "${sql_queries[$i]}" $((sn + 1)); many=$(timed sqlite3 "$work/q.sqlite" < "$work/script")
            s+=("$(awk -v a="$one" -v b="$many" -v n="$sn" 'BEGIN { print (b - a) / n }')")
        done
        local dm sm; dm=$(median "${d[@]}"); sm=$(median "${s[@]}")
        printf '  Q%-7s %7s ms %7s ms %6sx   %.70s\n' "$((i + 1))" "$(ms "$dm")" "$(ms2 "$sm")" "$(ratio "$dm" "$sm")" "${docstore_queries[$i]}"
    done
}

echo "docstore: $DOCSTORE; ${CLOCK:-cpu} time; sqlite3 $(sqlite3 --version | cut -d' ' -f1); $(date -u +%Y-%m-%dT%H:%MZ); $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
case $what in
    speed) speed ;;
    memory) memory ;;
    queries) queries ;;
    all) speed; memory; queries ;;
    *) echo "usage: $0 [speed|memory|queries|all]" >&2; exit 2 ;;
esac
