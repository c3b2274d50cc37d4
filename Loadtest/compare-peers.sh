#!/usr/bin/env bash
# Paired runs of `parlor-load rooms` against parlor-server (in memory) and the Node `ws` benchmark peer
# (Loadtest/peers/README.md), alternating which goes first, and the server CPU each spends per
# delivered update.
#
#   Loadtest/compare-peers.sh ROOMS [PAIRS] [DURATION] [parlor-load FLAGS…]
#
# Each run gets a fresh server: `parlor-server --no-persist --port 0 --log-level warning` or
# `node Loadtest/peers/node-ws/server.js --port 0`, then `parlor-load rooms --rooms ROOMS --players 8
# --interval 2 --duration DURATION --server … --server-pid PID --json …` (extra flags follow, e.g.
# --source-addresses 4 beyond ~28,000 connections). Pair 1 runs Parlor first, pair 2 Node first, and
# so on. Defaults: 3 pairs of 30 s.
#
# Server CPU is parlor-load's: utime + stime from /proc/PID/stat at the start and the end of the
# measured window (set-up, the 1 s settle and the drain excluded), as cores. A delivered update is a
# `room` event a member received in that window; µs/update = cores ÷ events/s. µs/msg divides by
# events + replies instead (every message the players received, as the issue's first table counts).
# "run s" is the server's CPU over the whole parlor-load run, set-up and drain included, and "user %" the
# share of it spent in user space (utime against utime + stime over the run); "user µs/update" is
# µs/update × that share, the user-space cost of an update.
#
# Builds nothing: the binaries come from .build/release or $BIN (swift build -c release --product
# parlor-server && swift build -c release --product parlor-load); scripts/setup.sh --bench installs
# Debian's node-ws and jq. Each run's JSON and table are kept in $BENCH_OUT/peers-ROOMSx8-TIME/
# (default /tmp/parlor-bench).
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
rooms=$1; pairs=${2:-3}; duration=${3:-30}
shift $(( $# < 3 ? $# : 3 ))
load=${BIN:-.build/release}/parlor-load
. "$(dirname "$0")/servers.sh"
command -v jq > /dev/null || { echo "compare-peers.sh needs jq: run scripts/setup.sh --bench" >&2; exit 1; }
out=${BENCH_OUT:-/tmp/parlor-bench}/peers-${rooms}x8-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out"
ulimit -n "$(ulimit -Hn)"
trap stop_server EXIT

# One run: prints its table row, and appends "kind µs/update µs/msg p99" to $out/summary.
run() {
    local kind=$1 pair=$2 name=$out/$2-$1 ticks0 ticks1 user0 user1 status=0
    shift 2
    case "$kind" in
    parlor) start_server parlor "$name.server" --no-persist ;;
    node) start_server node "$name.server" ;;
    esac
    echo "# $kind: $server_command (pid $server_pid); uptime before: $(uptime)" > "$name.txt"
    ticks0=$(cpu_ticks "$server_pid")
    user0=$(awk '{ print $14 }' "/proc/$server_pid/stat")
    "$load" rooms --rooms "$rooms" --players 8 --interval 2 --duration "$duration" \
        --server "ws://127.0.0.1:$server_port/ws" --server-pid "$server_pid" --json "$name.json" "$@" \
        >> "$name.txt" 2>&1 || status=$?
    ticks1=$(cpu_ticks "$server_pid")
    user1=$(awk '{ print $14 }' "/proc/$server_pid/stat")
    stop_server
    echo "# uptime after: $(uptime); parlor-load exit status $status" >> "$name.txt"
    [ -f "$name.json" ] || { echo "$kind run $pair wrote no report; see $name.txt" >&2; tail -5 "$name.txt" >&2; return 1; }
    jq -r --arg kind "$kind" --arg pair "$pair" --argjson runCPU "$(( (ticks1 - ticks0) * 100 / $(getconf CLK_TCK) ))" \
        --argjson userShare "$(( ticks1 > ticks0 ? (user1 - user0) * 1000 / (ticks1 - ticks0) : 0 ))" '
        def f(digits): if . == null then "-" else (. * pow(10; digits) | round) / pow(10; digits) | tostring end;
        (.server.cpuCores // 0) as $cores
        | [$pair, $kind, (.rates.events | round), (.rates.messages | round), ($cores | f(2)),
           (if .rates.events > 0 then $cores / .rates.events * 1e6 else null end | f(1)),
           (if .rates.messages > 0 then $cores / .rates.messages * 1e6 else null end | f(1)),
           (.latency.fanOut.p50_ms | f(2)), (.latency.fanOut.p99_ms | f(2)), (.latency.reply.p99_ms | f(2)),
           ((.server.residentBytesLoaded // 0) / 1048576 | f(0)), ((.server.residentBytesAtEnd // 0) / 1048576 | f(0)),
           ($runCPU / 100 | f(2)), (.context.loadAverageAtStart[0] | f(1)),
           ($userShare / 10 | f(1)),
           (if .rates.events > 0 then $cores / .rates.events * 1e6 * $userShare / 1000 else null end | f(1)),
           (if .passed then "passed" else "FAILED: " + (.problems | join("; ")) end)]
        | @tsv' "$name.json" | tee -a "$out/rows.tsv" | awk -F'\t' -v OFS=' | ' '{ $1 = $1; print "| " $0 " |" }'
}

echo "parlor-load rooms: $rooms rooms × 8 players, a score every 2 s, $duration s measured, $pairs pair(s)${*:+, $*}; runs in $out"
echo "| pair | server | events/s | msgs/s | cores | µs/update | µs/msg | fan-out p50 ms | p99 ms | reply p99 ms | RSS loaded MiB | RSS end MiB | run s | load | user % | user µs/update | result |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for pair in $(seq 1 "$pairs"); do
    if [ $(( pair % 2 )) = 1 ]; then order=(parlor node); else order=(node parlor); fi
    for kind in "${order[@]}"; do run "$kind" "$pair" "$@"; done
done
awk -F'\t' '
    { n[$2]++; update[$2] += $6; msg[$2] += $7; p99[$2] += $9; user[$2] += $16; if ($17 != "passed") failed[$2]++ }
    END {
        split("parlor node", kinds, " ")
        for (i = 1; i <= 2; i++) if ((k = kinds[i]) in n) printf "%s: mean %.1f µs of server CPU per delivered update (%.1f in user space; %.1f per message), fan-out p99 %.2f ms, %d runs, %d failed\n",
            k, update[k] / n[k], user[k] / n[k], msg[k] / n[k], p99[k] / n[k], n[k], failed[k]
        if (n["parlor"] && n["node"] && update["node"] > 0)
            printf "ratio Parlor/Node: %.2f per update (target: at most 0.8), %.2f in user space (target: at most 0.5)\n", (update["parlor"] / n["parlor"]) / (update["node"] / n["node"]), (user["parlor"] / n["parlor"]) / (user["node"] / n["node"])
    }' "$out/rows.tsv"
