#!/usr/bin/env bash
# Alternates two parlor-server builds under `parlor-load throughput` and prints, per run, acknowledged
# changes per second and the server's CPU per acknowledged change (from /proc/PID/stat), then the means.
#
#   Loadtest/compare-throughput.sh BEFORE_DIR AFTER_DIR [ROUNDS] [ROOMS] [SECONDS] [persist|nopersist]
#
# BEFORE_DIR and AFTER_DIR each hold a release parlor-server; parlor-load comes from .build/release
# (build it first: swift build -c release --product parlor-load). Each run gets a fresh data directory.
set -euo pipefail
before=$1; after=$2; rounds=${3:-6}; rooms=${4:-200}; seconds=${5:-10}; mode=${6:-persist}
load=${LOAD:-.build/release/parlor-load}
. "$(dirname "$0")/servers.sh"
ulimit -n "$(ulimit -Hn)"
trap stop_server EXIT

run() {  # run BIN_DIR → "rate cpu_us_per_change"
    local flags=(--rate-limit 100000) ticks0 ticks1 out rate count
    [ "$mode" = nopersist ] && flags+=(--no-persist)
    bin=$1 start_server parlor "" "${flags[@]}" >&2 || exit 1
    ticks0=$(cpu_ticks "$server_pid")
    out=$("$load" throughput --rooms "$rooms" --seconds "$seconds" --server "ws://127.0.0.1:$server_port/ws" 2>/dev/null)
    ticks1=$(cpu_ticks "$server_pid")
    stop_server
    rate=$(sed -n 's/.*rooms, \([0-9]*\) acknowledged.*/\1/p' <<< "$out")
    count=$(sed -n 's/.*(\([0-9]*\) in .*/\1/p' <<< "$out")
    echo "$rate $(( (ticks1 - ticks0) * 1000000 / $(getconf CLK_TCK) / count ))"
}

for round in $(seq 1 "$rounds"); do
    for build in before after; do
        dir=$before; [ "$build" = after ] && dir=$after
        read -r rate cpu < <(run "$dir")
        echo "$round $mode $build $rate/s ${cpu}µs"
    done
done | tee /dev/stderr | awk '{ rate[$3] += $4; cpu[$3] += $5; n[$3]++ }
    END { for (b in rate) printf "%s: mean %.0f acknowledged/s, %.1f µs of server CPU per change (%d runs)\n", b, rate[b] / n[b], cpu[b] / n[b], n[b] }'
