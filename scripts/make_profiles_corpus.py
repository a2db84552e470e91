#!/usr/bin/env python3
"""Writes the version-profile corpus under traces/profiles/<library>/ (profiles.md §3, §4.3).

For each modelled switch, the shortest trace that profiles.md gives for it, written once per
profile point of the pair the switch separates (`<case>.<version>.jsonl`, the header's `profile`
naming that version), and for each gate a trace that uses the gated feature under the first
version that has it. Each description ends with an `expect:` clause worked out here from the
rules of ../shared/spec/profiles.md and the system specs alone (geometry, release tables, event
orders, spring overshoots), never from the simulator.

Keys of the clause:
  state / location / offset   the last frame's state, location (pt) and contentOffset (pt)
  frame.<channel>             the last frame's channel (number, or true/false)
  names                       the events in order, without didMove and shouldBeginDragging,
                              each as name[:argument] (didChangeState:state, willEndDragging:target,
                              didEndDragging:willAttract, willBeginAttracting:to); "-" for none
  has / lacks                 such a label is (is not) among the events; repeatable
  peak                        the largest frame location (pt), within 0.05 (frames sample the curve)
  loc@T                       the location of the last frame at or before T s
  same                        versions under which the trace must give identical records (points
                              that share every switch value the trace triggers, profiles.md PI3/PI4)
  pair                        the file of the same case at the other point: the records differ
  refusedAt / line / field / opensAt
                              gate traces: refused under refusedAt at that line and field, with
                              "needs <library> <opensAt> (not in <refusedAt>)"

Usage: python3 scripts/make_profiles_corpus.py   (rewrites traces/profiles/; writes no goldens:
record them with `panelsim check traces/profiles --record missing` and review them)
Plain python3, no packages; the output is byte-identical from run to run.
"""
import json, math, os, shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = "traces/profiles"
ORIGIN = "scripts/make_profiles_corpus.py"

D1 = {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0},
      "displayScale": 3, "frameRate": 120}
FRAME = 1 / 120

# FloatingPanel layout B3 on D1 (scenarios.md): full 100, half 422, tip 741, hidden 944.
B3 = {"position": "bottom", "anchors": {
    "full": {"absoluteInset": 53, "edge": "top", "referenceGuide": "safeArea"},
    "half": {"absoluteInset": 388, "edge": "bottom", "referenceGuide": "safeArea"},
    "tip": {"absoluteInset": 69, "edge": "bottom", "referenceGuide": "safeArea"}}}
FULL, HALF, TIP, HIDDEN = 100, 422, 741, 944

# LNPopup on D1 without a bottom bar: docking line H - safe bottom = 810, legacy bar 64 pt.
DOCK = 810
H = 844


def t6(x):
    """Seconds rounded to the microsecond, as the loader reads them."""
    return math.floor(x * 1e6 + 0.5) / 1e6


def num(x):
    return int(x) if float(x).is_integer() else round(x, 6)


def touch(t, phase, x, y, v=None):
    s = {"t": t6(t), "touch": phase, "x": num(x), "y": num(y)}
    if v is not None:
        s["velocity"] = {"x": num(v[0]), "y": num(v[1])}
    return s


def drag(t0, x, y0, y1, step, v, end_v=None, extra_end=0):
    """A touch from (x, y0) to (x, y1) in `step`-pt samples one frame apart, velocity v (pt/s, y)
    on every moved sample, lifted at the last point with end_v (default v). Returns (samples, t_end)."""
    out = [touch(t0, "began", x, y0)]
    n = int(round(abs(y1 - y0) / step))
    d = step if y1 > y0 else -step
    t = t0
    for i in range(1, n + 1):
        t = t0 + i * FRAME
        out.append(touch(t, "moved", x, y0 + i * d, (0, v)))
    t += FRAME + extra_end
    out.append(touch(t, "ended", x, y1, (0, v if end_v is None else end_v)))
    return out, t


def label_list(xs):
    return ",".join(xs) if xs else "-"


class Case:
    """One switch case: a header without `profile`, samples, and per version its expectations."""
    def __init__(self, lib, switch, name, spec, header, samples, env=None):
        self.lib, self.switch, self.name, self.spec, self.header, self.samples = lib, switch, name, spec, header, samples
        self.env = env or D1
        self.points = []  # (version, why, expectations [(key, value)], same [versions])

    def at(self, version, why, expect, same=()):
        self.points.append((version, why, expect, list(same)))
        return self


CASES = []
GATES = []


def fp_header(initial, **extra):
    panel = dict(B3)
    panel["initialState"] = initial
    panel.update(extra.pop("panel", {}))
    h = {"panel": panel}
    h.update(extra)
    return h


def list_view(y, height, content, offset, **extra):
    sv = {"frame": {"x": 0, "y": y, "width": 390, "height": height}, "contentSize": {"width": 390, "height": content},
          "contentOffset": {"x": 0, "y": offset}}
    sv.update(extra)
    return sv


# ---------------------------------------------------------------------------------------------
# FloatingPanel (profiles.md §3.1)

# FP-S1 removalThreshold: S4 on D1/B2, surface at 502 (442 pt from hidden 944), release at 3000 pt/s
# (6.79 /s). 2.0.0: threshold 10 -> no removal; targetState from 502 moving down (forward, segment
# half..hidden-less: B2 has no tip, the projection is not allowed, so the segment is (half, half) ->
# half): attraction back to half. 2.0.1: 5.5 -> removed (willRemove, didChangeState(hidden), didRemove).
b2 = {"position": "bottom", "initialState": "half", "removalInteractionEnabled": True, "anchors": {
    "full": B3["anchors"]["full"], "half": B3["anchors"]["half"]}}
