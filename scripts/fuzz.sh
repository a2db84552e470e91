#!/usr/bin/env bash
# PanelSim's fuzz harness (issue 19): libFuzzer with AddressSanitizer over the trace loader, replay
# and result round trip, the result reader, and each importer, with the oracles of
# Fuzz/FuzzTargets.swift.
#
#   scripts/fuzz.sh TARGET SECONDS [LIBFUZZER_FLAG...]   fuzz one target for SECONDS (one process)
#   scripts/fuzz.sh all SECONDS [LIBFUZZER_FLAG...]      each target in turn, SECONDS each
#   scripts/fuzz.sh smoke SECONDS                        every target for SECONDS on a few seeds,
#                                                        debug build (what .ci/run does)
#   scripts/fuzz.sh build                                only build the fuzz binary
#   scripts/fuzz.sh reproduce TARGET FILE...             run the binary on saved inputs (crash files;
#                                                        a generated target prints its trace)
#   scripts/fuzz.sh coverage TARGET...                   line coverage of the library sources
#                                                        reached by each target's seeds and kept
#                                                        corpus (llvm-cov; report in
#                                                        $FUZZ_DIR/coverage/TARGET.txt)
#
# TARGET: trace, result, csv, getevent, pointer, axis-scroll, and the structure-aware targets of
# the newer systems: drawerkit, lnpopup, uisheet (a trace of that system generated from the
# input's bytes read as choices) and drawerkit-result, lnpopup-result, uisheet-result (the result
# file of such a trace's replay, changed in a few places, read as a golden). Extra flags go to libFuzzer, e.g.
# `-runs=1000000` (stop after that many executions) or `-jobs=N` (more processes; do not use on a
# shared machine). Environment:
#   FUZZ_BUILD=release (default: -O, fast executions, ~2.5 min to build) or debug (-Onone: builds
#              in well under a minute, runs ~3-10x slower; what .ci/run's smoke uses)
#   FUZZ_ASAN=0 build without AddressSanitizer (libFuzzer's coverage and Swift's own checks only:
#              2-3x more executions per second; binaries in $FUZZ_DIR/$FUZZ_BUILD-noasan). The
#              smoke always uses ASan; RELIABILITY.md says which long runs did not.
#   FUZZ_DIR   where binaries, corpora and crash artifacts go (default .build/fuzz)
#
# The binary is rebuilt only when a library source, the entry file, the flags or the toolchain
# change. Seeds: the trace target takes every traces/**/*.jsonl (so a new panel system's traces,
# and with them its header section, are fuzzed as soon as they are in the corpus), the result
# target every golden/**/*.golden.jsonl, the importers examples/logs/ and ../shared/real-traces/.
# A dictionary is made from the seeds' JSON keys and strings the same way. New inputs that
# reach new code are kept in $FUZZ_DIR/corpus/TARGET (and seed the next run); a crash, leak,
# timeout or failed oracle stops the run, saves the input under $FUZZ_DIR/artifacts/TARGET/ and
# exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
targets="trace result csv getevent pointer axis-scroll drawerkit lnpopup uisheet drawerkit-result lnpopup-result uisheet-result"
# Targets whose input is a sequence of choices (Fuzz/SystemGrammar.swift), not text: no dictionary.
generated="drawerkit lnpopup uisheet drawerkit-result lnpopup-result uisheet-result"
build=${FUZZ_BUILD:-release}
case "$build" in
  release) opt=-O ;;
  debug) opt=-Onone ;;
  *) echo "FUZZ_BUILD must be release or debug, got '$build'" >&2; exit 2 ;;
esac
fuzzdir=${FUZZ_DIR:-.build/fuzz}
mkdir -p "$fuzzdir"
fuzzdir=$(cd "$fuzzdir" && pwd)
sanitize=fuzzer,address
case "${FUZZ_ASAN:-1}" in
  1) ;;
  0) sanitize=fuzzer; build=$build-noasan ;;
  *) echo "FUZZ_ASAN must be 1 or 0, got '$FUZZ_ASAN'" >&2; exit 2 ;;
