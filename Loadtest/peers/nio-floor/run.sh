#!/usr/bin/env bash
# Runs the floor measurement once: N connections (default 8000), RATE messages a second (36000, what
# `parlor-load rooms --rooms 1000 --players 8 --interval 2` delivers), for SECONDS (15). Build first:
#   (cd Loadtest/peers/nio-floor && swift build -c release)
set -euo pipefail
cd "$(dirname "$0")"
N=${N:-8000}; RATE=${RATE:-36000}; SECONDS_=${SECONDS_:-15}; PORT=${PORT:-47123}
ulimit -n "$(ulimit -Hn)"
bin=.build/release/nio-floor
"$bin" server "$N" "$RATE" "$SECONDS_" "$PORT" &
server=$!
sleep 1
"$bin" client "$N" "$PORT" > /dev/null &
client=$!
trap 'kill $client 2>/dev/null || true' EXIT
wait $server
