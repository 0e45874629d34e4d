#!/usr/bin/env bash
# Issue 13's benchmarks on PostgreSQL, on a private server this script starts
# and stops (also when a step fails: trap). From the repository root:
#
#     swift build -c release --package-path Benchmarks
#     Benchmarks/scripts/postgres-bench.sh workload [N] [--rounds R]   # W1–W9, DocStore vs SQL by hand
#     Benchmarks/scripts/postgres-bench.sh memory [N...]                 # peak memory of a 1M fetch/forEach
#     Benchmarks/scripts/postgres-bench.sh copy [N]                      # docstore copy vs psql \copy
#     Benchmarks/scripts/postgres-bench.sh repl-memory [N]               # the REPL printing N and 10 N rows
#
# The server: Tests/DocStoreTests/Postgres/Server/postgres-test-server.sh (initdb
# into a temporary directory, a Unix socket in it only, fsync=off — the
# benchmark's SQLite ways run with synchronous=NORMAL: no commit waits for the
# disk either); its watchdog also stops it if this script is killed.
#
# copy: N players (default 1 000 000) generated as NDJSON (WORKLOAD.md's
# documents) and imported into a file store with `docstore … .import` (untimed);
# then, each into a fresh database of the same server, timed by /usr/bin/time:
#   docstore  `docstore copy FILE postgres://…` (pages of 1 000 read from the
#             file, sent as one COPY FROM STDIN a page, verified by count and checksum)
#   psql      `\copy players(body) FROM 'players.ndjson'` into
#             (key bigint GENERATED ALWAYS AS ((body ->> 'id')::bigint) STORED PRIMARY KEY, body jsonb)
#
# repl-memory: N and 10 N players (default 100 000) imported with the REPL's
# `.import` (untimed), then the peak resident memory (/usr/bin/time's %M) of
# `docstore URL --mode ndjson -c QUERY > file` for a query's documents, a
# select's rows and a join's rows, each in a fresh process; the rows printed
# are counted. Flat: the 10 N figure within 1.2x of the N one.
# DOCSTORE names the docstore binary (default .build/release/docstore), BENCH the
# docstore-bench binary (default Benchmarks/.build/release/docstore-bench).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
server_script=$root/Tests/DocStoreTests/Postgres/Server/postgres-test-server.sh
BENCH=${BENCH:-$root/Benchmarks/.build/release/docstore-bench}
DOCSTORE=${DOCSTORE:-$root/.build/release/docstore}
mode=${1:-workload}
shift || true

work=$(mktemp -d "${TMPDIR:-/tmp}/docstore-pg-bench.XXXXXX")
chmod 755 "$work"  # as root, the server runs as "nobody", which must reach its directory
server=$work/server
mkdir "$server"
cleanup() {
    bash "$server_script" stop "$server" || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
url=$(bash "$server_script" start "$server" $$)
psql_bin=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | sort -V | tail -n 1)")/psql
[ -x "$psql_bin" ] || psql_bin=$(command -v psql)
run_psql() { "$psql_bin" -X -q -v ON_ERROR_STOP=1 -h "$server" -U docstore "$@"; }
echo "server: $(run_psql -d postgres -At -c 'SHOW server_version'), socket in $server" >&2

# generate_players N FILE: WORKLOAD.md's players as NDJSON.
generate_players() {
    python3 - "$1" "$2" <<'PY'
import json, sys
n, path = int(sys.argv[1]), sys.argv[2]
positions = ["Pitcher", "Catcher", "First Base", "Second Base", "Third Base", "Shortstop",
             "Left Field", "Center Field", "Right Field", "Designated Hitter"]
tags = ["rookie", "allstar", "veteran"]
with open(path, "w") as out:
    for i in range(1, n + 1):
        player = {"id": i, "firstName": f"First{i}", "lastName": f"Last{(i * 7919) % 1000}", "number": (i * 31) % 100,
                  "teamId": i % 30, "position": positions[i % 10], "battingAverage": ((i * 37) % 400) / 1000.0}
        if i % 3 == 0:
            player["nickname"] = f"Nick{i}"
        player["tags"] = tags[:i % 4]
        out.write(json.dumps(player, separators=(",", ":")) + "\n")
PY
}

case "$mode" in
workload)
    [ -x "$BENCH" ] || { echo "no docstore-bench at $BENCH: swift build -c release --package-path Benchmarks" >&2; exit 1; }
    "$BENCH" --postgres "$url" "$@"
    ;;
memory)
    [ -x "$BENCH" ] || { echo "no docstore-bench at $BENCH: swift build -c release --package-path Benchmarks" >&2; exit 1; }
    "$BENCH" --postgres-memory "$url" "$@"
    ;;