# The surface moves by the finger's travel after the baseline sample (floatingpanel-core.md §3.4):
# down at 500, 520 (began), 540 (baseline), then 80 more to 620 -> surface 422 + 80 = 502.
s, t = drag(0.0, 195, 500, 620, 20, 3000)
CASES.append(Case("floatingpanel", "FP-S1", "removal-6-8-per-second",
                  "S4 on D1/B2: the surface dragged to 502 (442 pt from hidden), released at 3000 pt/s (6.79 /s)",
                  {"panel": b2}, s)
             .at("2.0.0", "the constant threshold 10 keeps the panel: attraction back to half",
                 [("state", "half"), ("location", HALF), ("lacks", "willRemove"), ("has", "willBeginAttracting:half"),
                  ("names", label_list(["didChangeState:half", "willBeginDragging", "willEndDragging:half", "didEndDragging:true",
                                        "willBeginAttracting:half", "didChangeState:half", "didEndAttracting"]))])
             .at("2.0.1", "the constant 5.5 removes it",
                 [("state", "hidden"), ("location", HIDDEN), ("has", "willRemove"), ("has", "didRemove"),
                  ("names", label_list(["didChangeState:half", "willBeginDragging", "willRemove", "didChangeState:hidden", "didRemove"]))],
                 same=["2.1.0"]))

# FP-S2 moveAnimatorLeak: D1/B3 at half, move(to: full, animated), a 50 ms tap at (195, 400) one
# second later. 2.0.0: the stale animator begins the pan at touch-down: shouldBeginDragging x2,
# willBeginDragging, willEndDragging(full), didEndDragging(false), didChangeState(full) (FP-S7's old
# order); 2.0.1: the tap does nothing.
s = [{"t": 0.1, "call": "move", "to": "full", "animated": True}, touch(1.1, "began", 195, 400), touch(1.15, "ended", 195, 400, (0, 0))]
move_old = ["didChangeState:half", "didChangeState:full"]
CASES.append(Case("floatingpanel", "FP-S2", "tap-after-animated-move", "D1/B3 at half, move(to: full, animated), a 50 ms tap 1 s later",
                  fp_header("half"), s)
             .at("2.0.0", "the finished move's animator is never released: the tap becomes a pan ending exactly at full",
                 [("state", "full"), ("location", FULL),
                  ("names", label_list(move_old + ["willBeginDragging", "willEndDragging:full", "didEndDragging:false", "didChangeState:full"]))])
             .at("2.0.1", "the tap goes through to the content: no panel event",
                 [("state", "full"), ("location", FULL), ("names", label_list(move_old)), ("lacks", "willBeginDragging")],
                 same=["2.1.0"]))

# FP-S3 negativePinToZero: #602, D1/B3 at full, list under a 44 pt bar (systemInset.top 44, O = -44),
# a 300 pt drag down in the list released at v = 0 (at 400: progress 300/322 > 0.5 -> half).
# 2.6.3: every pin to -44 sets (0, 0); 2.6.0 (2.6.2): the list stays at -44.
sv602 = list_view(36, 708, 3000, -44, systemInset={"top": 44, "left": 0, "bottom": 0, "right": 0})
s, t = drag(0.0, 195, 300, 640, 20, 600, end_v=0)   # began 320, baseline 340, surface +300 -> 400
CASES.append(Case("floatingpanel", "FP-S3", "list-under-navigation-bar", "FloatingPanel #602: D1/B3 at full, list at O = -44 under a 44 pt bar, 300 pt drag down, release at v = 0",
                  fp_header("full", scrollView=sv602), s)
             .at("2.6.0", "the pins keep -44",
                 [("state", "half"), ("location", HALF), ("offset", -44)], same=["2.6.2"])
             .at("2.6.3", "stopScrolling(at: -44) zeroes the offset [QUIRK]",
                 [("state", "half"), ("location", HALF), ("offset", 0)], same=["2.6.4", "2.6.5"]))

# FP-S4 scrollFailureRule: S1 (D1/B3 at full, O = 120, drag 400 -> 700, release at +600).
s1sv = list_view(36, 761, 3000, 120)
s = [touch(0.0, "began", 195, 400)] + [touch(i * FRAME, "moved", 195, 400 + 5 * i, (0, 600)) for i in range(1, 60)] \
    + [touch(0.5, "ended", 195, 700, (0, 600))]
CASES.append(Case("floatingpanel", "FP-S4", "handoff-at-content-top", "S1: D1/B3 at full, O = 120, drag from 400 to 700, release at +600",
                  fp_header("full", scrollView=s1sv), s)
             .at("2.6.3", "the panel's pan waits for the scrolled list's pan to fail: it never begins; the list scrolls to 0 and stays",
                 [("state", "full"), ("location", FULL), ("offset", 0), ("names", label_list(["didChangeState:full"]))],
                 same=["2.6.0"])
             .at("2.6.4", "the hand-off: one willBeginDragging, target half",
                 [("state", "half"), ("location", HALF), ("offset", 0),
                  ("names", label_list(["didChangeState:full", "willBeginDragging", "willEndDragging:half", "didEndDragging:true",
                                        "willBeginAttracting:half", "didChangeState:half", "didEndAttracting"]))],
                 same=["2.6.5"]))

# FP-S5 offsetCapture and FP-S6 listPinning: S3's header drag (D1/B3 at full, 56 pt header, O = 900,
# 150 pt drag by the header at +1000 -> half). `pin`: io = the pinning offset 0, pinned after the
# release's sample -> 0; `current` and from 2.7.0: 900.
s3sv = list_view(56, 741, 3000, 900)
s = [touch(0.0, "began", 195, 146)] + [touch(i * FRAME, "moved", 195, 146 + 6.25 * i, (0, 1000)) for i in range(1, 24)] \
    + [touch(0.2, "ended", 195, 296, (0, 1000))]
