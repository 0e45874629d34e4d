#!/usr/bin/env bash
# How reading and running one long script line scales with its length
# (helper-41, 2026-11-27: a 1 MiB insert line took 0.9 s piped, 4 MiB 6.5 s,
# and 50 MiB didn't finish in 10 minutes: the line reader searched the whole
# line for its end again after each 64 KiB it read). For N and 4N MiB, times
# `docstore STORE < script` and `.read script` on a fresh store, the script one
# `insert` of a document holding a string of that many bytes. Linear work
# gives times that grow 4x; quadratic, 16x.
#
#   Benchmarks/scripts/line-length-scaling.sh [DOCSTORE_BINARY] [N_MIB]
set -euo pipefail
binary=${1:-.build/release/docstore}
n=${2:-4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() {  # the wall time of a command on a fresh store
    local start end
    rm -f "$work/s.sqlite"*
    start=$(date +%s.%N)
    "$@" > /dev/null 2>&1
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

printf '%8s %10s %10s\n' MiB piped/s .read/s
for mib in "$n" $((4 * n)); do
    python3 -c "import sys; open(sys.argv[1], 'w').write('a.insert({\"id\": 1, \"s\": \"' + 'q' * (int(sys.argv[2]) << 20) + '\"})\n')" "$work/line.docstore" "$mib"
    piped=$(seconds sh -c '"$0" "$1" < "$2"' "$binary" "$work/s.sqlite" "$work/line.docstore")
    read=$(seconds "$binary" "$work/s.sqlite" -c ".read $work/line.docstore")
    printf '%8d %10.3f %10.3f\n' "$mib" "$piped" "$read"
done
