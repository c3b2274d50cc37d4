#!/usr/bin/env python3
"""Finds closures that Swift 6.3.1 compiles to one function: two closure expressions that run the
same body, so one of them silently does what the other says.

The compiler numbers the closures of each closure body in order, but numbers the closures inside a
macro expansion (`#expect(…)`, `#require(…)`) lazily, from wherever the count stood when the macro
was expanded. Within a closure — `TerminalServer.with { server in … }`, a task group's body — a
closure written after such a macro can get the same number as one inside the expansion. The two
then share a mangled name, SILGen emits one body for both, and a test's `waitFor("the start") {
$0.status == "playing" }` runs `{ $0.event == "seat" }` instead: it passes at once and waits for
nothing. Nothing warns; sometimes the compiler crashes instead (SendNonSendable, `map::at`).
Upstream has been reworking these numbers for years (swiftlang/swift#66198, #79401: a release compiler
falls back to a number when a closure has none; #91041 on closures in macro arguments); once a
toolchain no longer trips this check on a reproduction, the check can go.

This check compiles every module of the package written here (not its dependencies) that uses a
freestanding macro to raw SIL, as the last `swift build` planned it (`.build/debug.yaml`, so build
first), and reports every closure function referenced from two different places in the source. A
report names both places; the cure is to take the closure out of the macro's argument
(`let seat = try await p.wait { … }`, then `#require(seat.code)`). About 55 s on two cores.

    scripts/check-closures.py [--package-path DIR] [module …]

(--package-path checks another package, as `swift build --package-path` builds it; the test of this
check, ClosureCheckTests, uses it on a package that reproduces the bug.)
"""
import json, os, re, shlex, subprocess, sys, time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if len(sys.argv) > 2 and sys.argv[1] == "--package-path":
    ROOT = os.path.realpath(sys.argv[2])
    del sys.argv[1:3]
# `function_ref @…fU3_ : $…, loc "File.swift":12:34` — an explicit closure (`fU`) and where it is used.
REFERENCE = re.compile(r'function_ref @(\S+fU\d*_) :.*?, loc "([^"]+)":(\d+):(\d+)')


# A freestanding macro written in the source (`#expect(`, `#require(`), not a compiler directive.
MACRO = re.compile(r"#(?!(?:if|elseif|else|endif|available|unavailable|error|warning|sourceLocation|selector|"
                   r"keyPath|file|fileID|filePath|line|column|function|dsohandle|colorLiteral|imageLiteral|"
                   r"fileLiteral)\b)[A-Za-z_]\w*\s*[({]")


def uses_macros(sources):
    for source in sources:
        with open(source, encoding="utf-8", errors="replace") as file:
            if MACRO.search(file.read()):
                return True
    return False


def modules():
    """{module → the swiftc arguments that compile it}, for the modules whose sources are ours and
    use freestanding macros (only those can have the bug)."""
    path = os.path.join(ROOT, ".build", "debug.yaml")
    if not os.path.exists(path):
        sys.exit(f"scripts/check-closures.py: no {path}: build first (swift build --build-tests)")
    with open(path) as plan:
        text = plan.read()
    found = {}
    for name, body in re.findall(r'"C\.(\w+)-[\w-]+-debug\.module":\n((?:    .*\n)+)', text):
        inputs = json.loads(re.search(r"inputs: (\[.*\])", body).group(1))
        sources = [i for i in inputs if i.endswith(".swift") and i.startswith(ROOT + "/") and "/.build/" not in i]
        if sources and uses_macros(sources):
            found[name] = json.loads(re.search(r"args: (\[.*\])", body).group(1))
    return found


def silgen_jobs(arguments):
    """The frontend jobs that print raw SIL with source locations for the module `arguments` compile."""
    kept, skip = [], False
    for argument in arguments:
        if skip:
            skip = False
        elif argument in ("-emit-module-path", "-output-file-map", "-index-store-path"):
            skip = True
        elif argument not in ("-emit-dependencies", "-emit-module", "-incremental", "-c", "-serialize-diagnostics"):
            kept.append(argument)
    planned = subprocess.run(kept + ["-emit-silgen", "-Xllvm", "-sil-print-debuginfo", "-driver-print-jobs"],
                             capture_output=True, text=True, check=True)
    return [line for line in planned.stdout.splitlines() if "-primary-file" in line]


def shared_closures(job):
    """{closure function → the places it is used}, for the closures used from more than one place."""
    run = subprocess.Popen(shlex.split(job), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    uses = defaultdict(set)
    for line in run.stdout:
        if "function_ref @" in line and (match := REFERENCE.search(line)):
            uses[match.group(1)].add(f"{os.path.relpath(match.group(2), ROOT)}:{match.group(3)}:{match.group(4)}"
                                     if match.group(2).startswith("/") else f"{match.group(2)}:{match.group(3)}:{match.group(4)}")
    errors = run.stderr.read()
    if run.wait() != 0:
        raise RuntimeError(f"the compiler failed printing SIL:\n{errors[-2000:]}")
    return {name: places for name, places in uses.items() if len(places) > 1}


def readable(place):
    """A place in a macro expansion ("@__swiftmacro_…MX136_31_…requirefMf_.swift:1:65") as the macro
    written in the source: "the #require at line 137, column 32" (the numbers in the name count from 0)."""
    if match := re.match(r"@__swiftmacro_\w*?MX(\d+)_(\d+)_\w*?Ll(\d+)(\w+?)fMf", place):
        return f"the #{match.group(4)[:int(match.group(3))]} at line {int(match.group(1)) + 1}, column {int(match.group(2)) + 1}"
    return place


def main():
    chosen = modules()
    if sys.argv[1:]:
        unknown = [name for name in sys.argv[1:] if name not in chosen]
        if unknown:
            sys.exit(f"scripts/check-closures.py: no module {', '.join(unknown)} (have {', '.join(sorted(chosen))})")
        chosen = {name: chosen[name] for name in sys.argv[1:]}
    started = time.monotonic()
    jobs = [job for arguments in chosen.values() for job in silgen_jobs(arguments)]
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = list(pool.map(shared_closures, jobs))
    shared = {name: places for result in results for name, places in result.items()}
    print(f"scripts/check-closures.py: {len(chosen)} modules, {len(jobs)} compiler jobs, "
          f"{time.monotonic() - started:.0f} s: {len(shared)} closure(s) compiled to another closure's body", flush=True)
    for name, places in sorted(shared.items()):
        print(f"  {' and '.join(sorted(readable(place) for place in places))} are one function ({name})")
    if shared:
        print("scripts/check-closures.py: take the closure out of the #expect/#require argument next to it "
              "(see this script's header)")
    sys.exit(1 if shared else 0)


if __name__ == "__main__":
    main()
