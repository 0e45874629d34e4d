#!/usr/bin/env bash
# Issue 14: renaming a field in every document, time and peak memory, at
# N = 100 000 and 1 000 000, against the same rename written by hand in sqlite3,
# in the same run. Usage, from the package root:
#
#     swift build -c release --product docstore
#     Benchmarks/repl/migrate.sh [N...]
#
# Each size: players generated as NDJSON and imported by `.import` with an index
# on firstName (untimed); the store file copied for sqlite3; then, timed by
# /usr/bin/time (CPU = user + sys, and the peak resident memory):
#   docstore  `players.renameField("firstName", to: "givenName")`: DocStore's
#             check that no document has both, one UPDATE, the index dropped and
#             created on the new path, the catalog, in one transaction
#   sqlite3   DROP INDEX, the same UPDATE by hand, CREATE INDEX, in one transaction
#   baseline  `players.count()` in docstore: the process's own memory, for scale
# DOCSTORE overrides the binary, WORKDIR where files go (removed after).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
DOCSTORE=${DOCSTORE:-$root/.build/release/docstore}
[ -x "$DOCSTORE" ] || { echo "no docstore at $DOCSTORE: swift build -c release --product docstore" >&2; exit 1; }
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000)
work=$(mktemp -d "${WORKDIR:-${TMPDIR:-/tmp}}/docstore-migrate-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# "cpu_seconds peak_kib" of one run of "$@" (output discarded).
measure() {
    /usr/bin/time -f '%U %S %M' -o "$work/time" "$@" > /dev/null 2> "$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
    awk '{ printf "%.2f %d\n", $1 + $2, $3 }' "$work/time"
}

rank="CASE json_type(body, '\$.\"givenName\"') WHEN 'true' THEN 1 WHEN 'false' THEN 1 WHEN 'integer' THEN 2 WHEN 'real' THEN 2 WHEN 'text' THEN 3 WHEN 'array' THEN 4 WHEN 'object' THEN 5 ELSE 0 END"
by_hand="BEGIN IMMEDIATE;
DROP INDEX docstore_ix_1;
UPDATE players SET body = json_remove(json_set(body, '\$.\"givenName\"', json(body -> '\$.\"firstName\"')), '\$.\"firstName\"')
WHERE json_type(body, '\$.\"firstName\"') IS NOT NULL;
CREATE INDEX docstore_ix_1 ON players ($rank, json_extract(body, '\$.\"givenName\"'));
COMMIT;"

printf '%9s %-9s %8s %10s\n' N way cpu_s peak_kib
for n in "${sizes[@]}"; do
    python3 - "$n" "$work/players.ndjson" <<'PY'
import json, sys
n, path = int(sys.argv[1]), sys.argv[2]
positions = ["Pitcher", "Catcher", "First Base", "Shortstop", "Outfield"]
with open(path, "w") as out:
    for i in range(1, n + 1):
        out.write(json.dumps({"id": i, "firstName": f"First{i % 5000}", "lastName": f"Last{i}", "number": i % 100,
                              "teamId": i % 30, "position": positions[i % 5], "battingAverage": (i % 400) / 1000,
                              "tags": ["veteran"] if i % 3 == 0 else []}) + "\n")
PY
    rm -f "$work/s.sqlite"* "$work/peer.sqlite"*
    "$DOCSTORE" "$work/s.sqlite" -c ".import players $work/players.ndjson" -c 'players.createIndex(\.firstName)' > /dev/null 2>&1
    cp "$work/s.sqlite" "$work/peer.sqlite"
    read -r base_cpu base_kib < <(measure "$DOCSTORE" "$work/s.sqlite" -c 'players.count()')
    read -r ds_cpu ds_kib < <(measure "$DOCSTORE" "$work/s.sqlite" -c 'players.renameField("firstName", to: "givenName")')
    read -r sq_cpu sq_kib < <(measure sqlite3 "$work/peer.sqlite" "$by_hand")
    # Both files now hold the same documents and index.
    [ "$("$DOCSTORE" "$work/s.sqlite" -c 'players.count { $0.givenName != nil && $0.firstName == nil }' 2> /dev/null)" = "$n" ] \
        || { echo "docstore's rename missed documents" >&2; exit 1; }
    [ "$(sqlite3 "$work/peer.sqlite" "SELECT count(*) FROM players WHERE json_type(body, '\$.\"givenName\"') = 'text'")" = "$n" ] \
        || { echo "sqlite3's rename missed documents" >&2; exit 1; }
    printf '%9s %-9s %8s %10s\n' "$n" docstore "$ds_cpu" "$ds_kib" "$n" sqlite3 "$sq_cpu" "$sq_kib" "$n" baseline "$base_cpu" "$base_kib"
    awk -v a="$ds_cpu" -v b="$sq_cpu" -v n="$n" 'BEGIN { printf "%9s docstore/sqlite3 CPU: %.2fx\n", n, a / b }'
done
