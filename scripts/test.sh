#!/usr/bin/env bash
# Runs the test suite one test at a time (`swift test --no-parallel`, plus any flags given, e.g.
# `--filter ClusterTests` or `--skip-build`) and stops it if a single test runs for longer than
# PARLOR_TEST_STALL seconds (default 600; the slowest test takes about a minute):
#
#   scripts/test.sh [swift test flags…]
#
# A test that waits for something that never comes would otherwise hold the run until whoever runs it
# gives up, with nothing said about which test it was. Here the run is stopped instead: the test (or
# tests) still running, how long each has run and the processes left behind are printed, every
# process of the run is killed, and the script exits with 124. Otherwise its status is swift test's.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 -u - "$@" <<'PY'
import os, re, signal, subprocess, sys, threading, time

stall = float(os.environ.get("PARLOR_TEST_STALL", "600"))
# Line-buffered output (coreutils stdbuf, inherited by the test process): piped, the test process would
# buffer it in blocks, and a hung test's "started" line would sit unseen in the buffer.
command = ["stdbuf", "-oL", "-eL", "swift", "test", "--no-parallel"] + sys.argv[1:]
run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
started = re.compile(r"^◇ Test (.+) started\.$")
ended = re.compile(r"^(?:[✔✘] Test (.+) (?:passed|failed) after |➜ Test (.+) skipped)")
running = {}  # a test's name → when it started
lock = threading.Lock()
stopped = threading.Event()


def watch():
    while run.poll() is None and not stopped.is_set():
        time.sleep(5)
        now = time.monotonic()
        with lock:
            late = [(name, now - since) for name, since in running.items() if now - since > stall]
        if not late:
            continue
        for name, seconds in late:
            print(f"scripts/test.sh: test {name} has run for {seconds:.0f} s (PARLOR_TEST_STALL={stall:.0f}); stopping the run", flush=True)
        tree = subprocess.run(["ps", "-o", "pid,etimes,args", "--forest", "-g", str(run.pid)], capture_output=True, text=True)
        print("scripts/test.sh: the run's processes:\n" + tree.stdout, flush=True)
        stopped.set()
        os.killpg(run.pid, signal.SIGKILL)
        # A process that left the run's group may still hold the output open: do not wait on it.
        time.sleep(10)
        os._exit(124)


threading.Thread(target=watch, daemon=True).start()
for raw in run.stdout:
    line = raw.decode("utf-8", "replace")
    sys.stdout.write(line)
    text = line.rstrip("\n")
    with lock:
        if text.startswith("◇ Test run started"):
            pass  # the whole run, not a test
        elif match := started.match(text):
            running[match.group(1)] = time.monotonic()
        elif match := ended.match(text):
            running.pop(match.group(1) or match.group(2), None)
status = run.wait()
sys.exit(124 if stopped.is_set() else status)
PY
