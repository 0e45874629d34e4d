#!/usr/bin/env bash
# Would typed values stored beside each document's JSON text bring query-time.sh's
# eight questions within 2x of sqlite3's own table? A measurement in the sqlite3
# CLI, no DocStore change: the SQL DocStore compiles today (from `.explain`), with
# each field's two expressions (its json_type rank and json_extract value) replaced
# by columns holding exactly those expressions, as a compiler substitution would.
#
#   Benchmarks/repl/typed-columns/typed-columns.sh [RUNS]    (RUNS: 7; DOCSTORE_BIN, LAHMAN as in query-time.sh)
#
# Any `docstore` build serves: it only imports the data and prints `.explain`; the
# times are sqlite3's. Layouts, each on its own copy of the store:
#  - JSON: DocStore's table as it is (the compiled SQL as emitted);
#  - stored: the table rebuilt with STORED generated columns r_F, v_F per field;
#  - sidecar: a table `T_typed(key, r_F, v_F…)` kept by triggers, read alone when
#    the query does not read the document, else joined by key;
#  - lean: hand-written SQL over the sidecar with DocStore's semantics (rank in
#    the group keys and type tests), without the compiled SQL's shape (window
#    numbering of groups, nested subqueries, the join's first-match grouping):
#    what a leaner compiler output could reach on the same columns.
# Then the write cost: Batting's 108 789 documents inserted into each layout.
# Answers are checked: stored and sidecar byte for byte against JSON (whose
# answers query-time.sh checks against sqlite3's), lean's values against sqlite3's.
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
py() { python3 "$here/typed_columns.py" "$@"; }

# The eight questions of query-time.sh, in its order.
source <(sed -n '/^names=(/,/^)/p; /^docstore_queries=(/,/^)/p; /^sqlite_queries=(/,/^)/p' "$here/../query-time.sh")
lean_queries=(
    'SELECT count(*) FROM batting_typed WHERE "v_HR" >= 40 AND "r_HR" = 2;'
    "SELECT count(*) FROM batting_typed WHERE \"v_playerID\" = 'ruthba01' AND \"r_playerID\" = 3;"
    "SELECT body FROM batting JOIN batting_typed USING (key) WHERE \"v_teamID\" = 'BOS' AND \"r_teamID\" = 3 ORDER BY \"r_HR\" DESC, \"v_HR\" DESC, key LIMIT 10;"
    'SELECT "v_playerID", coalesce(sum(CASE WHEN "r_HR" = 2 THEN "v_HR" END), 0) AS hr, count(*) FROM batting_typed GROUP BY "r_playerID", "v_playerID" ORDER BY hr DESC, "r_playerID", "v_playerID" LIMIT 10;'
    'SELECT "v_birthCountry", count(*) AS players FROM people_typed WHERE "v_birthYear" >= 1970 AND "r_birthYear" = 2 GROUP BY "r_birthCountry", "v_birthCountry" ORDER BY players DESC, "r_birthCountry", "v_birthCountry" LIMIT 5;'
    'SELECT "v_yearID", "v_lgID", coalesce(sum(CASE WHEN "r_W" = 2 THEN "v_W" END), 0), max(CASE WHEN "r_W" = 2 THEN "v_W" END), count(*) AS teams FROM teams_typed GROUP BY "r_yearID", "v_yearID", "r_lgID", "v_lgID" HAVING teams >= 14 ORDER BY "r_yearID" DESC, "v_yearID" DESC, "r_lgID", "v_lgID" LIMIT 6;'
    'SELECT "v_playerID", CAST(coalesce(sum(CASE WHEN "r_H" = 2 THEN "v_H" END), 0) AS REAL) / coalesce(sum(CASE WHEN "r_AB" = 2 THEN "v_AB" END), 0) AS avg FROM batting_typed GROUP BY "r_playerID", "v_playerID" HAVING coalesce(sum(CASE WHEN "r_AB" = 2 THEN "v_AB" END), 0) >= 8000 ORDER BY avg DESC, "r_playerID", "v_playerID" LIMIT 5;'
    "WITH b AS (SELECT key, \"r_playerID\" AS r, \"v_playerID\" AS v, \"r_HR\" AS rh, \"v_HR\" AS hr FROM batting_typed WHERE \"v_yearID\" = 2001 AND \"r_yearID\" = 2 ORDER BY \"r_HR\" DESC, \"v_HR\" DESC, key LIMIT 5) SELECT p.body ->> '\$.\"nameFirst\"', p.body ->> '\$.\"nameLast\"', b.hr FROM b LEFT JOIN people AS p ON p.key = (SELECT min(t.key) FROM people_typed AS t WHERE t.\"r_playerID\" = b.r AND t.\"v_playerID\" = b.v) ORDER BY b.rh DESC, b.hr DESC, b.key;"
)

for table in Batting People Teams; do
    lower=$(tr '[:upper:]' '[:lower:]' <<< "$table")
    "$bin" "$work/json.docstore" -c ".import $lower $data/$table.csv" 2>/dev/null
    sqlite3 "$work/s.sqlite" ".import --csv $data/$table.csv $lower"
