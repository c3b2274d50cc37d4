#!/usr/bin/env bash
# Builds the libFuzzer targets (Tests/Fuzz) with AddressSanitizer and runs one or all of them.
#
#   scripts/fuzz.sh TARGET|all [--runs N | --seconds S] [--input FILE] [--skip-build] [-- libFuzzer flags]
#
#   TARGET     frames, http, envelope, inflate, media or jwt (the targets fuzz-frames, fuzz-http, ...), several
#              joined by commas (frames,http), or all. Only the targets named are built.
#   --runs N   stop after N inputs; 0 runs the seeds and reproducers only, as a regression test
#   --seconds S  stop after S seconds (default 60, per target)
#   --input FILE  run the target on one input (a crash to reproduce) and stop
#   --skip-build  use the binaries of the last build (for runs one after another)
#
# Each run starts from the committed seeds (Tests/Fuzz/Corpus/TARGET) and reproducers of bugs found
# before (Tests/Fuzz/Reproducers/TARGET), and grows its own corpus in Tests/Fuzz/.work/TARGET/corpus
# (not committed). A crash is written to Tests/Fuzz/.work/TARGET/ and the script exits non-zero.
# The build is a release build: the targets run about five times faster than in debug.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }

targets=(frames http envelope inflate media jwt)
target=""
runs=""
seconds=""
input=""
build=1
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --input) input="$2"; shift 2 ;;
    --skip-build) build=0; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "fuzz.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) [ -z "$target" ] || { echo "fuzz.sh: one target at a time, or all" >&2; exit 2; }; target="$1"; shift ;;
  esac
done
[ -n "$target" ] || { usage >&2; exit 2; }
if [ "$target" = all ]; then
  selected=("${targets[@]}")
else
  selected=()
  IFS=, read -r -a named <<<"$target"
  for one in "${named[@]}"; do
    case " ${targets[*]} " in
      *" $one "*) selected+=("$one") ;;
      *) echo "fuzz.sh: no target '$one' (targets: ${targets[*]})" >&2; exit 2 ;;
    esac
  done
fi
[ -z "$runs" ] || [ -z "$seconds" ] || { echo "fuzz.sh: --runs or --seconds, not both" >&2; exit 2; }
[ -n "$runs" ] || [ -n "$seconds" ] || seconds=60

fuzz_dir=Tests/Fuzz
# libFuzzer and AddressSanitizer come with the Swift toolchain's clang runtime. SwiftPM turns each
# `--sanitize` into its own `-sanitize=` flag, in no fixed order, and the Swift driver keeps only the
# last, so Swift code would get coverage or ASan but not both: `-Xswiftc -sanitize=fuzzer,address`,
# which comes after them, gives it both (C code and the link take SwiftPM's flags as they are). lld
# keeps the link free of gold's warnings about the sanitizer's local symbols.
build_flags=(-c release --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer,address
             -Xswiftc -enable-testing -Xswiftc -use-ld=lld)
if [ "$build" = 1 ]; then
  echo "fuzz.sh: building the fuzz targets"
  build_start=$SECONDS
  for name in "${selected[@]}"; do
    swift build --package-path "$fuzz_dir" "${build_flags[@]}" --product "fuzz-$name"
  done
  echo "fuzz.sh: built in $((SECONDS - build_start)) s"
fi
bin="$(swift build --package-path "$fuzz_dir" "${build_flags[@]}" --show-bin-path)"

# A target without coverage only guesses, and one without ASan misses what it is there to find: check
# that the Swift code under test got both.
# (Only the modules of the targets built: the others may not be.)
modules=(WebSocketCore)
for name in "${selected[@]}"; do
  case "$name" in
    envelope) modules+=(ParlorWire fuzz_envelope) ;;
    media) modules+=(ParlorMedia fuzz_media) ;;
    jwt) modules+=(ParlorAuth fuzz_jwt) ;;
    frames) modules+=(fuzz_frames) ;;
  esac
done
for module in "${modules[@]}"; do
  objects=("$bin/$module.build/"*.o)
  # (grep -c reads to the end: with pipefail, -q would stop early and fail the pipe.)
  if ! readelf -S "${objects[@]}" | grep -c __sancov_cntrs >/dev/null || ! nm -u "${objects[@]}" | grep -c __asan_ >/dev/null; then
    echo "fuzz.sh: $module was built without coverage or AddressSanitizer instrumentation" >&2
    exit 1
  fi
done

# The largest input each target is given: a few frames, a handshake and its first frames, a request,
# a small photo with its EXIF block, a token (past the verifier's 8 KiB limit).
max_len() {
  case "$1" in
    envelope|http) echo 4096 ;;
    jwt) echo 9000 ;;
    media) echo 16384 ;;
    *) echo 8192 ;;
  esac
}

# Swift's own crash backtracer fights AddressSanitizer over the crashed process (and can linger after
# it); libFuzzer and ASan report crashes themselves.
export SWIFT_BACKTRACE=enable=no
# ASan records a stack for every allocation; 8 frames (not 30) say where a bad block came from and
# leave the HTTP target a third faster.
export ASAN_OPTIONS="malloc_context_size=8${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

failed=()
for name in "${selected[@]}"; do
  work="$fuzz_dir/.work/$name"
  mkdir -p "$work/corpus"
  flags=(-max_len="$(max_len "$name")" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
         -artifact_prefix="$work/")
  [ -f "$fuzz_dir/Dictionaries/$name.dict" ] && flags+=(-dict="$fuzz_dir/Dictionaries/$name.dict")
  if [ -n "$input" ]; then
    echo "fuzz.sh: $name on $input"
    "$bin/fuzz-$name" "${flags[@]}" "${extra[@]}" "$input" || failed+=("$name")
    continue
  fi
  [ -n "$runs" ] && flags+=(-runs="$runs") || flags+=(-max_total_time="$seconds")
  corpora=("$work/corpus" "$fuzz_dir/Corpus/$name")
  [ -d "$fuzz_dir/Reproducers/$name" ] && corpora+=("$fuzz_dir/Reproducers/$name")
  echo "fuzz.sh: fuzz-$name ${flags[*]} ${extra[*]} ${corpora[*]}"
  start=$SECONDS
  if "$bin/fuzz-$name" "${flags[@]}" "${extra[@]}" "${corpora[@]}"; then
    echo "fuzz.sh: fuzz-$name found nothing in $((SECONDS - start)) s"
  else
    echo "fuzz.sh: fuzz-$name FAILED; the input is in $work/" >&2
    failed+=("$name")
  fi
done

if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzz.sh: failures in: ${failed[*]}" >&2
  exit 1
fi
