#!/usr/bin/env bash
# Where a full scan's time goes when documents are JSON text, and how far
# SQLite 3.40 itself is from sqlite3's own table: the same two questions
# (a filtered count, a group) in one sqlite3 process per variant, medians of
# RUNS `.timer` CPU times after a warm-up.
#
#   Benchmarks/repl/scan-floor/scan-floor.sh [RUNS]     (RUNS: 7; DOCSTORE_BIN, LAHMAN as in query-time.sh)
#
# Variants: sqlite3's table from `.import --csv`; DocStore's table read by
# touching each body only (substr), by json_valid (the parse alone), by
# json_extract (one call per field), by DocStore's emitted form (json_extract
# and the json_type rank per field), and by member_scan.c (an experiment: a
# member found by scanning the text, not parsing it all).
set -euo pipefail
runs=${1:-7}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
data=${LAHMAN:-$root/../shared/data/lahman}
[[ -f "$data/Batting.csv" ]] || data=/work/shared/data/lahman
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=${DOCSTORE_BIN:-$root/.build/release/docstore}
[[ -x "$bin" ]] || { echo "no docstore at $bin (DOCSTORE_BIN=…)" >&2; exit 1; }

cc -O2 -fPIC -shared "$here/member_scan.c" -o "$work/member_scan.so"
"$bin" "$work/d.docstore" -c ".import batting $data/Batting.csv" 2>/dev/null
sqlite3 "$work/s.sqlite" ".import --csv $data/Batting.csv batting"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# cpu_ms DB SQL: the median CPU milliseconds of SQL, run RUNS + 1 times (the first dropped).
cpu_ms() {
    { echo ".load $work/member_scan"; echo ".timer on"; for _ in $(seq $((runs + 1))); do echo "$2"; done; } |
        sqlite3 -readonly "$1" | grep '^Run Time:' | tail -n +2 | awk '{ printf "%.3f\n", ($6 + $8) * 1000 }' | median
}
rank() { echo "CASE json_type(body, '\$.\"$1\"') WHEN 'true' THEN 1 WHEN 'false' THEN 1 WHEN 'integer' THEN 2 WHEN 'real' THEN 2 WHEN 'text' THEN 3 WHEN 'array' THEN 4 WHEN 'object' THEN 5 ELSE 0 END"; }
value() { echo "json_extract(body, '\$.\"$1\"')"; }

echo "# scan floor, $(date -u +%Y-%m-%d), sqlite3 $(sqlite3 --version | cut -d' ' -f1), Batting ($(sqlite3 "$work/s.sqlite" 'SELECT count(*) FROM batting') rows), median CPU ms of $runs"
printf '%-44s %12s %12s\n' "variant" "count HR>=40" "HR by player"
# row LABEL DB COUNT_SQL [GROUP_SQL]
row() {
    local group="-"
    [[ -n "${4:-}" ]] && group=$(printf '%.1f' "$(cpu_ms "$2" "$4")")
    printf '%-44s %12.1f %12s\n' "$1" "$(cpu_ms "$2" "$3")" "$group"
}
row "sqlite3's table (.import --csv)" "$work/s.sqlite" \
    "SELECT count(*) FROM batting WHERE CAST(HR AS INTEGER) >= 40;" \
    "SELECT playerID, sum(HR) AS hr FROM batting GROUP BY playerID ORDER BY hr DESC LIMIT 10;"
row "DocStore's table: each body touched" "$work/d.docstore" \
    "SELECT count(*) FROM batting WHERE substr(body, 1, 1) = '{';"
row "DocStore's table: json_valid (parse only)" "$work/d.docstore" \
    "SELECT count(*) FROM batting WHERE json_valid(body);"
row "DocStore's table: json_extract" "$work/d.docstore" \
    "SELECT count(*) FROM batting WHERE $(value HR) >= 40;" \
    "SELECT $(value playerID) AS p, sum($(value HR)) AS hr FROM batting GROUP BY p ORDER BY hr DESC LIMIT 10;"
row "DocStore's table: DocStore's rank + value" "$work/d.docstore" \
    "SELECT count(*) FROM batting WHERE $(value HR) >= 40 AND $(rank HR) = 2;" \
    "SELECT $(rank playerID) AS r, $(value playerID) AS p, sum(CASE WHEN $(rank HR) = 2 THEN $(value HR) END) AS hr FROM batting GROUP BY r, p ORDER BY hr DESC LIMIT 10;"
row "DocStore's table: member_scan (experiment)" "$work/d.docstore" \
    "SELECT count(*) FROM batting WHERE member_scan(body, 'HR') >= 40;" \
    "SELECT member_scan(body, 'playerID') AS p, sum(member_scan(body, 'HR')) AS hr FROM batting GROUP BY p ORDER BY hr DESC LIMIT 10;"
