#!/usr/bin/env bash
# One parlor-load scenario through a cluster's front, with what each part of the cluster spent on it.
# Run it as the command of scripts/cluster.sh, which starts the cluster and sets the PARLOR_* variables:
#
#   scripts/cluster.sh --nodes N --skip-build --run Loadtest/cluster-benchmark.sh NAME SCENARIO [parlor-load FLAGS…]
#
# Runs $BIN/parlor-load (default .build/release) SCENARIO FLAGS --server $PARLOR_SERVER --json
# $BENCH_OUT/NAME.json (default /tmp/parlor-bench) and writes NAME.txt: parlor-load's table, then
#   - CPU (cores) of each node, of PostgreSQL (the postmaster and all its processes), of HAProxy and of
#     parlor-load, from /proc/PID/stat sampled every second, over the measured window (the first
#     submission due + 2 s → the last one due, from the JSON's timing) and over the whole run;
#   - PostgreSQL's work over the run (pg_stat_database, pg_stat_wal): commits, rows inserted and
#     updated, WAL flushes, each per second;
#   - each node's cluster figures from /metrics, this run's share: notifications sent and received,
#     reloads by reason, and the fan-out latency histogram (another node's commit → publication here),
#     summed over the nodes, with its percentiles read from the buckets (the bucket that holds the
#     percentile, and an estimate interpolated inside it), and the same for submitScore's handling.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
name=$1; shift
: "${PARLOR_SERVER:?run under scripts/cluster.sh --run}"
out=${BENCH_OUT:-/tmp/parlor-bench}
load=${BIN:-.build/release}/parlor-load
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
mkdir -p "$out"
read -r -a nodes <<< "$PARLOR_NODES"
read -r -a node_pids <<< "$PARLOR_NODE_PIDS"
scratch=$(mktemp -d /tmp/cluster-benchmark.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
postgres_ticks() {  # the postmaster and its children (backends, WAL writer, checkpointer, …)
  local total pid
  total=$(ticks "$PARLOR_POSTGRES_PID")
  for pid in $(pgrep -P "$PARLOR_POSTGRES_PID"); do total=$((total + $(ticks "$pid"))); done
  echo "$total"
}
pg_figures() {
  "$pg_bin/psql" -X -A -t -F ' ' -d "$PARLOR_POSTGRES" -c \
    "SELECT xact_commit, tup_inserted, tup_updated, tup_deleted, (SELECT wal_sync FROM pg_stat_wal),
            (SELECT coalesce(sum(n_tup_hot_upd), 0) FROM pg_stat_user_tables WHERE relname = 'games'),
            (SELECT wal_bytes FROM pg_stat_wal)
     FROM pg_stat_database WHERE datname = current_database()"
}
scrape() {  # SUFFIX: every node's /metrics into $scratch/nodeK.SUFFIX
  local i
  for i in "${!nodes[@]}"; do curl -fsS --max-time 10 "${nodes[$i]}/metrics" > "$scratch/node$((i + 1)).$1"; done
}

scrape before
pg_before=$(pg_figures)
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nproc) cores; ${#nodes[@]} node(s) behind HAProxy; uptime before: $(uptime)" > "$out/$name.txt"
echo "# generator: parlor-load $* --server $PARLOR_SERVER --json $out/$name.json" >> "$out/$name.txt"
status=0
"$load" "$@" --server "$PARLOR_SERVER" --json "$out/$name.json" >> "$out/$name.txt" 2>&1 &
load_pid=$!
start=$(date +%s.%N)
while kill -0 "$load_pid" 2>/dev/null; do
  line="$(awk -v s="$start" -v n="$(date +%s.%N)" 'BEGIN { printf "%.2f", n - s }')"
  for pid in "${node_pids[@]}"; do line+=" $(ticks "$pid")"; done
  load_ticks=$(ticks "$load_pid")
  # parlor-load may have ended since the loop's test: its zero would spoil the last sample.
  [ "$load_ticks" != 0 ] || kill -0 "$load_pid" 2>/dev/null || break
  echo "$line $(postgres_ticks) $(ticks "$PARLOR_HAPROXY_PID") $load_ticks" >> "$scratch/samples"
  sleep 1
done
wait "$load_pid" || status=$?
pg_after=$(pg_figures)
scrape after
echo "# uptime after: $(uptime); parlor-load exit status $status" >> "$out/$name.txt"
cp "$scratch/samples" "$out/$name.samples"
for f in "$scratch"/node*.after; do cp "$f" "$out/$name.$(basename "$f" .after).metrics"; done

python3 - "$out/$name.json" "$scratch" "${#nodes[@]}" "$(getconf CLK_TCK)" "$pg_before" "$pg_after" >> "$out/$name.txt" <<'PY'
import json, re, sys
from collections import defaultdict
report_path, scratch, nodes, hz, pg_before, pg_after = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
try:
    report = json.load(open(report_path))
except Exception:
    report = None

samples = [list(map(float, l.split())) for l in open(f"{scratch}/samples") if l.strip()]
names = [f"node {i + 1}" for i in range(nodes)] + ["PostgreSQL", "HAProxy", "parlor-load"]

def cores(first, last):
    seconds = last[0] - first[0]
    return [(b - a) / hz / seconds if seconds > 0 else 0 for a, b in zip(first[1:], last[1:])], seconds

print("\n## cluster (Loadtest/cluster-benchmark.sh)")
if report and len(samples) >= 2:
    t0 = report["timing"]["setupSeconds"] + 2
    t1 = report["timing"]["setupSeconds"] + report["timing"]["measuredSeconds"]
    window = [s for s in samples if t0 <= s[0] <= t1]
    if len(window) >= 2:
        used, seconds = cores(window[0], window[-1])
        print(f"CPU over the measured window ({window[0][0]:.0f}–{window[-1][0]:.0f} s, {seconds:.1f} s), cores: "
              + ", ".join(f"{n} {c:.2f}" for n, c in zip(names, used))
              + f"; nodes together {sum(used[:nodes]):.2f}")
        events = report["rates"]["events"]
        if events > 0:
            print(f"  per delivered update: nodes {sum(used[:nodes]) / events * 1e6:.1f} µs, PostgreSQL {used[nodes] / events * 1e6:.1f} µs, "
                  f"HAProxy {used[nodes + 1] / events * 1e6:.1f} µs ({events:.0f} updates/s)")
if len(samples) >= 2:
    used, seconds = cores(samples[0], samples[-1])
    print(f"CPU over the whole run ({seconds:.1f} s), cores: " + ", ".join(f"{n} {c:.2f}" for n, c in zip(names, used)))

b, a = list(map(int, pg_before.split())), list(map(int, pg_after.split()))
d = [y - x for x, y in zip(b, a)]
seconds = samples[-1][0] - samples[0][0] if len(samples) >= 2 else 1
print(f"PostgreSQL over the run: {d[0]} commits ({d[0] / seconds:.0f}/s), {d[1]} rows inserted, {d[2]} updated "
      f"({d[2] / seconds:.0f}/s), {d[3]} deleted, {d[4]} WAL flushes ({d[4] / seconds:.0f}/s)"
      + (f"; {d[2] / d[4]:.1f} rows updated per WAL flush" if d[4] else "")
      + (f"; {d[5]} HOT updates of games ({d[5] / d[2] * 100:.0f}% of the updates); {d[6] / 1e6:.1f} MB of WAL ({d[6] / max(d[2], 1):.0f} bytes per row updated)" if len(d) > 6 and d[2] else ""))

sample = re.compile(r'^([a-z_]+)(\{[^}]*\})?\s+([0-9.eE+-]+|\+Inf|NaN)$')
def parse(path):
    values = {}
    for line in open(path):
        m = sample.match(line.strip())
        if m:
            values[(m.group(1), m.group(2) or "")] = float(m.group(3))
    return values

def delta(node, key):
    return node["after"].get(key, 0) - node["before"].get(key, 0)

per_node = [{"before": parse(f"{scratch}/node{i + 1}.before"), "after": parse(f"{scratch}/node{i + 1}.after")} for i in range(nodes)]
conflicts = 0.0
for i, node in enumerate(per_node):
    reloads = ", ".join("%s %.0f" % (r, delta(node, ("parlor_cluster_reloads_total", '{reason="%s"}' % r))) for r in ("notified", "conflict", "adopted", "refused"))
    conflicts += delta(node, ("parlor_cluster_reloads_total", '{reason="conflict"}'))
    served = lambda metric, where: node["after"].get((metric, '{served="%s"}' % where), 0)
    print(f"node {i + 1}: notifications sent {delta(node, ('parlor_cluster_notifications_sent_total', '')):.0f}, "
          f"received {delta(node, ('parlor_cluster_notifications_received_total', '')):.0f}, "
          f"failed {delta(node, ('parlor_cluster_notifications_failed_total', '')):.0f}; reloads: {reloads}; "
          f"versions from announcements {delta(node, ('parlor_cluster_versions_from_announcements_total', '')):.0f}, "
          f"claims {delta(node, ('parlor_cluster_claims_total', '')):.0f}; at the end: games served here {served('parlor_cluster_games', 'here'):.0f}, "
          f"copies {served('parlor_cluster_games', 'elsewhere'):.0f}; subscriptions here {served('parlor_cluster_subscriptions', 'here'):.0f}, "
          f"elsewhere {served('parlor_cluster_subscriptions', 'elsewhere'):.0f}")
if report:
    changes = report["counts"]["replies"]
    if changes:
        print(f"lost races: {conflicts:.0f} for {changes} changes answered, {conflicts / changes:.4f} per change")

def histogram(metric, label_filter=""):
    buckets = defaultdict(float)
    for node in per_node:
        for (name, labels), value in node["after"].items():
            if name == metric + "_bucket" and label_filter in labels:
                le = re.search(r'le="([^"]+)"', labels).group(1)
                buckets[le] += value - node["before"].get((name, labels), 0)
    ordered = sorted(((float("inf") if le == "+Inf" else float(le), n) for le, n in buckets.items()))
    return ordered

def percentiles(title, ordered):
    if not ordered or ordered[-1][1] == 0:
        print(f"{title}: no samples"); return
    total = ordered[-1][1]
    parts = []
    for p in (0.5, 0.9, 0.99, 0.999):
        rank = p * total
        lower_bound, lower_count = 0.0, 0.0
        for bound, count in ordered:
            if count >= rank:
                if bound == float("inf"):
                    parts.append(f"p{p * 100:g} > {lower_bound * 1000:g} ms")
                else:
                    estimate = lower_bound + (bound - lower_bound) * ((rank - lower_count) / (count - lower_count) if count > lower_count else 1)
                    parts.append(f"p{p * 100:g} ≤ {bound * 1000:g} ms (~{estimate * 1000:.2f})")
                break
            lower_bound, lower_count = bound, count
    print(f"{title}, {total:.0f} samples: " + ", ".join(parts))

percentiles("cross-node fan-out (parlor_cluster_fanout_latency_seconds, all nodes)", histogram("parlor_cluster_fanout_latency_seconds"))
percentiles("submitScore handling (parlor_operation_duration_seconds, all nodes)", histogram("parlor_operation_duration_seconds", 'op="submitScore"'))
percentiles("broadcast (parlor_broadcast_latency_seconds, all nodes)", histogram("parlor_broadcast_latency_seconds"))
PY
cat "$out/$name.txt"
exit "$status"