hdr = fp_header("full", scrollView=s3sv)
CASES.append(Case("floatingpanel", "FP-S5", "header-drag-to-half", "S3: D1/B3 at full, 56 pt header, O = 900, drag by the header to half",
                  hdr, s)
             .at("2.5.1", "io := the pinning offset, the list pinned to it after the release",
                 [("state", "half"), ("location", HALF), ("offset", 0)], same=["2.2.0", "2.3.0"])
             .at("2.5.2", "io := the current offset 900",
                 [("state", "half"), ("location", HALF), ("offset", 900)], same=["2.5.5"]))
# FP-S6 listPinning: an attraction while io differs from the offset (floatingpanel-core.md §8 item
# 12): D1/B3 at full, the list tracked at O = 0 (io = 0), setContentOffset(300), then move(to: half,
# animated). `async` (2.6.6): spring frames do not pin, O stays 300; `perFrame` (2.7.0): the move's
# frames pin the list to io = 0. (FP-S7 changes the move's events between the same two points.)
s = [{"t": 0.1, "call": "setContentOffset", "y": 300, "animated": False}, {"t": 0.2, "call": "move", "to": "half", "animated": True}]
CASES.append(Case("floatingpanel", "FP-S6", "spring-move-after-set-offset", "D1/B3 at full, list tracked at 0, setContentOffset(300), move(to: half, animated)",
                  fp_header("full", scrollView=list_view(36, 761, 3000, 0)), s)
             .at("2.6.6", "spring frames do not pin the list: O stays 300", [("state", "half"), ("location", HALF), ("offset", 300)],
                 same=["2.6.4"])
             .at("2.7.0", "each attraction frame pins the list to io = 0", [("state", "half"), ("location", HALF), ("offset", 0)],
                 same=["2.8.0"]))

# FP-S7 eventOrder: (2) D1/B3 at half, a drag of exactly 322 pt up, release at v = 0; (3) move(to:
# full, animated) from half.
# down 600, 580 (began), 560 (baseline), then 14 x 23 = 322 pt up -> surface 422 - 322 = 100
s = [touch(0.0, "began", 195, 600), touch(FRAME, "moved", 195, 580, (0, -300)), touch(2 * FRAME, "moved", 195, 560, (0, -300))]
for i in range(1, 15):
    s.append(touch((2 + i) * FRAME, "moved", 195, 560 - 23 * i, (0, -300)))
s.append(touch(17 * FRAME + 0.05, "ended", 195, 238, (0, 0)))
exact_common = ["didChangeState:half", "willBeginDragging", "willEndDragging:full"]
CASES.append(Case("floatingpanel", "FP-S7", "exact-anchor-release", "D1/B3 at half, a drag of exactly 322 pt up released at v = 0",
                  fp_header("half"), s)
             .at("2.6.6", "endWithoutAttraction: didEndDragging(false) first, then the state",
                 [("state", "full"), ("location", FULL), ("names", label_list(exact_common + ["didEndDragging:false", "didChangeState:full"]))],
                 same=["2.6.4", "2.6.0"])
             .at("2.7.0", "F4: the state first, then didEndDragging(false)",
                 [("state", "full"), ("location", FULL), ("names", label_list(exact_common + ["didChangeState:full", "didEndDragging:false"]))],
                 same=["2.8.0", "2.8.2"]))
s = [{"t": 0.1, "call": "move", "to": "full", "animated": True}]
CASES.append(Case("floatingpanel", "FP-S7", "animated-move", "D1/B3 at half, move(to: full, animated)", fp_header("half"), s)
             .at("2.6.6", "the spring runs without startAttraction: no attraction events, isAttracting false, one didMove less",
                 [("state", "full"), ("location", FULL), ("names", label_list(["didChangeState:half", "didChangeState:full"])),
                  ("lacks", "willBeginAttracting:full")], same=["2.0.1", "2.6.4"])
             .at("2.7.0", "willBeginAttracting(full), didChangeState(full), n + 1 didMove, didEndAttracting",
                 [("state", "full"), ("location", FULL),
                  ("names", label_list(["didChangeState:half", "willBeginAttracting:full", "didChangeState:full", "didEndAttracting"]))],
                 same=["2.8.0", "3.2.2"]))

# FP-S8 scrollHandleRule: D1/B3 at full, a list of 300 pt content in a 761 pt frame (its pan never
# begins), O = 0; drag up 300 pt in the list, release at v = 0. <= 2.7.x: shouldScrollViewHandleTouch's
# old "v <= 0" step leaves every event to the list: only shouldBeginDragging records; 2.8.0: the panel is
# dragged above full (no clamp: the list's pan is not in changed) and springs back to full.
short = list_view(36, 761, 300, 0)
s, t = drag(0.0, 195, 500, 180, 20, -300, end_v=0)
CASES.append(Case("floatingpanel", "FP-S8", "short-list-drag-up", "D1/B3 at full, a list shorter than its frame at O = 0, drag up 300 pt in the list",
                  fp_header("full", scrollView=short), s)
             .at("2.7.0", "the panel ignores every event of the touch", [("state", "full"), ("location", FULL),
                                                                          ("names", label_list(["didChangeState:full"]))],
                 same=["2.6.6"])
             .at("2.8.0", "the panel follows the finger above full and springs back",
                 [("state", "full"), ("location", FULL), ("has", "willBeginDragging"), ("has", "willBeginAttracting:full"),
                  ("has", "didEndDragging:true")], same=["2.8.2"]))

