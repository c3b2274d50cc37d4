#!/usr/bin/env bash
# Runs one parlor-load scenario against a fresh server on this machine and keeps the evidence.
#
#   Loadtest/run-benchmark.sh NAME [SERVER FLAGS…] -- SCENARIO [parlor-load FLAGS…]
#
# Starts .build/release/parlor-server (or $BIN/parlor-server) on a free port with a new data directory
# (persistence on unless the server flags say --no-persist), passes --server, --server-pid and --json to
# parlor-load, and writes NAME.json, NAME.txt (table and progress lines) and NAME.server.log into
# $BENCH_OUT (default /tmp/parlor-bench). Build first (`swift build` takes one --product at a time):
# swift build -c release --product parlor-server && swift build -c release --product parlor-load
#
# SERVER=node runs the scenario against the Node `ws` benchmark peer instead (Loadtest/peers/README.md),
# e.g. its memory per idle connection: SERVER=node Loadtest/run-benchmark.sh idle-node -- idle --connections 19700 …
set -euo pipefail
name=$1; shift
. "$(dirname "$0")/servers.sh"
prepare_benchmark "$@"
set -- ${scenario_args[@]+"${scenario_args[@]}"}
start_server "${SERVER:-parlor}" "$out/$name.server" ${server_args[@]+"${server_args[@]}"} || exit 1
{
    echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nproc) cores; uptime before: $(uptime)"
    echo "# server: $server_command (pid $server_pid, port $server_port, ulimit -n $(ulimit -n))"
    echo "# generator: parlor-load $* --server ws://127.0.0.1:$server_port/ws --server-pid $server_pid --json $out/$name.json"
} > "$out/$name.txt"
status=0
"$load" "$@" --server "ws://127.0.0.1:$server_port/ws" --server-pid "$server_pid" --json "$out/$name.json" \
    >> "$out/$name.txt" 2>&1 || status=$?
echo "# uptime after: $(uptime); parlor-load exit status $status" >> "$out/$name.txt"
cat "$out/$name.txt"
exit $status
