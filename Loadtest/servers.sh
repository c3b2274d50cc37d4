# Starting and stopping the server a benchmark measures. Sourced by the Loadtest scripts, not run.
#
#   start_server parlor|node LOG_PREFIX [SERVER FLAGS…]
#       parlor: $bin/parlor-server (bin defaults to $BIN or .build/release) --port 0 --data-dir DIR
#               --log-level warning [--exempt-address 127.0.0.0/8] [flags], DIR a new directory removed
#               by stop_server (the exemption when the build has per-address limits: the load comes
#               from loopback);
#       node:   the Node `ws` peer, Loadtest/peers/node-ws/server.js --port 0 [flags] (see
#               Loadtest/peers/README.md; scripts/setup.sh --bench installs Debian's node-ws).
#       Stdout goes to LOG_PREFIX.out, stderr to LOG_PREFIX.log (an empty prefix: a scratch directory
#       stop_server removes). Waits for its `listening on HOST:PORT` line, then sets server_pid,
#       server_port and server_command. Fails, showing the log, if the server stops or takes 30 s.
#   stop_server          SIGTERM, wait for it to exit, remove its scratch directory.
#   prepare_benchmark [SERVER FLAGS…] -- [SCENARIO FLAGS…]
#                        Splits the arguments at -- into server_args and scenario_args, sets out
#                        ($BENCH_OUT, default /tmp/parlor-bench; created) and load (parlor-load in $BIN or
#                        .build/release), raises `ulimit -n` to the hard limit and stops the server on exit.
#   cpu_ticks PID        user + system CPU time of PID so far, in clock ticks (/proc/PID/stat).
#
# Both processes need a descriptor per connection: callers raise `ulimit -n` to the hard limit first.

loadtest_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

start_server() {
    local kind=$1 prefix=$2
    shift 2
    server_scratch=$(mktemp -d /tmp/parlor-bench-server.XXXXXX)
    [ -n "$prefix" ] || prefix=$server_scratch/server
    case "$kind" in
    parlor)
        local binary=${bin:-${BIN:-.build/release}}/parlor-server
        # The generator runs on this machine, so every connection comes from loopback: lift the
        # per-address limits there (builds from before they existed do not know the flag).
        # (The help is read whole: `grep -q` closing the pipe early made the check fail at random under
        # pipefail, and the server then refused the generator's connections as one address's flood.)
        local help
        help=$("$binary" --help 2>/dev/null || true)
        if [[ $help == *--exempt-address* ]]; then set -- --exempt-address 127.0.0.0/8 "$@"; fi
        server_command="$binary --port 0 --data-dir $server_scratch/data --log-level warning $*"
        "$binary" --port 0 --data-dir "$server_scratch/data" --log-level warning "$@" > "$prefix.out" 2> "$prefix.log" &
        ;;
    node)
        [ -f /usr/share/nodejs/ws/package.json ] || { echo "Debian's node-ws is missing: run scripts/setup.sh --bench" >&2; return 1; }
        local script=$loadtest_dir/peers/node-ws/server.js
        local versions="node $(${NODE:-node} --version), ws $(sed -n 's/^ *"version": "\(.*\)",$/\1/p' /usr/share/nodejs/ws/package.json)"
        server_command="NODE_PATH=/usr/share/nodejs ${NODE:-node} $script --port 0${*:+ $*} ($versions)"
        # Assignment-prefixed, so the shell execs node itself and $! is the server's own pid.
        NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH} "${NODE:-node}" "$script" --port 0 "$@" > "$prefix.out" 2> "$prefix.log" &
        ;;
    *)
        echo "start_server: unknown server kind '$kind' (parlor or node)" >&2
        return 1
        ;;
    esac
    server_pid=$!
    server_port=
    for _ in $(seq 1 300); do
        server_port=$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$prefix.out")
        [ -n "$server_port" ] && { wait_until_settled "$server_pid"; return 0; }
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "$kind server did not start ($server_command):" >&2
    cat "$prefix.log" >&2
    stop_server
    return 1
}

# A server that listens may still be busy starting: Parlor reads its GeoNames places (the photo quiz's
# place names) in the background, about 4 s of CPU in the first 10 s on two cores. A run started
# meanwhile would count that work as the scenario's. Waits (at most 30 s) until the server has used
# no CPU for a whole second.
wait_until_settled() {
    local pid=$1 before after
    for _ in $(seq 1 30); do
        before=$(cpu_ticks "$pid" 2>/dev/null) || return 0
        sleep 1
        after=$(cpu_ticks "$pid" 2>/dev/null) || return 0
        [ "$after" = "$before" ] && return 0
    done
}

stop_server() {
    if [ -n "${server_pid:-}" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    [ -n "${server_scratch:-}" ] && rm -rf "$server_scratch"
    server_pid= server_scratch=
}

cpu_ticks() {
    awk '{ print $14 + $15 }' "/proc/$1/stat"
}

prepare_benchmark() {
    server_args=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do server_args+=("$1"); shift; done
    [ "${1:-}" = "--" ] && shift
    scenario_args=("$@")
    out=${BENCH_OUT:-/tmp/parlor-bench}
    load=${BIN:-.build/release}/parlor-load
    mkdir -p "$out"
    ulimit -n "$(ulimit -Hn)"
    trap stop_server EXIT
}