# FP-S9 exactAnchorStateBug: S6 (D1/B3 at half, list at 0, one drag up in the list from 600 to 100,
# lift at -300): the surface reaches full after 322 pt, the list takes the rest, the release is exact.
s6sv = list_view(36, 761, 3000, 0)
s = [touch(0.0, "began", 195, 600)] + [touch(i * FRAME, "moved", 195, 600 - 500 * i / 60, (0, -300)) for i in range(1, 60)] \
    + [touch(0.5, "ended", 195, 100, (0, -300))]
CASES.append(Case("floatingpanel", "FP-S9", "reach-full-during-drag", "S6: D1/B3 at half, list at 0, one drag up in the list from 600 to 100",
                  fp_header("half", scrollView=s6sv), s)
             .at("2.8.0", "F4: didChangeState(full) then didEndDragging(false)",
                 [("state", "full"), ("location", FULL),
                  ("names", label_list(["didChangeState:half", "willBeginDragging", "willEndDragging:full", "didChangeState:full", "didEndDragging:false"]))],
                 same=["2.8.2"])
             .at("2.8.1", "no state assignment: no didChangeState, the panel rests at 100 with state half",
                 [("state", "half"), ("location", FULL),
                  ("names", label_list(["didChangeState:half", "willBeginDragging", "willEndDragging:full", "didEndDragging:false"]))]))

# FP-S10 clampAboveZero: D1, full = absoluteInset 0 from the superview top, half 422; at half with a
# long list, drag up in the list from 600 to 100 (-300 pt/s).
edge = {"position": "bottom", "initialState": "half", "anchors": {
    "full": {"absoluteInset": 0, "edge": "top", "referenceGuide": "superview"},
    "half": B3["anchors"]["half"], "tip": B3["anchors"]["tip"]}}
CASES.append(Case("floatingpanel", "FP-S10", "full-at-zero-drag-up", "D1, full at 0 (superview top), at half with a long list, drag up in the list from 600 to 100",
                  {"panel": edge, "scrollView": list_view(36, 761, 3000, 0)}, s)
             .at("2.8.2", "the clamp needs a surface below 0: the surface goes above the screen and the release attracts back to 0",
                 [("state", "full"), ("location", 0), ("has", "didEndDragging:true"), ("has", "willBeginAttracting:full")],
                 same=["2.8.0", "2.8.3"])
             .at("2.8.4", "the clamp holds the surface at 0: an exact release",
                 [("state", "full"), ("location", 0), ("has", "didEndDragging:false"), ("lacks", "willBeginAttracting:full")],
                 same=["2.8.7"]))

# FP-S11 clearOffsetAfterAttraction: S3's second part: after the header drag to half,
# setContentOffset(300) and move(to: full, animated).
s11 = [touch(0.0, "began", 195, 146)] + [touch(i * FRAME, "moved", 195, 146 + 6.25 * i, (0, 1000)) for i in range(1, 24)] \
    + [touch(0.2, "ended", 195, 296, (0, 1000)), {"t": 1.5, "call": "setContentOffset", "y": 300, "animated": False},
       {"t": 1.6, "call": "move", "to": "full", "animated": True}]
CASES.append(Case("floatingpanel", "FP-S11", "set-offset-then-move", "S3 second part: header drag to half, setContentOffset(300), move(to: full, animated)",
                  fp_header("full", scrollView=s3sv), s11)
             .at("2.8.4", "io (900) is never cleared: the move's first frame pins the list back to 900",
                 [("state", "full"), ("location", FULL), ("offset", 900)], same=["2.8.2", "2.7.0"])
             .at("2.8.7", "io cleared after the attraction: the list keeps 300",
                 [("state", "full"), ("location", FULL), ("offset", 300)], same=["2.8.8", "3.2.2"]))

# FP-S12 anchorTolerance and FP-S13 anchorRounding: D2 (375 x 667, safe area 20/0, scale 2), full at
# absoluteInset 44.25 from the safe top: raw 64.25, frame rounded(64.25) = 64.5, so the rounded
# offset of the resting surface from the raw anchor is rounded(0.25) = 0.5 [QUIRK].
D2 = {"container": {"width": 375, "height": 667}, "safeArea": {"top": 20, "left": 0, "bottom": 0, "right": 0},
      "displayScale": 2, "frameRate": 60}
d2 = {"position": "bottom", "initialState": "full", "anchors": {
    "full": {"absoluteInset": 44.25, "edge": "top", "referenceGuide": "safeArea"},
    "half": {"fractionalInset": 0.5, "edge": "bottom", "referenceGuide": "safeArea"}}}
d2list = list_view(36, 566, 3000, 0)
s13 = [touch(0.0, "began", 187, 400)] + [touch(i / 60, "moved", 187, 400 - 20 * i, (0, -600)) for i in range(1, 11)] \
    + [touch(11 / 60 + 0.05, "ended", 187, 200, (0, 0))]
CASES.append(Case("floatingpanel", "FP-S13", "fractional-full-drag-up", "D2, full at 44.25 from the safe top (raw 64.25), list at 0, at full an upward drag of 200 pt in the list",
                  {"panel": d2, "scrollView": d2list}, s13, env=D2)
             .at("3.2.0", "pos(full) is raw: the panel rests inside its anchor, takes the drag (clamped at 64.25), keeps the list at 0 and releases exactly",
                 [("state", "full"), ("location", 64.5), ("offset", 0), ("has", "willBeginDragging"), ("has", "didEndDragging:false")],
                 same=["2.8.8", "3.0.0"])
             .at("3.2.1", "pos(full) is rounded (64.5): the list scrolls, the panel writes no drag",
                 [("state", "full"), ("location", 64.5), ("lacks", "willBeginDragging")], same=["3.2.2"]))
