#!/usr/bin/env python3
"""Measures how often `panelsim tune`'s 95 % intervals hold the true parameter values.

For each seed, observations are drawn afresh from a replay with known ("hidden") values by
`panelsim observe` (every second frame, +-0.2 pt of uniform noise, as scripts/make_tune_corpus.sh
does), then `panelsim tune` fits them and its printed intervals are compared with the hidden
values. Nothing here reads PanelSim's code: only the command line's output.

Usage (from the repository root; plain python3, no packages):
    python3 scripts/tune_coverage.py [--seeds-floatingpanel 20] [--seeds-drawerkit 10]
        [--panelsim "swift run panelsim"] [--jobs 2] [--precision X]
Writes nothing in the repository (temporary files only); prints one line per run and a summary.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

# Each experiment: the traces whose touches are replayed, the hidden values (minus those a trace
# does not depend on), the search ranges.
EXPERIMENTS = {
    "floatingpanel": {
        "traces": ["traces/tune/flick-up-fast.jsonl", "traces/tune/flick-down-fast.jsonl",
                   "traces/tune/slow-release.jsonl", "traces/tune/up-then-down.jsonl"],
        # A release slower than 300 pt/s is critically damped: observe refuses the rate there.
        "unread": {"traces/tune/slow-release.jsonl": ["springDecelerationRate"]},
        "hidden": {"springResponseTime": 0.55, "springDecelerationRate": 0.985},
        "ranges": {"springResponseTime": "0.1...1.0", "springDecelerationRate": "0.95...0.9999"},
    },
    "drawerkit": {
        "traces": ["traces/drawerkit/durations/d1-partial-to-full-fixed.jsonl",
                   "traces/drawerkit/flick/d1-partial-up.jsonl"],
        "hidden": {"totalDurationInSeconds": 0.3, "dampingRatio": 0.8},
        "ranges": {"totalDurationInSeconds": "0.1...0.8", "dampingRatio": "0.3...2"},
    },
}

NUMBER = r"[-+0-9.eE]+"
INTERVAL = re.compile(r"^\s+(\S+)\s+(" + NUMBER + r")\s+95% \[(?:≤)?(" + NUMBER + r"), (?:≥)?(" + NUMBER + r")\]")
BELOW = re.compile(r"^\s+(\S+)\s+(" + NUMBER + r")\s+95% < precision \(±(" + NUMBER + r")\)")


def parse(stdout):
    """{name: (value, lower, upper, below_precision)} from tune's 'best parameters' lines."""
    out = {}
    for line in stdout.splitlines():
        m = INTERVAL.match(line)
        if m:
            out[m.group(1)] = (float(m.group(2)), float(m.group(3)), float(m.group(4)), False)
            continue
        m = BELOW.match(line)
        if m:
            v, d = float(m.group(2)), float(m.group(3))
            out[m.group(1)] = (v, v - d, v + d, True)
    return out


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def experiment(name, seeds, panelsim, jobs, precision, tmp):
    spec = EXPERIMENTS[name]
    def hidden(trace):
        unread = spec.get("unread", {}).get(trace, [])
        return [a for p, v in spec["hidden"].items() if p not in unread for a in ("--param", f"{p}={v}")]
    ranges = [a for p, r in spec["ranges"].items() for a in ("--param", f"{p}={r}")]
    inside = {p: 0 for p in spec["hidden"]}
    both = 0
    runs = 0
    seconds = 0.0
    for seed in range(1, seeds + 1):
        files = []
        for k, trace in enumerate(spec["traces"]):
            out = os.path.join(tmp, f"{name}-{seed}-{k}.jsonl")
            code, _, err = run(panelsim + ["observe", trace] + hidden(trace) + ["--every", "2", "--noise", "0.2",
                                                                           "--seed", str(1000 * seed + k), "-o", out])
            if code != 0:
                sys.exit(f"observe failed for {trace} seed {seed}: {err}")
            files.append(out)
        start = time.monotonic()
        code, stdout, err = run(panelsim + ["tune"] + files + ranges + ["-j", str(jobs)]
                                + (["--precision", precision] if precision else []))
        seconds += time.monotonic() - start
        fits = parse(stdout)
        if code not in (0, 1) or set(fits) != set(spec["hidden"]):
            sys.exit(f"tune failed (exit {code}) for {name} seed {seed}:\n{stdout}\n{err}")
        runs += 1
        covered = []
        for p, truth in spec["hidden"].items():
            v, lo, hi, below = fits[p]
            ok = lo <= truth <= hi
            inside[p] += ok
            covered.append(f"{p} {v:.6g} [{lo:.6g}, {hi:.6g}]{' <precision' if below else ''} {'in' if ok else 'OUT'}")
        all_in = all(fits[p][1] <= t <= fits[p][2] for p, t in spec["hidden"].items())
        both += all_in
        print(f"{name} seed {seed}: " + "; ".join(covered), flush=True)
    print(f"{name}: {runs} runs, " + ", ".join(f"{p} inside {inside[p]}/{runs}" for p in spec["hidden"])
          + f", all inside {both}/{runs}; tune wall time {seconds / runs:.1f} s per run", flush=True)
    return inside, both, runs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds-floatingpanel", type=int, default=20)
    ap.add_argument("--seeds-drawerkit", type=int, default=10)
    ap.add_argument("--panelsim", default=os.environ.get("PANELSIM", "swift run panelsim"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--precision", default=None, help="passed to tune (default: tune's own)")
    args = ap.parse_args()
    panelsim = shlex.split(args.panelsim)
    with tempfile.TemporaryDirectory() as tmp:
        if args.seeds_floatingpanel > 0:
            experiment("floatingpanel", args.seeds_floatingpanel, panelsim, args.jobs, args.precision, tmp)
        if args.seeds_drawerkit > 0:
            experiment("drawerkit", args.seeds_drawerkit, panelsim, args.jobs, args.precision, tmp)


if __name__ == "__main__":
    main()
