#!/usr/bin/env bash
# What game records cost (issue 31): the same darts load twice against a fresh SQLite server, records
# on (as shipped) and off (`--no-game-records`, a hidden flag that exists only for this comparison),
# then each run's action → reply latency (parlor-load's table: every visit is a save, so this is the
# save path as players feel it) and, from the data directory, the bytes the records took per action.
#
#   Loadtest/record-cost.sh [parlor-load darts FLAGS…]
#
# Defaults to `--matches 500 --players 2 --interval 2 --duration 60`. Build first:
# swift build -c release --product parlor-server && swift build -c release --product parlor-load
# Writes records-on.{txt,json} and records-off.{txt,json} into $BENCH_OUT (default /tmp/parlor-bench).
set -euo pipefail
. "$(dirname "$0")/servers.sh"
prepare_benchmark -- "$@"
set -- ${scenario_args[@]+"${scenario_args[@]}"}
[ $# -gt 0 ] || set -- --matches 500 --players 2 --interval 2 --duration 60

# Bytes of the database and of its records' columns, and the records' steps, while the server runs.
database_figures() {
    python3 - "$1/parlor.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
pages = db.execute("PRAGMA page_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]
try:
    steps, step_bytes = db.execute("SELECT count(*), coalesce(sum(length(record_id) + coalesce(length(actor), 0) + length(action) + coalesce(length(environment), 0) + 24), 0) FROM game_record_steps").fetchone()
except sqlite3.OperationalError:
    steps, step_bytes = 0, 0
games = db.execute("SELECT count(*), coalesce(sum(version - 1), 0) FROM games").fetchone()
print(f"database {pages} B; games {games[0]}, actions applied {games[1]}; record steps {steps}, {step_bytes} B of step columns"
      + (f", {step_bytes // steps} B per action" if steps else ""))
PY
}

for mode in on off; do
    flags=()
    [ "$mode" = off ] && flags=(--no-game-records)
    start_server parlor "$out/records-$mode.server" ${flags[@]+"${flags[@]}"}
    {
        echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) records $mode; $(nproc) cores; uptime before: $(uptime)"
        echo "# server: $server_command (pid $server_pid)"
    } > "$out/records-$mode.txt"
    "$load" darts "$@" --server "ws://127.0.0.1:$server_port/ws" --server-pid "$server_pid" --json "$out/records-$mode.json" \
        >> "$out/records-$mode.txt" 2>&1 || echo "# parlor-load exit status $?" >> "$out/records-$mode.txt"
    echo "# $(database_figures "$server_scratch/data")" >> "$out/records-$mode.txt"
    echo "# uptime after: $(uptime)" >> "$out/records-$mode.txt"
    stop_server
    cat "$out/records-$mode.txt"
done
