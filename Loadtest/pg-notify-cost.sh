#!/usr/bin/env bash
# What NOTIFY costs PostgreSQL on this machine, next to the commits it follows: pgbench runs of a plain
# UPDATE, a NOTIFY on its own (as PostgresWriter sends it after each batch), an UPDATE followed by its
# NOTIFY as two transactions (the writer's pattern), and an UPDATE and a NOTIFY in one transaction (the
# pattern the writer avoids: the notify queue's lock held across the commit's WAL flush), and a
# NOTIFY of 50 distinct payloads in one statement (one batch's worth), each with 1 and with 8 clients.
#
#   scripts/cluster.sh --nodes 3 --skip-build --run Loadtest/pg-notify-cost.sh [SECONDS]
#
# Runs on the cluster's database (PARLOR_POSTGRES, set by scripts/cluster.sh --run), so the nodes'
# listening connections are there as in production: every notification enters the one queue they all
# read. The payload is 60 bytes, the size of a `GameChange`. SECONDS per run (default 10). Prints a
# row per run: transactions/s and mean latency from pgbench, and the WAL flushes per transaction
# (pg_stat_wal).
set -euo pipefail
seconds=${1:-10}
url=${PARLOR_POSTGRES:?run under scripts/cluster.sh --run}
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
scripts=$(mktemp -d /tmp/pg-notify-cost.XXXXXX)
trap 'rm -rf "$scripts"' EXIT

payload="n1 123456 1767225600000 rooms 0123456789abcdef0123456789abcdef0123"
"$pg_bin/psql" -X -q -d "$url" -v ON_ERROR_STOP=1 <<'SQL'
CREATE TABLE IF NOT EXISTS bench_rows (id int PRIMARY KEY, v bigint NOT NULL);
INSERT INTO bench_rows SELECT g, 0 FROM generate_series(1, 10000) g ON CONFLICT DO NOTHING;
SQL
printf '%s\n' '\set id random(1, 10000)' 'UPDATE bench_rows SET v = v + 1 WHERE id = :id;' > "$scripts/update.sql"
printf '%s\n' "SELECT pg_notify('bench', '$payload');" > "$scripts/notify.sql"
printf '%s\n' "SELECT pg_notify('bench', '$payload ' || g) FROM generate_series(1, 50) AS g;" > "$scripts/notify-50.sql"
printf '%s\n' '\set id random(1, 10000)' 'UPDATE bench_rows SET v = v + 1 WHERE id = :id;' \
    "SELECT pg_notify('bench', '$payload');" > "$scripts/update-then-notify.sql"
printf '%s\n' '\set id random(1, 10000)' 'BEGIN;' 'UPDATE bench_rows SET v = v + 1 WHERE id = :id;' \
    "SELECT pg_notify('bench', '$payload');" 'COMMIT;' > "$scripts/update-and-notify.sql"

wal_syncs() { "$pg_bin/psql" -X -A -t -d "$url" -c "SELECT wal_sync FROM pg_stat_wal"; }

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nproc) cores; fsync $("$pg_bin/psql" -X -A -t -d "$url" -c 'SHOW fsync'); $("$pg_bin/psql" -X -A -t -d "$url" -c 'SELECT version()' | cut -d, -f1); listeners: $("$pg_bin/psql" -X -A -t -d "$url" -c "SELECT count(*) FROM pg_stat_activity WHERE query ILIKE 'LISTEN%'"); uptime: $(uptime)"
printf '%-20s %7s %10s %12s %13s\n' script clients "tx/s" "latency ms" "WAL syncs/tx"
for name in update notify notify-50 update-then-notify update-and-notify; do
  for clients in 1 8; do
    before=$(wal_syncs)
    result=$("$pg_bin/pgbench" -n -f "$scripts/$name.sql" -c "$clients" -j "$clients" -T "$seconds" "$url" 2>&1)
    after=$(wal_syncs)
    tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' <<< "$result")
    latency=$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' <<< "$result")
    transactions=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' <<< "$result")
    [ -n "$tps" ] || { echo "$result" >&2; exit 1; }
    printf '%-20s %7s %10.0f %12s %13.2f\n' "$name" "$clients" "$tps" "$latency" \
        "$(awk -v a="$after" -v b="$before" -v t="$transactions" 'BEGIN { print (a - b) / t }')"
  done
done
echo "# uptime after: $(uptime)"