# FP-S12: the list tracked at 200 (io = 200, not the pinning offset 0, so §3.7 case A does not pin it).
CASES.append(Case("floatingpanel", "FP-S12", "fractional-full-list-scrolled", "D2, full at 44.25 from the safe top, list at 200, an upward drag in the list",
                  {"panel": d2, "scrollView": list_view(36, 566, 3000, 200)}, s13, env=D2)
             .at("2.8.7", "offset(from: full) must be exactly 0 for the list to keep the touch: the panel takes it, pins the list to its top and releases exactly",
                 [("state", "full"), ("location", 64.5), ("offset", 0), ("has", "willBeginDragging"), ("has", "didEndDragging:false")],
                 same=["2.8.4"])
             .at("2.8.8", "|offset| < 1: the list keeps the touch and scrolls on", [("state", "full"), ("location", 64.5), ("lacks", "willBeginDragging")],
                 same=["3.2.0"]))

# FP-S14 invalidateStateReset: D1/B3 at half, invalidateLayout with anchors {full, tip} and initial state tip.
s = [{"t": 0.1, "call": "invalidateLayout", "panel": {"anchors": {"full": B3["anchors"]["full"], "tip": B3["anchors"]["tip"]},
                                                      "initialState": "tip"}}]
CASES.append(Case("floatingpanel", "FP-S14", "invalidate-removes-state", "D1/B3 at half, invalidateLayout with anchors full and tip, initial state tip",
                  fp_header("half"), s)
             .at("2.8.0", "the surface is laid out at tip while the state stays half, no record",
                 [("state", "half"), ("location", TIP), ("names", label_list(["didChangeState:half"]))], same=["2.7.0"])
             .at("2.8.1", "state := the initial state with didChangeState(tip)",
                 [("state", "tip"), ("location", TIP), ("names", label_list(["didChangeState:half", "didChangeState:tip"]))],
                 same=["2.8.2", "3.2.2"]))

# FP-S15 ioAtTrack: D1/B3 at half, a list under a 56 pt header at O = 120, a drag down in the list
# from y 600 (at half the list is not scrollable: §3.7 case A pins to io before the panel begins).
s15sv = list_view(56, 741, 3000, 120)
s, t = drag(0.0, 195, 600, 700, 20, 600)
CASES.append(Case("floatingpanel", "FP-S15", "drag-list-at-half", "D1/B3 at half, list at O = 120, a drag down in the list",
                  fp_header("half", scrollView=s15sv), s)
             .at("2.5.1", "io starts at (0, 0) and tracking leaves it: the list is pinned to 0",
                 [("offset", 0)], same=["2.2.0", "2.3.0"])
             .at("2.5.2", "tracking sets io := 120: the list stays at 120",
                 [("offset", 120)], same=["2.6.0", "2.5.5"]))

# Gates (profiles.md §3.1.2): each feature under the first version that has it.
adaptive = {"position": "bottom", "initialState": "half", "anchors": {
    "full": {"adaptive": {"absoluteOffset": 0, "contentLength": 600, "referenceGuide": "superview"}},
    "half": B3["anchors"]["half"]}}
GATES.append(("floatingpanel", "FP-G1", "adaptive-anchor", {"panel": adaptive}, "2.1.0", "2.0.1", 1, "panel.anchors.full.adaptive"))
bounded = {"position": "bottom", "initialState": "half", "anchors": {
    "full": {"adaptive": {"absoluteOffset": 0, "contentLength": 600, "referenceGuide": "superview", "contentBoundingGuide": "safeArea"}},
    "half": B3["anchors"]["half"]}}
GATES.append(("floatingpanel", "FP-G4", "bounded-adaptive-anchor", {"panel": bounded}, "2.6.0", "2.5.2", 1,
              "panel.anchors.full.adaptive.contentBoundingGuide"))
thr = {"position": "bottom", "initialState": "half", "anchors": B3["anchors"], "removalInteractionEnabled": True,
                       "behavior": {"removalInteractionVelocityThreshold": 7}}
GATES.append(("floatingpanel", "FP-G2", "removal-threshold-field", {"panel": thr}, "2.2.0", "2.1.0", 1,
              "panel.behavior.removalInteractionVelocityThreshold"))
custom = {"position": "bottom", "initialState": "half", "states": [{"name": "lastQuart", "order": 750}],
          "anchors": dict(B3["anchors"], lastQuart={"absoluteInset": 250, "edge": "top", "referenceGuide": "safeArea"})}
GATES.append(("floatingpanel", "FP-G3", "custom-state", {"panel": custom}, "2.3.0", "2.2.0", 1, "panel.anchors.lastQuart"))
GATES.append(("floatingpanel", "FP-G5", "scrollable-states", fp_header("half", scrollView=list_view(36, 761, 3000, 0),
                                                                       delegate={"scrollableStates": ["full", "half"]}),
              "2.8.0", "2.7.0", 1, "delegate.scrollableStates"))

# ---------------------------------------------------------------------------------------------
# LNPopup (profiles.md §3.2), D1 without a bottom bar: dock 810, closed bar 746-810, open at 0; the
# close button (grabber) at (174, 47, 42, 25) in content coordinates.


def popup(style="default", initial="barPresented"):
    return {"popup": {"interactionStyle": style, "bottomBar": {"kind": "none"}, "initialState": initial}}


PRESENT = ["willPresentPopupBar", "didChangeState:barPresented", "didPresentPopupBar"]
PRESENT_OPEN = ["willPresentPopupBar", "willOpenPopup", "willOpenPopup", "didChangeState:open", "didOpenPopup", "didPresentPopupBar"]
OPEN = ["willOpenPopup", "didChangeState:open", "didOpenPopup"]
CLOSE = ["willClosePopup", "didChangeState:barPresented", "didClosePopup"]

