#!/usr/bin/env bash
# Runs a throwaway cluster on this machine: PostgreSQL, N parlor-server nodes on it and HAProxy in front
# (deploy/haproxy.cfg), all on loopback, until Ctrl-C, for a time, or around one command.
#
#   scripts/cluster.sh [--nodes N] [--bin DIR] [--skip-build] [--no-fsync] [--port P]
#                      [--node-flags "FLAGS"] [--logs DIR] [--for SECONDS | --run CMD [ARGS…]]
#
#   --nodes N     parlor-server nodes, 1 to 3 (default 3). With fewer, the unused PARLOR_NODE_k of
#                 deploy/haproxy.cfg name the nodes that exist (node k is node ((k-1) mod N)+1), so
#                 HAProxy sees three servers and one node may stand behind two of them
#   --bin DIR     where parlor-server is, built with the PostgreSQL trait (default: `swift build -c
#                 release --show-bin-path`, built first with `--traits PostgreSQL`)
#   --skip-build  use the default directory's binary as it is, without building
#   --no-fsync    PostgreSQL with fsync (and full_page_writes) off; the default keeps them on, so
#                 commits cost what they cost on a real server
#   --port P      the front's port (default: a free one)
#   --node-flags "FLAGS"  more parlor-server flags for every node, split on spaces
#                 (e.g. "--log-level warning --rate-limit 1000")
#   --logs DIR    copy the nodes', HAProxy's and PostgreSQL's logs into DIR before removing them
#   --for S       stop after S seconds instead of waiting for Ctrl-C
#   --run CMD …   run CMD (the rest of the line) once the front answers, then stop everything; exits
#                 with CMD's status. CMD sees PARLOR_SERVER (the front's ws://…/ws, which parlor-load
#                 reads), PARLOR_NODES (each node's http://HOST:PORT, space-separated), PARLOR_NODE_PIDS,
#                 PARLOR_POSTGRES (the database's postgres:// URL), PARLOR_POSTGRES_PID,
#                 PARLOR_HAPROXY_PID and PARLOR_CLUSTER_DIR (the scratch directory)
#
# PostgreSQL: initdb in a new temporary directory (trust authentication, user `parlor`, database
# `parlor`), the newest /usr/lib/postgresql/*/bin, a free loopback port; as root it runs as Debian's
# `postgres` user (initdb refuses root). Each node: `--port 0 --postgres URL --node-name nodeK` (the
# front's name for it) `--exempt-address 127.0.0.0/8` (every client reaches it from HAProxy's loopback
# address) `--data-dir` of its own,
# `--places none`, stdout and stderr to files in the temporary directory. The script waits until the
# front answers /healthz, prints the front's and the nodes' addresses, and on exit (Ctrl-C, SIGTERM,
# the end of --for or --run, or a failure) stops HAProxy, the nodes (SIGTERM, SIGKILL after 20 s) and
# PostgreSQL (`pg_ctl stop -m fast`) and removes the directory. A node that dies meanwhile is reported,
# and the cluster keeps running on the others (HAProxy takes it out after two failed checks).
#
#   scripts/cluster.sh                                   # three nodes until Ctrl-C
#   scripts/cluster.sh --nodes 1 --skip-build --run .build/release/parlor-load rooms --rooms 500 …
set -euo pipefail
# Paths given on the command line (--bin, --logs, the --run command) stay relative to where it was run.
root=$(cd "$(dirname "$0")/.." && pwd)

usage() { sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'; }
fail() { echo "cluster.sh: $*" >&2; exit 2; }

nodes=3
bin=""
build=1
fsync=on
front_port=""
node_flags=""
logs=""
for_seconds=""
run=()
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes) nodes="${2:-}"; shift 2 || fail "--nodes needs a number" ;;
    --bin) bin="${2:-}"; shift 2 || fail "--bin needs a directory" ;;
    --skip-build) build=0; shift ;;
    --no-fsync) fsync=off; shift ;;
    --port) front_port="${2:-}"; shift 2 || fail "--port needs a port" ;;
    --node-flags) node_flags="${2:-}"; shift 2 || fail "--node-flags needs flags" ;;
    --logs) logs="${2:-}"; shift 2 || fail "--logs needs a directory" ;;
    --for) for_seconds="${2:-}"; shift 2 || fail "--for needs seconds" ;;
    --run) shift; run=("$@"); [ ${#run[@]} -gt 0 ] || fail "--run needs a command"; break ;;
    -h|--help) usage; exit 0 ;;
    *) fail "unknown option '$1' (try --help)" ;;
  esac