esac
bin="$fuzzdir/$build/panelsim-fuzz"
modules="PanelSimCore PanelTrace PanelGolden"

usage() { sed -n '2,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//' >&2; exit 2; }

build_binary() {
  local out="$fuzzdir/$build"
  mkdir -p "$out"
  local flags="-sanitize=$sanitize $opt -swift-version 6"
  local stamp
  stamp=$( { swiftc --version 2>&1; echo "$flags"; for m in $modules; do find "Sources/$m" -name '*.swift' | LC_ALL=C sort | xargs cat; done; cat Fuzz/*.swift; } | sha256sum | cut -c1-64)
  if [ -x "$bin" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ]; then return 0; fi
  echo "building $bin ($build, $opt)..." >&2
  local start=$SECONDS
  rm -f "$out/stamp"
  for m in $modules; do
    # shellcheck disable=SC2046
    swiftc -module-name "$m" -parse-as-library -emit-module -emit-module-path "$out/$m.swiftmodule" \
      -emit-library -static -o "$out/lib$m.a" $flags -enable-testing -package-name PanelSim -j "${FUZZ_JOBS:-2}" \
      -I "$out" $(find "Sources/$m" -name '*.swift' | LC_ALL=C sort)
  done
  swiftc -parse-as-library $flags -use-ld=lld -I "$out" -L "$out" -lPanelGolden -lPanelTrace -lPanelSimCore \
    Fuzz/*.swift -o "$bin"
  echo "$stamp" > "$out/stamp"
  echo "built in $((SECONDS - start)) s" >&2
}

# Seeds (copied afresh into $fuzzdir/seeds/TARGET, which libFuzzer only reads) and dictionary.
prepare() {
  local target=$1 seeds="$fuzzdir/seeds/$1"
  rm -rf "$seeds"; mkdir -p "$seeds" "$fuzzdir/corpus/$target" "$fuzzdir/artifacts/$target"
  local n=0
  # At most $FUZZ_SEED_LIMIT seeds per source (evenly spaced), when set (the smoke sets it).
  copy() {
    local files=() f step=1 k
    while IFS= read -r f; do files+=("$f"); done
    if [ -n "${FUZZ_SEED_LIMIT:-}" ] && [ "${#files[@]}" -gt "$FUZZ_SEED_LIMIT" ]; then step=$(( (${#files[@]} + FUZZ_SEED_LIMIT - 1) / FUZZ_SEED_LIMIT )); fi
    for ((k = 0; k < ${#files[@]}; k += step)); do
      n=$((n + 1)); cp "${files[$k]}" "$seeds/$(printf '%05d' $n)-$(basename "${files[$k]}")"
    done
  }
  # Inputs of earlier findings, always replayed first.
  if [ -d "Fuzz/regressions/$target" ]; then find "Fuzz/regressions/$target" -type f | LC_ALL=C sort | FUZZ_SEED_LIMIT= copy; fi
  case "$target" in
    trace) find traces -name '*.jsonl' | LC_ALL=C sort | copy ;;
    result) find golden -name '*.golden.jsonl' | LC_ALL=C sort | copy ;;
    csv)
      printf 't_ms,phase,x_px,y_px\n0,down,100,500\n8,move,100,480\n16,up,100,440\n' > "$seeds/00000-inline.csv"
      if [ -d ../shared/real-traces ]; then
        grep -rl '^t_ms,phase,x_px,y_px' ../shared/real-traces --include='*.csv' | LC_ALL=C sort | copy
      fi ;;
    axis-scroll)
      printf 't_ms,phase,scroll_delta\n0,scroll,1\n10,scroll,-2.5\n' > "$seeds/00000-inline.csv"
      if [ -d ../shared/real-traces ]; then
        grep -rl '^t_ms,phase,scroll_delta' ../shared/real-traces --include='*.csv' | LC_ALL=C sort | copy
      fi ;;
    getevent) find examples/logs -name '*.getevent.txt' | LC_ALL=C sort | copy ;;
    pointer) find examples/logs -name '*.pointer.jsonl' | LC_ALL=C sort | copy ;;
    *)
      # Generated targets: a few fixed byte strings (each a different first trace); the fuzzer
      # grows its own corpus from them.
      local k hex
      for k in 1 2 3 4 5 6 7 8; do
        hex=$(printf '%s-%s' "$target" "$k" | sha256sum | cut -c1-64)
        # shellcheck disable=SC2059
        printf "$(printf '%s' "$hex$hex" | sed 's/../\\x&/g')" > "$seeds/0000$k-choices.bin"
      done ;;
  esac
  case " $generated " in *" $target "*) : > "$fuzzdir/seeds/$target.dict"; return 0 ;; esac
  # Dictionary: every quoted string of the seeds (keys, names, enum values) plus format tokens.
  local dict="$fuzzdir/seeds/$target.dict"
  {
    { cat "$seeds"/* | grep -aoE '"[A-Za-z_][A-Za-z0-9_.-]{0,40}"' || true; } | LC_ALL=C sort -u | sed 's/"/\\"/g; s/.*/"&"/'
    for token in '1e999' '-0' '0.0000005' '100000000' '100000000.000001' '10000000' '1e7' '-1' 'null' 'true' 'false' \
                 '{}' '[]' 'down' 'move' 'up' 'scroll' 'EV_ABS' 'EV_SYN' 'SYN_REPORT' 'ABS_MT_SLOT' \
                 'ABS_MT_TRACKING_ID' 'ABS_MT_POSITION_X' 'ABS_MT_POSITION_Y' 'ffffffff' 'pointerdown' 'pointermove' \
                 'pointerup' 'pointercancel' 'pointerId' 'timeStamp' 'clientX' 'clientY'; do
      printf '"%s"\n' "$(printf '%s' "$token" | sed 's/"/\\"/g')"
    done
    echo '"\x0D\x0A"'
  } > "$dict"
}

# The trace targets' scratch file (each input is written there and loaded as a file): in memory
# when /dev/shm is there, so that no execution waits on the disk.
scratch_dir() { if [ -d /dev/shm ] && [ -w /dev/shm ]; then echo /dev/shm; else echo "$fuzzdir"; fi; }

run_target() {
  local target=$1 seconds=$2; shift 2
  case " $targets " in *" $target "*) ;; *) echo "unknown target '$target' (expected one of: $targets)" >&2; exit 2 ;; esac
  prepare "$target"
  local maxlen=16384 dict=("-dict=$fuzzdir/seeds/$target.dict")
  case "$target" in trace|result) maxlen=65536 ;; esac
  # A generated target reads about 200-400 bytes of choices for a full header and a few to ~40
  # per sample (at most 48 samples); longer inputs only make longer traces, never other ones.
  case " $generated " in *" $target "*) maxlen=1024; dict=() ;; esac
  echo "fuzzing $target for $seconds s ($build build)" >&2
  # One process; -timeout: an input that takes longer is a hang (reported and saved).
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1} SWIFT_BACKTRACE=enable=no \
  PANELSIM_FUZZ_TARGET="$target" PANELSIM_FUZZ_SCRATCH="$(scratch_dir)" \
    "$bin" "$fuzzdir/corpus/$target" "$fuzzdir/seeds/$target" \
      "${dict[@]}" -max_len=$maxlen -timeout=30 -rss_limit_mb=2048 \
      -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$fuzzdir/artifacts/$target/" "$@"
}