# LN-S1 touchesDuringOpen: a bar tap (open, 0.5 s), a tap on the close button 0.2 s later.
s = [{"t": 0.1, "call": "tapBar"}, touch(0.3, "began", 195, 59), touch(0.35, "ended", 195, 59)]
CASES.append(Case("lnpopup", "LN-S1", "close-button-during-open", "bar tap, then the close button tapped 0.2 s later during the open",
                  popup(), s)
             .at("4.0.8", "every animated open locks the window: the tap is ignored, the popup stays open",
                 [("state", "open"), ("location", 0), ("names", label_list(PRESENT + OPEN))])
             .at("4.0.9", "the close is queued and runs at the open's completion (0.6 s) and ends at 1.1 s",
                 [("state", "barPresented"), ("location", DOCK), ("names", label_list(PRESENT + OPEN + CLOSE))], same=["4.2.1"]))

# LN-S2 zeroTranslationIgnored: drag style, open; drag down 200 pt, jump back to the touch-down point
# in one sample, release at v = 0 (old release rule at both points).
s = [touch(0.1, "began", 195, 300)] + [touch(0.1 + i * FRAME, "moved", 195, 300 + 20 * i, (0, 600)) for i in range(1, 11)]
s += [touch(0.1 + 11 * FRAME, "moved", 195, 300, (0, 0)), touch(0.1 + 12 * FRAME, "ended", 195, 300, (0, 0))]
CASES.append(Case("lnpopup", "LN-S2", "zero-translation-sample", "drag style, open: down 200 pt, back to the touch-down point in one sample, release at v = 0",
                  popup("drag", "open"), s)
             .at("4.0.9", "the (0, 0) sample puts the content back at 0: p = 1, the 80 % threshold is not passed -> open",
                 [("state", "open"), ("location", 0), ("has", "willEndDragging:open")], same=["4.0.0"])
             .at("4.2.1", "the (0, 0) sample is ignored: location 200, p = 0.753 < 0.8 -> close",
                 [("state", "barPresented"), ("location", DOCK), ("has", "willEndDragging:barPresented")], same=["4.3.0"]))

# LN-S3 verticalOnlyBarPan: default (snap) style, closed bar; a pan 30 deg above the horizontal,
# v = (866, -500) at recognition, lifted 0.05 s later.
s = [touch(0.1, "began", 195, 778), touch(0.1 + FRAME, "moved", 212.32, 768, (866, -500)),
     touch(0.1 + 2 * FRAME, "moved", 229.64, 758, (866, -500)), touch(0.15, "ended", 229.64, 758, (866, -500))]
rec = t6(0.1 + FRAME)
CASES.append(Case("lnpopup", "LN-S3", "diagonal-bar-pan", "snap style, closed bar, a pan 30 deg above the horizontal (v = (866, -500))",
                  popup(), s)
             .at("4.2.1", "no vertical test: v.y < 0 opens 0.15 s after recognition",
                 [("state", "open"), ("location", 0), ("names", label_list(PRESENT + OPEN))], same=["4.0.9"])
             .at("4.3.0", "|v.y| <= |v.x| is not vertical: nothing happens",
                 [("state", "barPresented"), ("location", DOCK), ("names", label_list(PRESENT))], same=["4.5.0", "4.5.1"]))

# LN-S4 gesturesIgnored: drag style, open; drag down 100 pt, release moving up (re-open, 0.5 s);
# 0.1 s later a second drag down 200 pt released at +800 pt/s.
s = [touch(0.1, "began", 195, 300)] + [touch(0.1 + i * FRAME, "moved", 195, 300 + 20 * i, (0, 600)) for i in range(1, 6)]
t1 = 0.1 + 6 * FRAME
s.append(touch(t1, "ended", 195, 400, (0, -200)))
t2 = t6(t1 + 0.1)
s += [touch(t2, "began", 195, 300)] + [touch(t2 + i * FRAME, "moved", 195, 300 + 20 * i, (0, 800)) for i in range(1, 11)]
s.append(touch(t2 + 11 * FRAME, "ended", 195, 500, (0, 800)))
rel1 = ["willBeginDragging", "willEndDragging:open"]
CASES.append(Case("lnpopup", "LN-S4", "drag-during-reopen", "drag style, open: a drag released moving up (re-open), a second drag during the re-open released at +800",
                  popup("drag", "open"), s)
             .at("4.3.0", "the second drag is tracked; its close is queued behind the re-open and starts at its completion",
                 [("state", "barPresented"), ("location", DOCK),
                  ("names", label_list(PRESENT_OPEN + rel1 + ["willBeginDragging", "willEndDragging:barPresented", "didChangeState:open"] + CLOSE))],
                 same=["4.2.1"])
             .at("4.5.1", "the second drag is ignored (gesturesIgnored): the popup stays open",
                 [("state", "open"), ("location", 0), ("names", label_list(PRESENT_OPEN + rel1 + ["didChangeState:open"]))],
                 same=["4.5.2"]))

# LN-S5 closeSpring: overshoot of the docking line by travel x e^(-zeta pi / beta) (profiles.md
# LN-S5): 0.85 -> 0.6288 %, 0.87 -> 0.3913 %, 0.9 -> 0.1524 % (the seed changes it by < 0.001 %),
# 1.0 -> none.
def overshoot(zeta, travel):
    beta = math.sqrt(1 - zeta * zeta)
    return travel * math.exp(-zeta * math.pi / beta)


