#!/usr/bin/env bash
# Runs one parlor-load scenario against a fresh parlor-server on this machine and keeps the evidence.
#
#   Loadtest/run-benchmark.sh NAME [SERVER FLAGS…] -- SCENARIO [parlor-load FLAGS…]
#
# Starts .build/release/parlor-server on a free port with a new data directory (persistence on unless
# the server flags say --no-persist), passes --url, --server-pid and --json to parlor-load, and writes
# NAME.json, NAME.txt (table and progress lines) and NAME.server.log into $BENCH_OUT (default
# /tmp/parlor-bench). Build first: swift build -c release --product parlor-server --product parlor-load
set -euo pipefail
name=$1; shift
server_args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do server_args+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
out=${BENCH_OUT:-/tmp/parlor-bench}
bin=${BIN:-.build/release}
mkdir -p "$out"
data=$(mktemp -d /tmp/parlor-bench-data.XXXXXX)
# Both processes need one descriptor per connection: take the hard limit.
ulimit -n "$(ulimit -Hn)"
# The generator runs on this machine, so every connection comes from loopback: lift the per-address
# limits there (builds from before they existed do not know the flag).
if "$bin/parlor-server" --help | grep -q -- --exempt-address; then server_args=(--exempt-address 127.0.0.0/8 "${server_args[@]}"); fi
"$bin/parlor-server" --port 0 --data-dir "$data" --log-level warning "${server_args[@]}" \
    > "$out/$name.server.out" 2> "$out/$name.server.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 1 200); do
    port=$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$out/$name.server.out")
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "${port:-}" ] || { echo "parlor-server did not start:"; cat "$out/$name.server.log"; exit 1; }
{
    echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nproc) cores; uptime before: $(uptime)"
    echo "# server: parlor-server --port 0 --data-dir $data --log-level warning ${server_args[*]} (pid $server, port $port, ulimit -n $(ulimit -n))"
    echo "# generator: parlor-load $* --url ws://127.0.0.1:$port/ws --server-pid $server --json $out/$name.json"
} > "$out/$name.txt"
status=0
"$bin/parlor-load" "$@" --url "ws://127.0.0.1:$port/ws" --server-pid "$server" --json "$out/$name.json" \
    >> "$out/$name.txt" 2>&1 || status=$?
echo "# uptime after: $(uptime); parlor-load exit status $status" >> "$out/$name.txt"
cat "$out/$name.txt"
exit $status