# Line coverage: a binary built with the profile runtime (no ASan, -Onone) runs each target over
# its seeds and kept corpus once (-runs=0); llvm-cov reports the library sources, and the newer
# systems' loaders on their own.
coverage() {
  build=coverage opt="-Onone -profile-generate -profile-coverage-mapping" sanitize=fuzzer
  bin="$fuzzdir/coverage/panelsim-fuzz"
  build_binary
  local out="$fuzzdir/coverage" tools t
  tools=$(dirname "$(command -v swiftc)")
  local cov="$tools/llvm-cov" profdata="$tools/llvm-profdata"
  [ -x "$cov" ] || cov=llvm-cov
  [ -x "$profdata" ] || profdata=llvm-profdata
  rm -f "$out"/*.profraw
  for t in "$@"; do
    case " $targets " in *" $t "*) ;; *) echo "unknown target '$t' (expected one of: $targets)" >&2; exit 2 ;; esac
    prepare "$t"
    mkdir -p "$out/$t"
    SWIFT_BACKTRACE=enable=no PANELSIM_FUZZ_TARGET="$t" PANELSIM_FUZZ_SCRATCH="$fuzzdir" LLVM_PROFILE_FILE="$out/$t-%p.profraw" \
      "$bin" "$fuzzdir/corpus/$t" "$fuzzdir/seeds/$t" -runs=0 -timeout=60 -rss_limit_mb=4096 >"$out/$t.log" 2>&1 || {
        echo "coverage run of $t failed (see $out/$t.log)" >&2; exit 1; }
    "$profdata" merge -sparse "$out/$t"-*.profraw -o "$out/$t.profdata"
    "$cov" report "$bin" -instr-profile="$out/$t.profdata" Sources/PanelTrace Sources/PanelGolden Sources/PanelSimCore > "$out/$t.txt"
    echo "== $t: the newer systems' loaders and formats (lines: total, missed, cover)" >&2
    grep -E 'PanelTrace/(DrawerKit|LNPopup|UISheet)/' "$out/$t.txt" | awk '{ print $1, $8, $9, $10 }' >&2
  done
  "$profdata" merge -sparse "$out"/*.profraw -o "$out/all.profdata"
  "$cov" report "$bin" -instr-profile="$out/all.profdata" Sources/PanelTrace Sources/PanelGolden Sources/PanelSimCore > "$out/all.txt"
  echo "== all of: $* (lines: total, missed, cover)" >&2
  grep -E 'PanelTrace/(DrawerKit|LNPopup|UISheet)/' "$out/all.txt" | awk '{ print $1, $8, $9, $10 }' >&2
}

[ $# -ge 1 ] || usage
case "$1" in
  coverage)
    [ $# -ge 2 ] || usage
    shift
    coverage "$@" ;;
  build) build_binary ;;
  reproduce)
    [ $# -ge 3 ] || usage
    target=$2; shift 2
    build_binary
    # A generated target prints the trace (and golden) each input becomes.
    PANELSIM_FUZZ_PRINT=${PANELSIM_FUZZ_PRINT:-1} SWIFT_BACKTRACE=enable=no PANELSIM_FUZZ_TARGET="$target" PANELSIM_FUZZ_SCRATCH="$fuzzdir" "$bin" "$@" ;;
  smoke)
    # The CI smoke: a debug build (quick to compile), a few seeds per target, SECONDS each.
    [ $# -ge 2 ] || usage
    seconds=$2; shift 2
    build=${FUZZ_BUILD:-debug}; [ "$build" = debug ] && opt=-Onone; sanitize=fuzzer,address; bin="$fuzzdir/$build/panelsim-fuzz"
    export FUZZ_SEED_LIMIT=${FUZZ_SEED_LIMIT:-8}
    build_binary
    for t in $targets; do rm -rf "$fuzzdir/corpus/$t"; run_target "$t" "$seconds" -seed=1 "$@"; done ;;
  all)
    [ $# -ge 2 ] || usage
    seconds=$2; shift 2
    build_binary
    for t in $targets; do run_target "$t" "$seconds" "$@"; done ;;
  *)
    [ $# -ge 2 ] || usage
    target=$1 seconds=$2; shift 2
    build_binary
    run_target "$target" "$seconds" "$@" ;;
esac
