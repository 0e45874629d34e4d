#!/usr/bin/env bash
# How fast and how lean `docstore` prints, against sqlite3 in the same run.
#
#   Benchmarks/repl/output.sh [RUNS]        (from the repository root; RUNS: 3)
#   SIZES="1000 10000" DOCSTORE_BIN=.build/debug/docstore Benchmarks/repl/output.sh 1   (a quick check)
#
# Builds the release `docstore` (or uses .build/release/docstore when
# DOCSTORE_BIN names another), then:
#  1. speed: Lahman's Batting.csv (108 789 rows, 22 columns) imported into a
#     docstore store and into a sqlite3 table (`.import --csv`); all rows printed
#     into a file as a table (`--mode table` against `sqlite3 -box`) and as NDJSON
#     (`--mode ndjson` against `sqlite3 -json`), best of RUNS wall-clock times;
#  2. memory: 100 000 and 1 000 000 generated documents printed to stdout (into
#     /dev/null) as NDJSON, JSON, CSV and a table, sent by `.output FILE` and
#     written by `.export FILE QUERY`; peak RSS of each, and 1M / 100k.
# CPU times (user + sys), wall times and peak RSS come from GNU time.
set -euo pipefail

runs=${1:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
data=${LAHMAN:-$root/../shared/data/lahman}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ -z "${DOCSTORE_BIN:-}" ]]; then
    (cd "$root" && swift build -c release --product docstore >&2)
    DOCSTORE_BIN=$root/.build/release/docstore
fi
bin=$DOCSTORE_BIN

# best_of CMD…: prints "cpu_seconds wall_seconds peak_kib" of the run that
# took the least CPU time (user + sys) of $runs runs. CPU time is the measure:
# on a shared machine wall-clock time mostly measures the other processes.
best_of() {
    local best="" line
    for _ in $(seq "$runs"); do
        /usr/bin/time -o "$work/time" -f '%U %S %e %M' "$@" >/dev/null 2>/dev/null
        line=$(tail -1 "$work/time" | awk '{ printf "%.2f %s %s\n", $1 + $2, $3, $4 }')
        if [[ -z "$best" ]] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then best=$line; fi
    done
    echo "$best"
}
cpu() { echo "${1%% *}"; }
wall() { local rest=${1#* }; echo "${rest%% *}"; }
kib() { echo "${1##* }"; }

# shell_to FILE CMD…: runs CMD with stdout into FILE (for best_of).
shell_to() { local file=$1; shift; "$@" > "$file"; }
export -f shell_to

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

echo "# docstore output benchmark, $(date -u +%Y-%m-%d), best of $runs runs"
echo "# sqlite3 $(sqlite3 --version | cut -d' ' -f1), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"

# 1. Speed on Batting.
"$bin" "$work/batting.docstore" -c ".import batting $data/Batting.csv" 2>/dev/null
sqlite3 "$work/batting.sqlite" ".import --csv $data/Batting.csv batting"
rows=$(sqlite3 "$work/batting.sqlite" 'SELECT count(*) FROM batting')
echo "# Batting: $rows rows"
# The same 23 columns: docstore's documents hold their key as "id".
printf '%-30s %18s %18s %10s\n' "Batting, all rows into a file" "docstore cpu (wall)" "sqlite3 cpu (wall)" "cpu ratio"
for pair in "table:-box" "ndjson:-json"; do
    mode=${pair%%:*} flag=${pair#*:}
    d=$(best_of bash -c "shell_to $work/out.$mode '$bin' '$work/batting.docstore' --mode $mode -c batting")
    s=$(best_of bash -c "shell_to $work/out.sqlite.$mode sqlite3 $flag '$work/batting.sqlite' 'SELECT rowid AS id, * FROM batting'")
    printf '%-30s %10ss (%5ss) %10ss (%5ss) %9sx\n' "$mode (sqlite3 $flag)" "$(cpu "$d")" "$(wall "$d")" \
        "$(cpu "$s")" "$(wall "$s")" "$(ratio "$(cpu "$d")" "$(cpu "$s")")"
done

# 2. Peak memory, 100k against 1M documents.
read -r small_n large_n <<< "${SIZES:-100000 1000000}"
for n in $small_n $large_n; do
    python3 - "$n" > "$work/gen$n.ndjson" <<'PY'
import json, sys
n = int(sys.argv[1])
out = sys.stdout
for i in range(1, n + 1):
    out.write(json.dumps({"id": i, "name": f"player {i}", "team": f"T{i % 30}", "hr": i % 70,
                          "avg": round((i % 400) / 1000, 3), "tags": ["a", "b"] if i % 2 else []}) + "\n")
PY
    "$bin" "$work/gen$n.docstore" -c ".import docs $work/gen$n.ndjson" 2>/dev/null
done
echo
printf '%-32s %12s %12s %8s\n' "peak RSS (MiB)" "$small_n" "$large_n" "ratio"
measure_memory() {
    local label=$1; shift
    local small large
    small=$(best_of "$@" "$small_n")
    large=$(best_of "$@" "$large_n")
    printf '%-32s %12.1f %12.1f %7sx   (cpu %ss, %ss)\n' "$label" "$(awk -v k="$(kib "$small")" 'BEGIN { print k / 1024 }')" \
        "$(awk -v k="$(kib "$large")" 'BEGIN { print k / 1024 }')" "$(ratio "$(kib "$large")" "$(kib "$small")")" "$(cpu "$small")" "$(cpu "$large")"
}
print_mode() { "$bin" "$work/gen$2.docstore" --mode "$1" -c docs > /dev/null; }
output_file() { printf '.mode %s\n.output %s\ndocs\n.output\n' "$1" "$work/out.$1" | "$bin" "$work/gen$2.docstore"; }
export_file() { "$bin" "$work/gen$2.docstore" -c ".export $work/export.$1 docs"; }
export -f print_mode output_file export_file
export bin work small_n large_n
for mode in ndjson json csv table; do
    measure_memory "print --mode $mode" bash -c 'print_mode "$0" "$1"' "$mode"
done
for mode in ndjson json csv table; do
    measure_memory ".output FILE, mode $mode" bash -c 'output_file "$0" "$1"' "$mode"
done
for ext in ndjson json csv txt; do
    measure_memory ".export FILE.$ext QUERY" bash -c 'export_file "$0" "$1"' "$ext"
done