s = [touch(0.1, "began", 195, 59), touch(0.15, "ended", 195, 59)]
CASES.append(Case("lnpopup", "LN-S5", "close-button", "default style, open: the close button", popup("default", "open"), s)
             .at("4.5.1", "every close in snap style uses 0.85: overshoot %.2f pt" % overshoot(0.85, DOCK),
                 [("state", "barPresented"), ("peak", round(DOCK + overshoot(0.85, DOCK), 3))], same=["4.0.9"])
             .at("4.5.2", "a close-button close uses 1.0: no overshoot",
                 [("state", "barPresented"), ("peak", DOCK)], same=["4.5.3"]))
s = [touch(0.1, "began", 195, 300)] + [touch(0.1 + i * FRAME, "moved", 195, 300 + 20 * i, (0, 800)) for i in range(1, 11)]
s.append(touch(0.1 + 11 * FRAME, "ended", 195, 500, (0, 800)))
travel = DOCK - 200
drag_close = Case("lnpopup", "LN-S5", "drag-close", "drag style, open: drag down 200 pt, release at +800", popup("drag", "open"), s)
drag_close.at("4.5.1", "drag style: 1.0, no overshoot", [("state", "barPresented"), ("peak", DOCK)])
drag_close.at("4.5.2", "gesture close 0.85", [("state", "barPresented"), ("peak", round(DOCK + overshoot(0.85, travel), 3))])
drag_close.at("4.5.3", "gesture close 0.87", [("state", "barPresented"), ("peak", round(DOCK + overshoot(0.87, travel), 3))])
drag_close.at("4.5.5", "seeded 0.9", [("state", "barPresented"), ("peak", round(DOCK + overshoot(0.9, travel), 3))])
drag_close.at("4.5.6", "unseeded 0.87", [("state", "barPresented"), ("peak", round(DOCK + overshoot(0.87, travel), 3))])
CASES.append(drag_close)

# LN-S6 defaultStyle: default style, open: drag down 150 pt slowly, release at +50 pt/s.
s = [touch(0.1, "began", 195, 300)] + [touch(0.1 + i * FRAME, "moved", 195, 300 + 10 * i, (0, 50)) for i in range(1, 16)]
s.append(touch(0.1 + 16 * FRAME, "ended", 195, 450, (0, 50)))
r150 = 150 * H * 0.32 / (H + 0.32 * 150)
tend = t6(0.1 + 15 * FRAME)
CASES.append(Case("lnpopup", "LN-S6", "slow-drag-down", "default style, open: drag down 150 pt slowly, release at +50 pt/s",
                  popup("default", "open"), s)
             .at("4.5.5", "default is snap: the content rubber-bands to R(150) = %.3f and re-opens" % r150,
                 [("state", "open"), ("location", 0), ("loc@%.6f" % tend, round(r150, 3))], same=["4.5.3"])
             .at("4.5.6", "default is automatic (drag while open): the content follows the finger and closes",
                 [("state", "barPresented"), ("location", DOCK), ("loc@%.6f" % tend, 150)]))

# LN-S7 releaseRule (drag style): (a) open, drag to p = 0.6 (location 324), release at v = 0;
# (b) bar, drag up to p = 0.1 (location 729), release at v = 0; (c) open, drag to p = 0.3 (location
# 567), release moving up.
def straight(t0, y0, y1, v, end_v, steps):
    out = [touch(t0, "began", 195, y0)]
    for i in range(1, steps + 1):
        out.append(touch(t0 + i * FRAME, "moved", 195, y0 + (y1 - y0) * i / steps, (0, v)))
    out.append(touch(t0 + (steps + 1) * FRAME, "ended", 195, y1, (0, end_v)))
    return out


CASES.append(Case("lnpopup", "LN-S7", "a-open-p06-still", "drag style, open: drag to p = 0.6, release at v = 0", popup("drag", "open"),
                  straight(0.1, 200, 524, 600, 0, 18))
             .at("4.5.5", "v = 0 from open: p < 0.8 -> close", [("state", "barPresented"), ("has", "willEndDragging:barPresented")], same=["4.5.4"])
             .at("4.5.6", "v <= 0 from open, p >= 0.5 -> open", [("state", "open"), ("has", "willEndDragging:open")]))
CASES.append(Case("lnpopup", "LN-S7", "b-bar-p01-still", "drag style, closed bar: drag up to p = 0.1, release at v = 0", popup("drag"),
                  straight(0.1, 790, 709, -300, 0, 9))
             .at("4.5.5", "v = 0 from the bar: p <= 0.2 -> stays closed", [("state", "barPresented"), ("has", "willEndDragging:barPresented")],
                 same=["4.5.3"])
             .at("4.5.6", "v <= 0 from the bar -> open", [("state", "open"), ("has", "willEndDragging:open")]))
CASES.append(Case("lnpopup", "LN-S7", "c-open-p03-up", "drag style, open: drag to p = 0.3, release moving up", popup("drag", "open"),
                  straight(0.1, 200, 767, 600, -300, 21))
             .at("4.5.5", "v < 0 -> open", [("state", "open"), ("has", "willEndDragging:open")], same=["4.5.4"])
             .at("4.5.6", "v <= 0 from open with p < 0.5 -> close", [("state", "barPresented"), ("has", "willEndDragging:barPresented")]))

# LN-S8 barHeightAllStyles: drag style, closed bar, tapBar: at rest open.
s = [{"t": 0.1, "call": "tapBar"}]
CASES.append(Case("lnpopup", "LN-S8", "drag-style-open", "drag style, closed bar, tapBar", popup("drag"), s)
             .at("4.5.3", "outside snap style the bar keeps its 64 pt height, its frame (-64, 64) while open",
                 [("state", "open"), ("location", 0), ("frame.barTop", -64), ("frame.barHeight", 64), ("frame.barVisible", "true")],
                 same=["4.5.2"])
             .at("4.5.4", "the bar's height is 0 while open in every style",
                 [("state", "open"), ("location", 0), ("frame.barTop", 0), ("frame.barHeight", 0), ("frame.barVisible", "false")],
                 same=["4.5.6"]))