copy)
    [ -x "$DOCSTORE" ] || { echo "no docstore at $DOCSTORE: swift build -c release --product docstore" >&2; exit 1; }
    n=${1:-1000000}
    generate_players "$n" "$work/players.ndjson"
    "$DOCSTORE" "$work/source.db" -c ".import players $work/players.ndjson" > /dev/null
    bash "$server_script" createdb "$server" copy_docstore
    bash "$server_script" createdb "$server" copy_psql
    run_psql -d copy_psql -c "CREATE TABLE players (key bigint GENERATED ALWAYS AS ((body ->> 'id')::bigint) STORED PRIMARY KEY, body jsonb NOT NULL)"
    # "wall_s cpu_s" of one run of "$@" (CPU: user + sys of the client process only).
    measure() {
        /usr/bin/time -f '%e %U %S' -o "$work/time" "$@" > /dev/null 2> "$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
        awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$work/time"
    }
    read -r ds_wall ds_cpu < <(measure "$DOCSTORE" copy "$work/source.db" "postgres://docstore@/copy_docstore?host=$server")
    read -r pg_wall pg_cpu < <(measure "$psql_bin" -X -q -v ON_ERROR_STOP=1 -h "$server" -U docstore -d copy_psql -c "\\copy players(body) FROM '$work/players.ndjson'")
    ds_count=$(run_psql -d copy_docstore -At -c 'SELECT count(*) FROM players')
    pg_count=$(run_psql -d copy_psql -At -c 'SELECT count(*) FROM players')
    [ "$ds_count" = "$n" ] && [ "$pg_count" = "$n" ] || { echo "COUNTS DIFFER: docstore $ds_count, psql $pg_count, expected $n" >&2; exit 1; }
    # The same documents on both sides.
    ds_sum=$(run_psql -d copy_docstore -At -c 'SELECT md5(string_agg(body::text, E'"'"'\n'"'"' ORDER BY key)) FROM players')
    pg_sum=$(run_psql -d copy_psql -At -c 'SELECT md5(string_agg(body::text, E'"'"'\n'"'"' ORDER BY key)) FROM players')
    [ "$ds_sum" = "$pg_sum" ] || { echo "DOCUMENTS DIFFER between docstore copy and psql \\copy" >&2; exit 1; }
    printf '%9s %-14s %8s %8s %10s\n' N way wall_s cpu_s docs/s
    printf '%9s %-14s %8s %8s %10.0f\n' "$n" "docstore copy" "$ds_wall" "$ds_cpu" "$(echo "$n / $ds_wall" | bc -l)"
    printf '%9s %-14s %8s %8s %10.0f\n' "$n" "psql \\copy" "$pg_wall" "$pg_cpu" "$(echo "$n / $pg_wall" | bc -l)"
    awk -v a="$ds_wall" -v b="$pg_wall" 'BEGIN { printf "docstore copy / psql \\copy, wall: %.2fx\n", a / b }'
    ;;
repl-memory)
    [ -x "$DOCSTORE" ] || { echo "no docstore at $DOCSTORE: swift build -c release --product docstore" >&2; exit 1; }
    n=${1:-100000}
    printf '%9s %-12s %8s %10s\n' N printing rows peak_KiB
    for size in "$n" "$((n * 10))"; do
        bash "$server_script" createdb "$server" "repl_$size"
        db="postgres://docstore@/repl_$size?host=$server"
        generate_players "$size" "$work/players.ndjson"
        printf '{"id": %d, "name": "Team %d"}\n' $(seq 0 29 | awk '{ print $1, $1 }') > "$work/teams.ndjson"
        "$DOCSTORE" "$db" -c ".import players $work/players.ndjson" -c ".import teams $work/teams.ndjson" > /dev/null
        for printing in query select join; do
            case $printing in
            query) q='players.filter { $0.number >= 0 }' ;;
            select) q='players.filter { $0.number >= 0 }.select { ($0.lastName, $0.teamId) }' ;;
            join) q='players.join(teams, on: \.teamId, equals: \.id, as: \.team)' ;;
            esac
            /usr/bin/time -f '%M' -o "$work/time" "$DOCSTORE" "$db" --mode ndjson -c "$q" > "$work/out.ndjson"
            printf '%9s %-12s %8s %10s\n' "$size" "$printing" "$(wc -l < "$work/out.ndjson")" "$(cat "$work/time")"
        done
    done
    ;;
*)
    echo "usage: $0 workload [N] [--rounds R] | memory | copy [N] | repl-memory [N]" >&2
    exit 2
    ;;
esac
