#!/usr/bin/env bash
# The whole suite on a busy machine: runs ./floe-test beside N CPU burners (N = the number of cores, or
# FLOE_BURNERS), as a user's laptop doing other work would. A test that passes quietly and fails here
# depends on the machine's speed (docs/testing.md, "A busy machine").
#
# Usage: scripts/loaded-tests.sh [--runs K] [./floe-test arguments...]
#   --runs K   run the suite K times in a row under the load (default 1); stops at the first red run
# Each run's wall time and result are printed; the exit status is the first failing run's, or 0.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

runs=1
if [[ "${1:-}" == "--runs" ]]; then
    runs="${2:?--runs needs a number}"
    shift 2
fi
[[ "$runs" =~ ^[1-9][0-9]?$ ]] || { echo "loaded-tests: --runs takes 1 to 99, not '$runs'" >&2; exit 2; }
burners="${FLOE_BURNERS:-$(nproc)}"
[[ "$burners" =~ ^[0-9]{1,3}$ ]] || { echo "loaded-tests: FLOE_BURNERS takes 0 to 999" >&2; exit 2; }

pids=()
stop_burners() {
    ((${#pids[@]} == 0)) || kill "${pids[@]}" 2>/dev/null || true
    pids=()
}
trap stop_burners EXIT INT TERM

for ((i = 0; i < burners; i++)); do
    # A plain busy loop in its own shell: one core's worth of work, at the tests' own priority.
    (trap - INT TERM; while :; do :; done) &
    pids+=("$!")
done
echo "loaded-tests: $burners CPU burners running (pids ${pids[*]:-none})" >&2

status=0
for ((run = 1; run <= runs; run++)); do
    start=$(date +%s)
    if "$here/floe-test" "$@"; then result=green; else status=$?; result="red (exit $status)"; fi
    echo "loaded-tests: run $run of $runs: $result in $(($(date +%s) - start)) s beside $burners burners" >&2
    ((status == 0)) || break
done
stop_burners
exit "$status"
