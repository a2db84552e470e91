#!/bin/sh
# Writes traces/tune/*.jsonl, the worked tuning example: touches from `panelsim synth`, then
# `observed` samples from `panelsim observe` with hidden behavior values (the "device"), every
# second frame (60 Hz) with ±0.2 pt of seeded noise. The headers keep the default behavior.
# Usage: sh scripts/make_tune_corpus.sh   (from the repository root; rewrites the files it owns)
set -eu
PANELSIM=${PANELSIM:-"swift run --build-path /tmp/build-tune panelsim"}
HIDDEN="--param springResponseTime=0.55 --param springDecelerationRate=0.985"
T=traces/tune/template.json
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

make() { # NAME SEED SCRIPT
    $PANELSIM synth --template "$T" -o "$tmp" "$3"
    $PANELSIM observe "$tmp" $HIDDEN --every 2 --noise 0.2 --seed "$2" -o "traces/tune/$1.jsonl"
    sed -i "1s/\"name\": \"tune\"/\"name\": \"$1\"/" "traces/tune/$1.jsonl"
}

# Fast flick up from half: the spring starts at 1800 pt/s, so its damping comes from springDecelerationRate.
make flick-up-fast 11 "down 195,600; move 195,540 50ms; up velocity 0,-1800"
# Fast flick down from half to tip (1500 pt/s).
make flick-down-fast 12 "down 195,500; move 195,550 50ms; up velocity 0,1500"
# A slow release (200 pt/s): critically damped (ζ = 1), so only springResponseTime matters.
make slow-release 13 "down 195,600; move 195,500 400ms; hold 100ms; up velocity 0,-200"
# Two flicks: half to full, then back down from full to half.
make up-then-down 14 "down 195,600; move 195,560 40ms; up velocity 0,-1200; at 1.2; down 195,300; move 195,340 40ms; up velocity 0,900"
