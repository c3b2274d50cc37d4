#!/usr/bin/env bash
# Runs the test suite one test at a time (`swift test --no-parallel`, plus any flags given, e.g.
# `--filter ClusterTests` or `--skip-build`) and stops it if a single test runs for longer than
# PARLOR_TEST_STALL seconds (default 600; the slowest test takes about a minute):
#
#   scripts/test.sh [swift test flags…]
#
# The tests are built with the package's PostgreSQL trait (`--traits PostgreSQL`: the clustered mode and
# its tests) unless the flags choose traits themselves: `--disable-default-traits` tests the default
# build, which has no PostgreSQL (Package.swift).
#
# A test that waits for something that never comes would otherwise hold the run until whoever runs it
# gives up, with nothing said about which test it was. Here the run is stopped instead: the test (or
# tests) still running, how long each has run and the processes left behind are printed, every
# process of the run is killed, and the script exits with 124.
#
# At the end, every failed test is named again with the issues it recorded (the whole message: a
# process's output in it, up to its first 20 and last 40 lines), so the last lines of a
# long log say what failed. A run where at most PARLOR_TEST_RETRIES tests (default 3; 0 turns this
# off) failed runs each of them once more, alone: the run passes only if every one of them passes
# then, and each is still listed as "failed once" so a test that fails now and then is seen and
# fixed, not hidden. More failures than that, or a failure on the second try, fail the run. A test
# given a display name is run again by its function's name, found in the test sources.
#
# A whole run (no --filter or --skip) then runs scripts/check-closures.py, which fails the run if the
# compiler made two of the package's closures one function (about a minute).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 -u - "$@" <<'PY'
import os, re, signal, subprocess, sys, threading, time

stall = float(os.environ.get("PARLOR_TEST_STALL", "600"))
retries = int(os.environ.get("PARLOR_TEST_RETRIES", "3"))
started = re.compile(r"^◇ Test (.+) started\.$")
ended = re.compile(r"^(?:[✔✘] Test (.+) (?:passed|failed) after |➜ Test (.+) skipped)")
failed = re.compile(r"^✘ Test (?!run with )(.+?) (?:failed after |recorded an issue)")
# An XCTest failure: "/path/File.swift:12: error: -[Module.Suite testName] : message".
# "name(argument:) with 3 test cases" is the test "name(argument:)".
cases = re.compile(r" with \d+ test cases?$")
# A log line of a server running in the test process: "2026-11-30T11:25:40+0000 info parlor…".
logged = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
failed_xctest = re.compile(r"error: -\[\S+ (\w+)\] :")


def run_tests(arguments):
    """Runs swift test with the watchdog; returns (status, {failed test → the lines it printed}, the
    tests that passed)."""
    # Line-buffered output (coreutils stdbuf, inherited by the test process): piped, the test process
    # would buffer it in blocks, and a hung test's "started" line would sit unseen in the buffer.
    command = ["stdbuf", "-oL", "-eL", "swift", "test", "--no-parallel"] + arguments
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    running = {}  # a test's name → when it started
    failures = {}  # a failed test's name → its ✘ lines
    passed = set()
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
            summarize(failures)
            os._exit(124)

    threading.Thread(target=watch, daemon=True).start()
    explaining = None  # the failure whose message's further lines are being read
    for raw in run.stdout:
        line = raw.decode("utf-8", "replace")
        sys.stdout.write(line)
        text = line.rstrip("\n")
        with lock:
            if text.startswith(("◇ ", "✔ ", "✘ ", "↳ ", "Test Suite ", "Test Case ")) or logged.match(text):
                explaining = None
            elif explaining is not None and not failed_xctest.search(text):
                explaining.append(text)  # an issue's message goes on (a process's output, say)
                continue
            if text.startswith("◇ Test run started"):
                pass  # the whole run, not a test
            elif match := started.match(text):
                running[match.group(1)] = time.monotonic()
            elif match := ended.match(text):
                running.pop(match.group(1) or match.group(2), None)
                if text.startswith("✔"):
                    passed.add(cases.sub("", match.group(1)))
            if match := failed.match(text):
                failures.setdefault(cases.sub("", match.group(1)), []).append(text)
                if " recorded an issue" in text:
                    explaining = failures[cases.sub("", match.group(1))]
            elif match := failed_xctest.search(text):
                failures.setdefault(match.group(1), []).append(text)
    status = run.wait()
    if stopped.is_set():
        time.sleep(60)  # the watchdog exits the script
    return status, failures, passed


