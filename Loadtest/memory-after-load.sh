#!/usr/bin/env bash
# Does the server's memory come back after load? Runs one parlor-load scenario several times against
# one fresh server and reads the server's resident memory before, while loaded and after every round's
# connections have closed.
#
#   Loadtest/memory-after-load.sh NAME ROUNDS [SERVER FLAGS…] -- SCENARIO [parlor-load FLAGS…]
#
# e.g.  Loadtest/memory-after-load.sh idle-19700 3 -- idle --connections 19700 --duration 10
#       Loadtest/memory-after-load.sh connect-19700 3 -- connect --connections 19700 --source-addresses 2
#
# Starts .build/release/parlor-server (or $BIN/parlor-server; see servers.sh) with `ulimit -n` at the
# hard limit; each round runs `parlor-load SCENARIO … --server-pid PID`, waits $GAP seconds (default 5)
# after it ends, and prints VmRSS, the server's gauges (connections, subscriptions, connected users,
# rooms, memory trims and bytes returned) and — with MALLOC_STATS=1 and gdb installed — glibc's
# malloc_stats() totals (heap held from the system, in use, free), which tell live heap (a leak grows
# "in use") from freed memory the allocator kept ("free"). Everything goes to $BENCH_OUT/NAME.memory.txt
# (default /tmp/parlor-bench) as well as stdout.
set -euo pipefail
name=$1 rounds=$2
shift 2
. "$(dirname "$0")/servers.sh"
prepare_benchmark "$@"
set -- ${scenario_args[@]+"${scenario_args[@]}"}
report=$out/$name.memory.txt
start_server parlor "$out/$name.server" ${server_args[@]+"${server_args[@]}"} || exit 1

rss() { awk '/^VmRSS:/ { printf "%.1f MiB", $2 / 1024 }' "/proc/$server_pid/status"; }
gauges() {
    curl -s "http://127.0.0.1:$server_port/metrics" |
        awk '/^parlor_(connections|subscriptions|connected_users|rooms|memory_trims_total|memory_returned_bytes_total) / { printf "%s %s  ", $1, $2 }'
}
malloc_totals() {
    [ "${MALLOC_STATS:-0}" = 1 ] && command -v gdb > /dev/null || return 0
    local before
    before=$(wc -l < "$out/$name.server.log")
    # malloc_stats() prints to the server's stderr, which is its log.
    (cd /tmp && timeout 120 gdb -p "$server_pid" -batch -ex 'call (void) malloc_stats()' > /dev/null 2>&1) || true
    sleep 0.5
    tail -n +"$((before + 1))" "$out/$name.server.log" | awk '
        /^Total/ { total = 1 }
        total && /system bytes/ { held = $4 }
        total && /in use bytes/ { used = $5 }
        END { if (total) printf "malloc: %.1f MiB from the system, %.1f MiB in use, %.1f MiB free\n", held / 1048576, used / 1048576, (held - used) / 1048576 }'
}

{
    echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nproc) cores; uptime: $(uptime)"
    echo "# server: $server_command (pid $server_pid)"
    echo "# each round: parlor-load $* --server ws://127.0.0.1:$server_port/ws --server-pid $server_pid; then ${GAP:-5} s"
    sleep 2
    echo "before: RSS $(rss)  $(gauges)"
    malloc_totals
    echo
} | tee "$report"
for round in $(seq 1 "$rounds"); do
    status=0
    "$load" "$@" --server "ws://127.0.0.1:$server_port/ws" --server-pid "$server_pid" --quiet \
        --json "$out/$name.round$round.json" > "$out/$name.round$round.txt" 2>&1 || status=$?
    holding=$(command -v jq > /dev/null && jq -r '.server.residentBytesHolding // .server.residentBytesLoaded // empty' "$out/$name.round$round.json" 2> /dev/null || true)
    sleep "${GAP:-5}"
    {
        echo "round $round: parlor-load exit status $status ($(tail -1 "$out/$name.round$round.txt"))"
        [ -n "$holding" ] && awk -v b="$holding" 'BEGIN { printf "  RSS loaded: %.1f MiB\n", b / 1048576 }'
        echo "  after close (${GAP:-5} s): RSS $(rss)  $(gauges)"
        malloc_totals | sed 's/^/  /'
        echo
    } | tee -a "$report"
done