GATES.append(("lnpopup", "LN-G1", "automatic-style", popup("automatic"), "4.5.4", "4.5.3", 1, "popup.interactionStyle"))

# ---------------------------------------------------------------------------------------------
# DrawerKit (profiles.md §3.3), D1, partial 300 (partialY 544), collapsed 100 (collapsedY 744).


def drawer(initial, **extra):
    d = {"heightOfPartiallyExpandedDrawer": 300, "heightOfCollapsedDrawer": 100, "configuration": {"initialState": initial}}
    d.update(extra)
    return {"drawer": d}


s = [touch(0.5, "began", 195, 400), touch(0.55, "ended", 195, 400)]
CASES.append(Case("drawerkit", "DK-S1", "outside-tap-at-collapsed", "C1 at collapsed right after the presentation, a tap outside the drawer at y 400",
                  drawer("collapsed"), s)
             .at("0.7.0", "collapsedY is transitioning: the touch reaches the container, whose tap recognizer the presentation enabled (Q4): dismissal",
                 [("state", "dismissed"), ("has", "drawerExteriorTapped")])
             .at("master", "collapsed passes outside touches through: nothing", [("state", "collapsed"), ("location", 744), ("lacks", "drawerExteriorTapped")],
                 same=["bc1c220"]))
s = [touch(0.5, "began", 195, 600), touch(0.5 + FRAME, "moved", 195, 620, (0, 3000)), touch(0.5 + 2 * FRAME, "ended", 195, 620, (0, 3000)),
     touch(1.5, "began", 195, 764), touch(1.55, "ended", 195, 764)]
CASES.append(Case("drawerkit", "DK-S2", "drawer-tap-at-collapsed", "C1 at partial, a quick flick down (-> collapsed), then a tap 20 pt below the drawer's top",
                  drawer("partiallyExpanded"), s)
             .at("0.7.0", "the target collapsed disables both tap recognizers: nothing",
                 [("lacks", "drawerInteriorTapped"), ("location", 744)])
             .at("master", "the drawer tap is enabled at collapsed: drawerInteriorTapped and full",
                 [("state", "fullyExpanded"), ("location", 0), ("has", "drawerInteriorTapped")], same=["bc1c220b10f2"]))
GATES.append(("drawerkit", "DK-G1", "set-drawer-state", dict(drawer("partiallyExpanded"),
              _samples=[{"t": 0.5, "call": "setDrawerState", "state": "fullyExpanded", "animated": True}]), "master", "0.7.0", 2, "call"))

# ---------------------------------------------------------------------------------------------
# UISheet (profiles.md §3.4): a custom detent exists from iOS 16.
GATES.append(("uisheet", "US-G1", "custom-detent", {"sheet": {"detents": [{"identifier": "small", "kind": "custom", "height": 200},
                                                                          {"identifier": "large", "kind": "large"}]}},
              "16", "15", 1, "sheet.detents[0]"))


# ---------------------------------------------------------------------------------------------

def write_trace(path, header, samples):
    lines = [json.dumps(header, ensure_ascii=False)] + [json.dumps(x) for x in samples]
    full = os.path.join(ROOT, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def model_fields(lib):
    return {} if lib == "floatingpanel" else {"model": lib}


def main():
    shutil.rmtree(os.path.join(ROOT, OUT), ignore_errors=True)
    count = 0
    for c in CASES:
        folder = f"{OUT}/{c.lib}/{c.switch.lower()}"
        versions = [p[0] for p in c.points]
        for version, why, expect, same in c.points:
            name = f"{c.name}.{version}"
            words = [f"{k}={v}" for k, v in expect]
            words += [f"same={v}" for v in same]
            words += [f"pair={c.name}.{other}" for other in versions if other != version]
            desc = f"{c.switch} at {c.lib} {version}: {c.spec}. {why}. expect: " + " ".join(words)
            header = {"format": "panelsim-trace", "version": 1}
            header.update(model_fields(c.lib))
            header["profile"] = {"library": c.lib, "version": version}
            header.update({"name": name, "description": desc,
                           "source": {"kind": "synthetic", "origin": ORIGIN, "device": "D2" if c.env is not D1 else "D1"},
                           "environment": c.env})
            header.update(c.header)
            write_trace(f"{folder}/{name}.jsonl", header, c.samples)
            count += 1
    for lib, gate, case, sections, opens, refused, line, field in GATES:
        sections = dict(sections)
        samples = sections.pop("_samples", [])
        name = f"{gate.lower()}-{case}.{opens}"
        desc = (f"{gate} at {lib} {opens}: the feature exists from {opens}; under {refused} the trace is invalid input naming line {line} "
                f"and {field}. expect: refusedAt={refused} line={line} field={field} opensAt={opens}")
        header = {"format": "panelsim-trace", "version": 1}
        header.update(model_fields(lib))
        header["profile"] = {"library": lib, "version": opens}
        header.update({"name": name, "description": desc, "source": {"kind": "synthetic", "origin": ORIGIN, "device": "D1"},
                       "environment": D1})
        header.update(sections)
        write_trace(f"{OUT}/{lib}/gates/{name}.jsonl", header, samples or [{"t": 0.5, "end": True}])
        count += 1
    print(f"wrote {count} traces under {OUT}/")


if __name__ == "__main__":
    main()