done
for kind in stored sidecar; do
    cp "$work/json.docstore" "$work/$kind.docstore"
    { echo "BEGIN;"; for t in batting people teams; do py layout "$kind" "$t"; done; echo "COMMIT;"; } | sqlite3 "$work/$kind.docstore"
    sqlite3 "$work/$kind.docstore" "VACUUM; PRAGMA wal_checkpoint(TRUNCATE);" > /dev/null
done

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
# cpu_ms DB SQLFILE OUT: the median CPU ms of SQLFILE run RUNS + 1 times (the first
# dropped); the last run's rows go to OUT.
cpu_ms() {
    { echo ".timer on"; for _ in $(seq $((runs + 1))); do cat "$2"; done; } | sqlite3 -readonly "$1" > "$work/run.out"
    grep -v '^Run Time:' "$work/run.out" | tail -n "$(( $(grep -vc '^Run Time:' "$work/run.out" || true) / (runs + 1) ))" > "$3"
    grep '^Run Time:' "$work/run.out" | tail -n +2 | awk '{ printf "%.3f\n", ($6 + $8) * 1000 }' | median
}

echo "# typed columns, $(date -u +%Y-%m-%d), sqlite3 $(sqlite3 --version | cut -d' ' -f1), median CPU ms of $runs runs after a warm-up, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
printf '%-38s %8s %8s %8s %8s %8s   %s\n' "question" "sqlite3" "JSON" "stored" "sidecar" "lean" "ratios to sqlite3: JSON stored sidecar lean"
failed=0
sqlite_ms=()
for i in "${!docstore_queries[@]}"; do
    "$bin" "$work/json.docstore" -c ".explain ${docstore_queries[$i]}" > "$work/explain.txt" 2>&1
    py emitted "$work/explain.txt" "${docstore_queries[$i]}" > "$work/json.sql"
    for kind in stored sidecar; do py substitute "$kind" < "$work/json.sql" > "$work/$kind.sql"; done
    echo "${sqlite_queries[$i]}" > "$work/sqlite3.sql"
    echo "${lean_queries[$i]}" > "$work/lean.sql"
    s=$(cpu_ms "$work/s.sqlite" "$work/sqlite3.sql" "$work/sqlite3.out")
    sqlite_ms[i]=$s
    j=$(cpu_ms "$work/json.docstore" "$work/json.sql" "$work/json.out")
    st=$(cpu_ms "$work/stored.docstore" "$work/stored.sql" "$work/stored.out")
    sc=$(cpu_ms "$work/sidecar.docstore" "$work/sidecar.sql" "$work/sidecar.out")
    l=$(cpu_ms "$work/sidecar.docstore" "$work/lean.sql" "$work/lean.out")
    for kind in stored sidecar; do
        cmp -s "$work/json.out" "$work/$kind.out" || { echo "ANSWERS DIFFER for Q$((i + 1)) $kind" >&2; failed=1; }
    done
    py same "Q$((i + 1)) lean" "$work/sqlite3.out" "$work/lean.out" || failed=1
    printf '%-38s %8.2f %8.2f %8.2f %8.2f %8.2f   %6sx %6sx %6sx %6sx\n' "Q$((i + 1)) ${names[$i]}" "$s" "$j" "$st" "$sc" "$l" \
        "$(ratio "$j" "$s")" "$(ratio "$st" "$s")" "$(ratio "$sc" "$s")" "$(ratio "$l" "$s")"
done

