#!/usr/bin/env bash
# How the REPL's "did you mean" suggestion scales with the length of a name
# (issue 12: a 70 000-character name beside a collection named almost the same
# took 29 s, the whole edit-distance table). For N and 2N characters, times a
# docstore process that creates a collection named N x's and then mistypes it
# (one character changed), against the same script spelling it right (the
# control: parsing, printing and the store). Linear work gives a
# near-miss/control ratio that stays flat as N doubles; quadratic work doubles
# or quadruples it.
#
#   Benchmarks/scripts/suggestion-scaling.sh [DOCSTORE_BINARY] [N]
set -euo pipefail
binary=${1:-.build/release/docstore}
n=${2:-70000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() {  # the wall time of running the binary on a fresh store with a script
    local script=$1 start end
    rm -f "$work/s.sqlite"*
    start=$(date +%s.%N)
    "$binary" "$work/s.sqlite" --keep-going < "$script" > /dev/null 2>&1 || true
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

printf '%10s %12s %12s %8s\n' characters near-miss/s control/s ratio
for length in "$n" $((2 * n)); do
    python3 - "$length" "$work" <<'PY'
import sys
n, work = int(sys.argv[1]), sys.argv[2]
name = "x" * n
for kind, query in (("miss", name[:-1] + "y"), ("exact", name)):
    with open(f"{work}/{kind}.docstore", "w") as f:
        f.write(f'{name}.insert({{"id": 1}})\n{query}.count()\n')
PY
    miss=$(seconds "$work/miss.docstore")
    exact=$(seconds "$work/exact.docstore")
    printf '%10d %12.3f %12.3f %8.2f\n' "$length" "$miss" "$exact" "$(echo "$miss / $exact" | bc -l)"
done