def summarize(failures, heading="failed"):
    if not failures:
        return
    print(f"\nscripts/test.sh: {len(failures)} test(s) {heading}:", flush=True)
    for name, lines in failures.items():
        print(f"  {name}", flush=True)
        # An issue's message may hold a process's whole output: its first and last lines say enough.
        if len(lines) > 60:
            lines = lines[:20] + [f"… ({len(lines) - 60} lines left out) …"] + lines[-40:]
        for line in lines:
            print(f"    {line}", flush=True)


def is_filter(argument):
    """--filter or --skip, with its value joined (--filter=…) or next."""
    return argument in ("--filter", "--skip") or argument.startswith(("--filter=", "--skip="))


def without_filters(arguments):
    """The flags given, less any --filter/--skip (a retry names its own tests) and --skip-build."""
    kept, skip_next = [], False
    for argument in arguments:
        if skip_next:
            skip_next = False
        elif is_filter(argument):
            skip_next = "=" not in argument
        elif argument != "--skip-build":
            kept.append(argument)
    return kept


arguments = sys.argv[1:]
# The suite includes the clustered mode's tests (PostgreSQL, clusters of nodes), which exist only in a
# build with the package's PostgreSQL trait: unless the caller chose traits (`--traits …`,
# `--enable-all-traits`, or `--disable-default-traits` for the default build), build and run with it.
if not any(argument.startswith(("--traits", "--enable-all-traits", "--disable-default-traits")) for argument in arguments):
    arguments = ["--traits", "PostgreSQL"] + arguments
status, failures, _ = run_tests(arguments)
# A whole run also checks that no two closures of the package were compiled to one function (a
# compiler bug that makes a test's predicate silently another's: scripts/check-closures.py).
if not any(map(is_filter, arguments)):
    print("\nscripts/test.sh: scripts/check-closures.py", flush=True)
    if subprocess.run([sys.executable, "scripts/check-closures.py"]).returncode != 0:
        summarize(failures)
        sys.exit(1)
if status == 0:
    sys.exit(0)
summarize(failures)
if not failures or len(failures) > retries:
    sys.exit(status)

def display_names():
    """{a test's display name, as swift test prints it in quotes → its function names}, read from the
    test sources: `--filter` matches a test's ID ("Module.Suite/name()/File.swift:line:column"), which
    holds the function's name, not the display name a test given one is printed by."""
    found = {}
    literal = re.compile(r'@Test\(\s*"((?:[^"\\\n]|\\.)*)"')
    function = re.compile(r"\bfunc\s+(\w+)\s*\(")
    for root, directories, files in os.walk("Tests"):
        directories[:] = [d for d in directories if not d.startswith(".")]
        for file in files:
            if not file.endswith(".swift"):
                continue
            with open(os.path.join(root, file), encoding="utf-8", errors="replace") as source:
                text = source.read()
            for match in literal.finditer(text):
                if declared := function.search(text, match.end()):
                    shown = re.sub(r"\\(.)", r"\1", match.group(1))
                    found.setdefault(f'"{shown}"', set()).add(declared.group(1))
    return found


def retry_pattern(name, named):
    """The --filter that runs the failed test `name` (as printed) again."""
    if name in named:  # a display name: its function, in whichever suite declares it
        return "/(?:" + "|".join(re.escape(function) for function in sorted(named[name])) + r")\("
    # "name()" or "name(argument:)", the function itself.
    return "[./]" + re.escape(name) + "(?:/|$)"


print(f"\nscripts/test.sh: running the {len(failures)} failed test(s) once more, one at a time", flush=True)
failed_again = {}
named = display_names()
for name in failures:
    pattern = retry_pattern(name, named)
    print(f"scripts/test.sh: {name}: --filter '{pattern}'", flush=True)
    again, again_failures, again_passed = run_tests(without_filters(arguments) + ["--skip-build", "--filter", pattern])
    if again != 0 or name not in again_passed:
        failed_again[name] = again_failures.get(name, [f"not run again or did not pass (exit {again})"])
summarize(failures, "failed once (fix them: a test that fails now and then hides a real failure)")
if failed_again:
    summarize(failed_again, "failed twice")
    sys.exit(1)
print("scripts/test.sh: every test that failed passed when run again", flush=True)
sys.exit(0)
PY