# Where the compiled shape costs, on the sidecar: the career-HR group as compiled,
# without the `LIMIT -1` that keeps its fields' subquery from being flattened,
# with its groups ordered by their keys instead of numbered by the two
# row_number() windows (hand-written, same rows less the number), and both; the
# join as compiled and with each row's first match looked up by a correlated
# min(key) instead of grouping all of people.
"$bin" "$work/json.docstore" -c ".explain ${docstore_queries[3]}" > "$work/explain.txt" 2>&1
py emitted "$work/explain.txt" "${docstore_queries[3]}" | py substitute sidecar > "$work/g.sql"
sed 's/ LIMIT -1//' "$work/g.sql" > "$work/g-flat.sql"
echo "SELECT g1.r0 AS r0, coalesce(max(CASE WHEN g1.r0 = 2 AND typeof(g1.v0) = 'integer' THEN g1.v0 END), CASE WHEN typeof(g1.v0) = 'real' THEN g1.v0 + 0.0 ELSE g1.v0 END) AS v0, (0 + 2) AS r1, coalesce(sum(CASE WHEN g1.r1 = 2 THEN g1.v1 END), 0) AS v1, (0 + 2) AS r2, count(*) AS v2 FROM (SELECT s0t.\"r_playerID\" AS r0, s0t.\"v_playerID\" AS v0, s0t.\"r_HR\" AS r1, s0t.\"v_HR\" AS v1 FROM \"batting_typed\" AS s0t LIMIT -1) AS g1 GROUP BY g1.r0, g1.v0 ORDER BY r1 DESC, v1 DESC, g1.r0, g1.v0 LIMIT 10;" > "$work/g-ordered.sql"
sed 's/ LIMIT -1//' "$work/g-ordered.sql" > "$work/g-both.sql"
"$bin" "$work/json.docstore" -c ".explain ${docstore_queries[7]}" > "$work/explain.txt" 2>&1
py emitted "$work/explain.txt" "${docstore_queries[7]}" | py substitute sidecar > "$work/j.sql"
python3 - "$work/j.sql" > "$work/j-lookup.sql" <<'PY'
import re, sys
sql = open(sys.argv[1]).read()
# The compiled join: LEFT JOIN (first key per rank and value of all people) AS fj2 ON fj2.r = R AND fj2.v = V LEFT JOIN people AS j2 ON j2.key = fj2.k
m = re.search(r'LEFT JOIN \(SELECT min\(mj2t\.key\) AS k, .*? GROUP BY r, v\) AS fj2 ON fj2\.r = (.*?) AND fj2\.v = (.*?) LEFT JOIN "people" AS j2 ON j2\.key = fj2\.k', sql)
lookup = ('LEFT JOIN "people" AS j2 ON j2.key = (SELECT min(mj2t.key) FROM "people_typed" AS mj2t WHERE mj2t."r_playerID" = '
          + m.group(1) + ' AND mj2t."v_playerID" = ' + m.group(2) + ' AND mj2t."r_playerID" BETWEEN 1 AND 3)')
print(sql[:m.start()] + lookup + sql[m.end():])
PY
echo
echo "# the compiled SQL's shape on the sidecar, CPU ms (sqlite3's table: ${sqlite_ms[3]} and ${sqlite_ms[7]})"
declare -A shape
for variant in g g-flat g-ordered g-both j j-lookup; do
    shape[$variant]=$(cpu_ms "$work/sidecar.docstore" "$work/$variant.sql" "$work/$variant.out")
done
cmp -s "$work/g.out" "$work/g-flat.out" || { echo "ANSWERS DIFFER for the group without LIMIT -1" >&2; failed=1; }
for variant in g-ordered g-both; do
    cut -d'|' -f2- "$work/g.out" | cmp -s - "$work/$variant.out" || { echo "ANSWERS DIFFER for $variant" >&2; failed=1; }
done
cmp -s "$work/j.out" "$work/j-lookup.out" || { echo "ANSWERS DIFFER for the join's per-row lookup" >&2; failed=1; }
printf '%-50s %8.2f\n' "career HR group as compiled" "${shape[g]}" "  without LIMIT -1" "${shape[g-flat]}" \
    "  groups ordered by their keys, no row_number()" "${shape[g-ordered]}" "  both" "${shape[g-both]}" \
    "2001's HR leaders joined to people, as compiled" "${shape[j]}" "  each row's first match looked up" "${shape[j-lookup]}"

# The write cost: Batting's documents (from the JSON store, attached) inserted in
# one transaction into a fresh WAL database laid out each way, with the questions'
# six fields and with all 22; `bound`: the sidecar's values inserted as given (a
# writer that binds the typed values it already has, no JSON parsed). sqlite3's
# `.import --csv` of Batting.csv as a whole process, for scale.
all_fields=$(head -1 "$data/Batting.csv" | tr -d '\r' | tr ',' ' ')
six="playerID yearID teamID HR H AB"
declare -A cost
for _ in $(seq 3); do
    for variant in plain stored:six stored:all sidecar:six sidecar:all bound:six; do
        kind=${variant%%:*}; fields=$six; [[ $variant == *:all ]] && fields=$all_fields
        rm -f "$work/w.db" "$work/w.db-wal" "$work/w.db-shm"
        t=$({ echo "PRAGMA journal_mode=WAL;"; echo "ATTACH '$work/json.docstore' AS src;"
              echo "ATTACH '$work/sidecar.docstore' AS typed;"
              # shellcheck disable=SC2086
              py insert "$kind" $fields; } | sqlite3 "$work/w.db" | grep '^Run Time:' |
            awk '{ s += ($6 + $8) * 1000 } END { printf "%.1f", s }')
        cost[$variant]+="$t "
    done
    rm -f "$work/i.sqlite"
    t=$( { /usr/bin/time -f '%U %S' sqlite3 "$work/i.sqlite" ".import --csv $data/Batting.csv batting"; } 2>&1 | awk '{ printf "%.1f", ($1 + $2) * 1000 }')
    cost[import]+="$t "
done
echo
echo "# inserting Batting's 108 789 documents, CPU ms, median of 3 (the \`bound\` sidecar holds the six fields, already typed)"
for variant in import plain stored:six stored:all sidecar:six sidecar:all bound:six; do
    printf '%-28s %8.1f\n' "$([[ $variant == import ]] && echo "sqlite3 .import --csv" || echo "$variant")" \
        "$(tr ' ' '\n' <<< "${cost[$variant]}" | grep . | median)"
done
exit $failed
