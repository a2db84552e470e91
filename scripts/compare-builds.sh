#!/bin/sh
# Byte-identity check between two panelsim builds: replays every trace of traces/ and of the
# bench corpus with both and compares the result files with cmp.
#   scripts/compare-builds.sh OLD_PANELSIM NEW_PANELSIM
set -eu
old=$1; new=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$new" bench-corpus "$tmp/corpus" 1000
n=0; bad=0
for t in $(find traces -name '*.jsonl' | sort) $(find "$tmp/corpus" -name '*.jsonl' | sort); do
  "$old" replay "$t" > "$tmp/a" 2>/dev/null || true
  "$new" replay "$t" > "$tmp/b" 2>/dev/null || true
  n=$((n+1))
  if ! cmp -s "$tmp/a" "$tmp/b"; then bad=$((bad+1)); echo "DIFFERS: $t"; fi
done
echo "$n traces compared, $bad differ"
[ "$bad" -eq 0 ]