done
case "$nodes" in 1|2|3) ;; *) fail "--nodes is 1, 2 or 3 (deploy/haproxy.cfg names three servers)" ;; esac
[ -z "$for_seconds" ] || [[ "$for_seconds" =~ ^[0-9]+$ ]] || fail "--for takes whole seconds"
[ -z "$for_seconds" ] || [ ${#run[@]} -eq 0 ] || fail "--for or --run, not both"
[ -z "$front_port" ] || [[ "$front_port" =~ ^[0-9]+$ ]] || fail "--port takes a port number"

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ] || fail "PostgreSQL is not installed (scripts/setup.sh --test installs it)"
command -v haproxy >/dev/null || fail "HAProxy is not installed (scripts/setup.sh --test installs it)"
command -v curl >/dev/null || fail "curl is missing (apt-get install curl)"

if [ -z "$bin" ]; then
  if [ "$build" = 1 ]; then
    echo "cluster.sh: building parlor-server (release, with the PostgreSQL trait: the clustered mode)"
    swift build --package-path "$root" -c release --traits PostgreSQL --product parlor-server
  fi
  bin=$(swift build --package-path "$root" -c release --show-bin-path)
fi
[ -x "$bin/parlor-server" ] || fail "no parlor-server in $bin (build it, or give --bin)"

# A port nobody listens on now (a race with other programs is possible, and unlikely on loopback).
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Each node, and HAProxy twice over, holds a descriptor per connection.
ulimit -n "$(ulimit -Hn)"

as_postgres=()
[ "$(id -u)" = 0 ] && as_postgres=(runuser -u postgres --)

dir=$(mktemp -d /tmp/parlor-cluster.XXXXXX)
node_pids=()
node_urls=()
haproxy_pid=""
pg_started=0

stop_pid() {  # PID SECONDS: SIGTERM, then SIGKILL if it has not exited in time
  local pid=$1 grace=$2
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 $((grace * 10))); do
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    sleep 0.1
  done
  echo "cluster.sh: $pid did not stop in $grace s; killing it" >&2
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  [ -z "$haproxy_pid" ] || stop_pid "$haproxy_pid" 5
  for pid in ${node_pids[@]+"${node_pids[@]}"}; do stop_pid "$pid" 20; done
  if [ "$pg_started" = 1 ]; then
    "${as_postgres[@]}" "$pg_bin/pg_ctl" stop -D "$dir/pg" -m fast -w >/dev/null || echo "cluster.sh: pg_ctl stop failed" >&2
  fi
  if [ -n "$logs" ]; then
    mkdir -p "$logs"
    cp "$dir"/*.log "$dir"/*.out "$logs"/ 2>/dev/null || true
    echo "cluster.sh: logs in $logs" >&2
  fi
  rm -rf "$dir"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# PostgreSQL.
[ ${#as_postgres[@]} -eq 0 ] || chown postgres: "$dir"
"${as_postgres[@]}" "$pg_bin/initdb" -D "$dir/pg" -U parlor --auth=trust --no-locale -E UTF8 --no-sync \
  > "$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; fail "initdb failed"; }
pg_port=$(free_port)
pg_options="-p $pg_port -k $dir -c listen_addresses=127.0.0.1 -c fsync=$fsync -c full_page_writes=$fsync"
pg_started=1
"${as_postgres[@]}" "$pg_bin/pg_ctl" start -D "$dir/pg" -l "$dir/postgres.log" -w -t 60 -o "$pg_options" >/dev/null \
  || { cat "$dir/postgres.log" >&2; fail "PostgreSQL did not start"; }
pg_pid=$(head -1 "$dir/pg/postmaster.pid")
"$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U parlor parlor
postgres_url="postgres://parlor@127.0.0.1:$pg_port/parlor"

# The nodes, each on a port of its own choosing, read back from its `listening on HOST:PORT` line.
read -r -a extra_flags <<< "$node_flags"
for i in $(seq 1 "$nodes"); do
  mkdir -p "$dir/node$i"
  "$bin/parlor-server" --port 0 --postgres "$postgres_url" --node-name "node$i" --exempt-address 127.0.0.0/8 \
    --data-dir "$dir/node$i/data" --places none ${extra_flags[@]+"${extra_flags[@]}"} \
    > "$dir/node$i.out" 2> "$dir/node$i.log" &
  node_pids+=($!)
done
for i in $(seq 1 "$nodes"); do
  port=""
  for _ in $(seq 1 600); do
    port=$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$dir/node$i.out")
    [ -n "$port" ] && break
    kill -0 "${node_pids[$((i - 1))]}" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$port" ] || { tail -20 "$dir/node$i.log" >&2; fail "node $i did not start"; }
  node_urls+=("http://127.0.0.1:$port")
done

# HAProxy, with the three servers of deploy/haproxy.cfg on the nodes there are.
[ -n "$front_port" ] || front_port=$(free_port)
export PARLOR_FRONT="127.0.0.1:$front_port"
for k in 1 2 3; do
  export "PARLOR_NODE_$k=${node_urls[$(((k - 1) % nodes))]#http://}"
done
haproxy_flags=(-f "$root/deploy/haproxy.cfg")
# Each connection holds two descriptors in HAProxy, and it refuses to start when it cannot raise its
# open-file limit to a little over twice the file's global maxconn: where the hard limit is lower,
# `-n` (which overrides the file) lowers maxconn to what the limit holds.
file_maxconn=$(awk '/^global/ { g = 1; next } /^[^ \t#]/ { g = 0 } g && $1 == "maxconn" { print $2 }' "$root/deploy/haproxy.cfg")
hard_limit=$(ulimit -Hn)
if [ -n "$file_maxconn" ] && [ "$hard_limit" != unlimited ] && [ "$hard_limit" -lt $((2 * file_maxconn + 100)) ]; then
  haproxy_flags+=(-n $(((hard_limit - 100) / 2)))
  echo "cluster: HAProxy maxconn $(((hard_limit - 100) / 2)) instead of $file_maxconn (open files here: at most $hard_limit)"
fi
haproxy -c -q "${haproxy_flags[@]}" || fail "deploy/haproxy.cfg does not check"
haproxy -db "${haproxy_flags[@]}" > "$dir/haproxy.out" 2> "$dir/haproxy.log" &
haproxy_pid=$!
front="http://$PARLOR_FRONT"
for _ in $(seq 1 300); do
  curl -fsS -o /dev/null --max-time 2 "$front/healthz" 2>/dev/null && break
  kill -0 "$haproxy_pid" 2>/dev/null || { cat "$dir/haproxy.log" >&2; fail "HAProxy stopped"; }
  sleep 0.1
done
curl -fsS -o /dev/null --max-time 2 "$front/healthz" || { cat "$dir/haproxy.log" >&2; fail "the front does not answer /healthz"; }

echo "cluster: front ws://$PARLOR_FRONT/ws (HAProxy pid $haproxy_pid)"
for i in $(seq 1 "$nodes"); do
  echo "cluster: node $i ${node_urls[$((i - 1))]} (pid ${node_pids[$((i - 1))]}, log $dir/node$i.log)"
done
echo "cluster: PostgreSQL $postgres_url (pid $pg_pid, fsync $fsync)"

if [ ${#run[@]} -gt 0 ]; then
  status=0
  PARLOR_SERVER="ws://$PARLOR_FRONT/ws" PARLOR_NODES="${node_urls[*]}" PARLOR_NODE_PIDS="${node_pids[*]}" \
    PARLOR_POSTGRES="$postgres_url" PARLOR_POSTGRES_PID="$pg_pid" PARLOR_HAPROXY_PID="$haproxy_pid" \
    PARLOR_CLUSTER_DIR="$dir" "${run[@]}" || status=$?
  exit "$status"
fi

[ -n "$for_seconds" ] && echo "cluster: running for $for_seconds s" || echo "cluster: running; Ctrl-C stops it"
reported=()
start=$SECONDS
while [ -z "$for_seconds" ] || [ $((SECONDS - start)) -lt "$for_seconds" ]; do
  for i in $(seq 1 "$nodes"); do
    if [ -z "${reported[$i]:-}" ] && ! kill -0 "${node_pids[$((i - 1))]}" 2>/dev/null; then
      echo "cluster.sh: node $i (pid ${node_pids[$((i - 1))]}) is gone; its log: $dir/node$i.log" >&2
      reported[$i]=1
    fi
  done
  kill -0 "$haproxy_pid" 2>/dev/null || fail "HAProxy is gone"
  sleep 1
done
