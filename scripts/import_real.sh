#!/bin/sh
# Re-imports every touch recording of Tests/Fixtures/real-traces (the copies the tests read) into traces/real/ (lsq2, top level)
# and traces/real/impulse/, traces/real/ios/ (one template per estimator). Run from the repository root:
#   sh scripts/import_real.sh [PANELSIM]      (default: swift run panelsim)
set -e
PANELSIM=${1:-"swift run panelsim"}
SHARED=Tests/Fixtures/real-traces
for est in lsq2 impulse ios; do
    if [ "$est" = lsq2 ]; then dir=traces/real; tpl=traces/real/template-d1-b3-half.json
    else dir=traces/real/$est; tpl=$dir/template-d1-b3-half-$est.json; fi
    for f in $SHARED/flutter-velocity_tracker_data/*.csv; do
        $PANELSIM import csv "$f" --points-per-unit 1 --template "$tpl" -o "$dir/$(basename "$f" .csv).jsonl"
    done
    for f in $SHARED/aosp-VelocityTracker_test/*.csv; do
        $PANELSIM import csv "$f" --points-per-unit 1/3 --template "$tpl" -o "$dir/$(basename "$f" .csv).jsonl"
    done
done
# The Android AXIS_SCROLL recordings: relative scroll steps as scroll samples of a list (100 pt per unit).
for f in $SHARED/aosp-VelocityTracker_test-axis-scroll/*.csv; do
    $PANELSIM import axis-scroll "$f" --points-per-unit 100 --template traces/real/axis-scroll/template-d1-b3-full-list.json \
        -o "traces/real/axis-scroll/$(basename "$f" .csv).jsonl"
done
