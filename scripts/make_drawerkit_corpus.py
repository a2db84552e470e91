#!/usr/bin/env python3
"""Writes the DrawerKit trace corpus under traces/drawerkit/ (families S1-S8 of drawerkit.md §6,
appearance quirks, and the real finger recordings of traces/real/ replayed as DrawerKit drags).

Each trace's description ends with an `expect:` clause computed here from the rules of
../shared/spec/drawerkit.md alone, independently of the Swift simulator. The expectations come from
a small discrete model of the spec in this file (`Model`): no animation curves, only what decides
outcomes and times -- geometry and state(y) (§3.1), the pan with stepwise clamping and the dropped
`ended` movement (§3.3, Q10, Q11), the release table (§3.4), taps, hit testing and passthrough (§3.5,
D7), transitions and their completion work (§3.6, Q3), triangular / corner radius / handle alpha
(§3.7, Q4, Q5, Q12), durations (§3.8), completion frames (§3.9, D9), presentation and dismissal
(§3.10, D4, D5, D12), setDrawerState (§3.11, Q2), the terminal rule of D3 (§3.12) and B26 (§3.13).
The families, what each checks and the rules used are listed in scripts/README-drawerkit-corpus.md.

Keys of the clause (the last frame unless said otherwise): state, location, presented,
cornerRadius / handleAlpha (`~=`: within 1e-6 of the 6-decimal value), nextState (every
handleDrawerDrag ended, in order), transitions (every transitionWillStart as start>target),
interior / exterior (tap notifications), completions, finishAt (time of the last
transitionDidFinish), events (count of transitionWillStart).

Usage: python3 scripts/make_drawerkit_corpus.py   (from anywhere; rewrites traces/drawerkit/)
Plain python3, no packages; the output is byte-identical from run to run. It does not write goldens.
"""
import csv, json, math, os, re, shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = "traces/drawerkit"
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "real-traces")
ORIGIN = "scripts/make_drawerkit_corpus.py"

D1 = {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0},
      "displayScale": 3, "frameRate": 120}
D2 = {"container": {"width": 375, "height": 667}, "safeArea": {"top": 20, "left": 0, "bottom": 0, "right": 0},
      "displayScale": 2, "frameRate": 120}
D2_60 = dict(D2, frameRate=60)
DEVICES = {"D1": D1, "D2": D2, "D2@60": D2_60}

FULL, PARTIAL, COLLAPSED, DISMISSED = "fullyExpanded", "partiallyExpanded", "collapsed", "dismissed"
CONF_DEFAULTS = {"initialState": None, "totalDurationInSeconds": 0.4, "durationIsProportionalToDistanceTraveled": False,
                 "timingCurveProvider": "systemSpring", "fullExpansionBehaviour": "coversFullScreen",
                 "supportsPartialExpansion": True, "dismissesInStages": True, "isDrawerDraggable": True,
                 "isFullyPresentableByDrawerTaps": True, "numberOfTapsForFullDrawerPresentation": 1,
                 "isDismissableByOutsideDrawerTaps": True, "numberOfTapsForOutsideDrawerDismissal": 1,
                 "flickSpeedThreshold": 3, "upperMarkGap": 40, "lowerMarkGap": 40, "maximumCornerRadius": 15,
                 "cornerAnimationOption": "maximumAtPartialY", "handleViewConfiguration": {"autoAnimatesDimming": True},
                 "passthroughTouchesInStates": [COLLAPSED, PARTIAL]}


def t(x):
    """Seconds floored to whole microseconds, so that a sample meant for frame k lands on frame k."""
    return math.floor(x * 1e6 + 1e-6) / 1e6


def num(v):
    return int(v) if float(v).is_integer() else v


def fmt_time(x):
    """A frame time rounded half-up to whole microseconds, 6 decimals."""
    return "%.6f" % (math.floor(x * 1e6 + 0.5) / 1e6)


def label(s):
    return "transitioning" if isinstance(s, tuple) else s


# ------------------------------------------------------------------------------------------------
# Geometry and decisions (§3.1, §3.4, §3.7, §3.8)

class Geo:
    def __init__(self, env, drawer):
        conf = dict(CONF_DEFAULTS, **drawer.get("configuration", {}))
        self.conf = conf
        self.H = env["container"]["height"]
        self.sbh = drawer.get("statusBarHeight", env.get("safeArea", {}).get("top", 0))
        H = self.H
        fe = conf["fullExpansionBehaviour"]
        self.fullY = 0 if fe == "coversFullScreen" else self.sbh if fe == "doesNotCoverStatusBar" else fe["leavesCustomGap"]
        self.partialH = min(max(0, drawer["heightOfPartiallyExpandedDrawer"]), H)
        self.partialY = H - self.partialH
        self.collapsedH = min(max(0, drawer.get("heightOfCollapsedDrawer", 0)), H)
        self.collapsedY = H - self.collapsedH
        self.upper = max(self.partialY - conf["upperMarkGap"], self.fullY)
        self.lower = min(self.partialY + conf["lowerMarkGap"], H)
        self.sup = conf["supportsPartialExpansion"]
        self.stages = conf["dismissesInStages"]
        self.thr = conf["flickSpeedThreshold"]
        self.maxr = conf["maximumCornerRadius"]
        self.option = conf["cornerAnimationOption"]
        hv = conf["handleViewConfiguration"]
        self.handle = hv is not None
        self.dims = self.handle and hv.get("autoAnimatesDimming", True)

    @staticmethod
    def equal(a, b):
        return abs(a - b) <= 0.5

    def clamp(self, y):
        return min(max(y, self.fullY), self.H)

    def state(self, y):
        if y < self.fullY or self.equal(y, self.fullY):
            return FULL
        if y > self.H or self.equal(y, self.H):
            return DISMISSED
        if self.equal(y, self.partialY):
            return PARTIAL
        if self.equal(y, self.collapsedY):
            return COLLAPSED
        return ("transitioning", y)

    def pos(self, s):
        if isinstance(s, tuple):
            return s[1]
        return {DISMISSED: self.H, COLLAPSED: self.collapsedY, PARTIAL: self.partialY, FULL: self.fullY}[s]

    def final(self):
        return COLLAPSED if self.collapsedH > 0 and self.stages else DISMISSED

    def decide(self, s, vy):
        """§3.4: (nextState, row, speedY, y)."""
        speed = vy / self.H
        y = self.pos(s)
        still, up, down = speed == 0, speed < 0, speed > 0
        quick = self.thr != 0 and abs(speed) > self.thr
        above_upper, above_lower = y < self.upper, y < self.lower
        if up and quick:
            return FULL, 1, speed, y
        if down and quick:
            return self.final(), 2, speed, y
        if above_upper and (up or still):
            return FULL, 3, speed, y
        if above_upper and down:
            return (PARTIAL if self.sup and self.stages else self.final()), 4, speed, y
        if above_lower and down:
            return self.final(), 5, speed, y
        if above_lower and (up or still):
            return (PARTIAL if self.sup else FULL), 6, speed, y
        return self.final(), 7, speed, y

    def tri(self, s):
        y, f, p, H = self.pos(s), self.fullY, self.partialY, self.H
        if p == f or p == H or f == H:
            return 0.0
        if self.sup:
            return (y - f) / (p - f) if y < p else 1 - (y - p) / (H - p)
        return 1 - (y - f) / (H - f)

    def corner(self, s):
        if self.option == "none":
            r = self.maxr
        elif self.option == "maximumAtPartialY":
            r = self.maxr * self.tri(s)
        else:
            r = self.maxr * min(self.pos(s), self.sbh) / self.sbh
        return min(max(r, 0), self.maxr)

    def duration(self, y0, y1):
        total = self.conf["totalDurationInSeconds"]
        if self.conf["durationIsProportionalToDistanceTraveled"]:
            return total * abs(y1 - y0) / self.H
        return total


def done_frame(ts, D, rate):
    """D9: the first frame with t_k > t_s and t_k - t_s >= D - 1e-9."""
    k = max(0, math.floor(ts * rate) - 2)
    while True:
        tk = k / rate
        if tk > ts and tk - ts >= D - 1e-9:
            # Guard: an expectation must not hinge on the last bits of a proportional duration.
            assert D == 0 or (k - 1) / rate - ts < D - 1e-6 or (k - 1) / rate <= ts, (ts, D)
            return k
        k += 1


def frame_of(ts, rate):
    """The frame that processes a sample at ts: the first k with k/rate >= ts."""
    k = max(0, math.floor(ts * rate) - 2)
    while k / rate < ts:
        k += 1
    return k


# ------------------------------------------------------------------------------------------------
# The discrete model: samples in file order at their frames, completions after them (§3.9)

class Model:
    def __init__(self, env, drawer, velocity_override=None):
        self.env = json.loads(json.dumps(env))
        self.drawer = drawer
        self.rate = env["frameRate"]
        self.g = Geo(self.env, drawer)
        conf = self.g.conf
        self.initial = conf["initialState"] or (PARTIAL if self.g.sup else FULL)
        self.velocity_override = velocity_override
        self.next, self.trans, self.finishes = [], [], []
        self.interior = self.exterior = self.completions = 0
        self.pending = []  # (frame, seq, callable)
        self.seq = 0
        self.terminal = False
        self.uikit_busy = False
        self.presented = drawer.get("presented", True)
        self.presentations = 0
        self.view_y = None  # presented view's model y (None before the first presentation: D5)
        self.radius = 0.0
        self.alpha = 1.0
        self.touch = None
        self.taps = {"drawer": [0, None, None], "outside": [0, None, None]}  # count, first down, last end
        self.log = []
        self.deferred = []
        self.releases = []  # (drawer y, currentDrawerState) at each release
        if self.presented:  # D12: presentation finished before t = 0, no records
            self.presentations = 1
            self.target = self.initial
            self.presentation_corner(self.g.fullY)
            self.y = self.g.pos(self.initial)
            self.drawer_tap_on = self.outside_tap_on = True  # Q4
        else:
            self.target = DISMISSED
            self.y = self.g.H
            self.drawer_tap_on = self.outside_tap_on = False

    # -- helpers
    def cur(self):
        return self.g.state(self.g.clamp(self.y))

    def set_target(self, s):
        """§3.2 availability, run on every assignment of targetDrawerState."""
        self.target = s
        self.outside_tap_on = s in (PARTIAL, FULL, COLLAPSED)
        self.drawer_tap_on = s in (PARTIAL, COLLAPSED)
        for which, on in (("drawer", self.drawer_tap_on), ("outside", self.outside_tap_on)):
            if not on:
                self.taps[which][0] = 0  # D7: a disabled recognizer resets its count

    def schedule(self, ts, D, fn):
        self.seq += 1
        self.pending.append((done_frame(ts, D, self.rate), self.seq, ts, fn))

    def presentation_corner(self, view_y):
        g = self.g
        current = g.state(g.clamp(view_y))
        if g.maxr != 0 and g.partialY != g.fullY and current != PARTIAL:
            self.radius = g.corner(PARTIAL)

    # -- DrawerKit transition (§3.6)
    def transition(self, ts, s1, completion=False, why=""):
        g = self.g
        s0 = self.cur()
        y0, y1 = g.pos(s0), g.pos(s1)
        D = g.duration(y0, y1)
        if g.dims:
            self.alpha = g.tri(s0)
        self.trans.append(f"{label(s0)}>{s1}")
        self.log.append(f"{ts:.6f} transition {label(s0)}>{s1} D={D:.6f} {why}")
        self.set_target(s1)
        self.y = g.clamp(y1)
        if g.dims:
            self.alpha = g.tri(s1)
        if g.maxr != 0:
            self.radius = g.corner(s1)
        if s1 == DISMISSED:
            self.terminal = True  # D3 dismissalIsTerminal

        def complete(k):
            if g.dims:
                self.alpha = g.tri(s1)
            if g.maxr != 0 and g.option != "none" and s0 in (DISMISSED, FULL):
                self.radius = 0.0  # Q3
            self.finishes.append(k / self.rate)
            if completion:
                self.completions += 1
            if s1 == DISMISSED:
                return ("dismiss", k / self.rate)
        self.schedule(ts, D, complete)

    # -- UIKit transitions (§3.10)
    def uikit_dismiss(self, ts):
        g = self.g
        self.drawer_tap_on = self.outside_tap_on = False
        self.uikit_busy = True
        self.terminal = True
        y0 = g.pos(self.target)
        s0 = g.state(y0)
        if g.maxr != 0 and g.partialY != g.fullY and self.cur() != DISMISSED:
            self.radius = g.corner(DISMISSED)
        self.trans.append(f"{label(s0)}>{DISMISSED}")
        self.log.append(f"{ts:.6f} uikit dismissal {label(s0)}>dismissed")
        self.y = g.H
        D = g.duration(y0, g.H)

        def complete(k):
            self.finishes.append(k / self.rate)
            if g.maxr != 0 and g.option != "none":
                self.radius = 0.0
            self.presented = False
            self.uikit_busy = False
            self.terminal = False
            self.target = DISMISSED
            self.view_y = g.H
        self.schedule(ts, D, complete)

    def uikit_present(self, ts):
        g = self.g
        self.presented = True
        self.presentations += 1
        self.uikit_busy = True
        self.taps = {"drawer": [0, None, None], "outside": [0, None, None]}
        self.drawer_tap_on = self.outside_tap_on = False
        self.alpha = 1.0  # a new handle view
        self.presentation_corner(g.fullY if self.view_y is None else self.view_y)
        self.target = self.initial
        y1 = g.pos(self.initial)
        self.trans.append(f"{DISMISSED}>{label(g.state(y1))}")
        self.log.append(f"{ts:.6f} uikit presentation")
        self.y = y1
        D = g.duration(g.H, y1)

        def complete(k):
            self.finishes.append(k / self.rate)
            self.uikit_busy = False
            self.drawer_tap_on = self.outside_tap_on = True  # Q4
        self.schedule(ts, D, complete)

    # -- taps (§3.5, D7)
    def tap_recognized(self, which, ts_down, ts_up, x, y, n_required):
        c = self.taps[which]
        if c[0] > 0 and ts_down - c[2] <= 0.35 and math.hypot(x - c[1][0], y - c[1][1]) <= 45:
            c[0] += 1
        else:
            c[0], c[1] = 1, (x, y)
        c[2] = ts_up
        if c[0] >= n_required:
            c[0] = 0
            return True
        return False

    def on_control(self, x, y):
        ly = y - self.y
        for r in self.drawer.get("content", {}).get("controls", []):
            if r["x"] <= x < r["x"] + r["width"] and r["y"] <= ly < r["y"] + r["height"]:
                return True
        return False

    def drawer_tap(self, ts, x, y):
        g = self.g
        if y - self.y < g.partialH:
            self.interior += 1
            self.log.append(f"{ts:.6f} drawerInteriorTapped")
            self.transition(ts, FULL, why="drawer tap")
        else:
            self.log.append(f"{ts:.6f} drawer tap at local y {y - self.y} >= partialH: nothing")

    def outside_tap(self, ts, x, y):
        if y < self.g.clamp(self.y):
            self.exterior += 1
            self.log.append(f"{ts:.6f} drawerExteriorTapped")
            self.outside_tap_on = False
            self.transition(ts, DISMISSED, why="outside tap")

    def hit(self, x, y):
        """'drawer', 'passthrough' or 'container' at touch-down (D8: model frame)."""
        if y >= self.y:
            return "drawer"
        s = self.cur()
        if s in (COLLAPSED, PARTIAL, FULL) and s in self.g.conf["passthroughTouchesInStates"]:
            return "passthrough"
        return "container"

    def drawer_tap_installed(self):
        c = self.g.conf
        return c["isFullyPresentableByDrawerTaps"] and c["numberOfTapsForFullDrawerPresentation"] > 0

    def outside_tap_installed(self):
        c = self.g.conf
        return c["isDismissableByOutsideDrawerTaps"] and c["numberOfTapsForOutsideDrawerDismissal"] > 0

    # -- samples
    def sample(self, s):
        ts = s["t"]
        if "call" in s:
            return self.call(ts, s)
        if "environment" in s:
            self.env["container"].update(s["environment"].get("container", {}))
            self.g = Geo(self.env, self.drawer)
            self.y = self.g.pos(self.target)  # D13
            return
        if "touch" not in s or s.get("id", 0) != 0:
            return
        ph = s["touch"]
        if ph == "began":
            ignored = not self.presented or self.terminal or self.uikit_busy
            self.touch = {"down": (s["x"], s["y"]), "t0": ts, "maxd": 0.0, "pan": False, "prev": None,
                          "where": None if ignored else self.hit(s["x"], s["y"]), "ignored": ignored}
            if not ignored and self.touch["where"] == "drawer":
                self.touch["control"] = self.on_control(s["x"], s["y"])
            self.log.append(f"{ts:.6f} touch down at {s['y']} -> {self.touch['where']}")
            return
        tc = self.touch
        if tc is None:
            return
        if tc["ignored"] or self.terminal and ph in ("moved", "ended", "cancelled") and tc["pan"]:
            if ph in ("ended", "cancelled"):
                self.touch = None
            return
        x0, y0 = tc["down"]
        if ph == "moved":
            d = math.hypot(s["x"] - x0, s["y"] - y0)
            tc["maxd"] = max(tc["maxd"], d)
            if tc["where"] != "drawer" or not self.g.conf["isDrawerDraggable"]:
                return
            if not tc["pan"]:
                if d >= 10:
                    tc["pan"] = True
                    tc["start"] = self.target
                    self.apply(s["y"] - y0)
                    tc["prev"] = s["y"]
                    self.log.append(f"{ts:.6f} pan began, drawer at {self.y}")
            else:
                self.apply(s["y"] - tc["prev"])
                tc["prev"] = s["y"]
            return
        if ph == "ended":
            self.touch = None
            if tc["pan"]:
                vy = s["velocity"]["y"] if "velocity" in s else self.velocity_override
                nxt, row, speed, y = self.g.decide(self.cur(), vy)
                self.next.append(nxt)
                self.releases.append((self.y, self.cur()))
                self.log.append(f"{ts:.6f} release at {self.y} state {label(self.cur())} v {vy} speedY {speed} row {row} -> {nxt}")
                self.transition(ts, nxt, why=f"release row {row}")
                return
            if tc["maxd"] >= 10 or ts - tc["t0"] > 0.5:
                self.log.append(f"{ts:.6f} touch ended, not a tap")
                return
            x, y = s["x"], s["y"]
            if tc["where"] == "drawer" and self.drawer_tap_installed() and not tc.get("control"):
                if not self.drawer_tap_on:
                    self.taps["drawer"][0] = 0
                    self.log.append(f"{ts:.6f} drawer tap recognizer disabled")
                elif self.tap_recognized("drawer", tc["t0"], ts, x0, y0, self.g.conf["numberOfTapsForFullDrawerPresentation"]):
                    self.drawer_tap(ts, x, y)
            elif tc["where"] == "container" and self.outside_tap_installed():
                if not self.outside_tap_on:
                    self.taps["outside"][0] = 0
                elif self.tap_recognized("outside", tc["t0"], ts, x0, y0, self.g.conf["numberOfTapsForOutsideDrawerDismissal"]):
                    self.outside_tap(ts, x, y)
            return
        if ph == "cancelled":
            self.touch = None
            if tc["pan"]:
                self.transition(ts, tc["start"], why="cancelled drag")

    def apply(self, dy):
        """§3.3 step 3: stepwise clamp, target := currentDrawerState, radius := cornerRadius(at:)."""
        g = self.g
        self.y = g.clamp(g.clamp(self.y) + dy)
        self.set_target(self.cur())
        self.radius = g.corner(self.cur())

    def call(self, ts, s):
        name = s["call"]
        if name == "present":
            if not self.presented:
                self.uikit_present(ts)
            return
        if not self.presented:
            return
        if name == "dismiss":
            if not self.terminal:
                self.terminal = True
                self.deferred.append(("dismiss", ts))
            return
        if self.terminal:
            self.log.append(f"{ts:.6f} {name} ignored (terminal, D3)")
            return
        if name == "setDrawerState":
            assert s["state"] in (FULL, PARTIAL, COLLAPSED, DISMISSED)
            self.transition(ts, s["state"], completion=s.get("completion", False), why="setDrawerState")
            return
        if self.uikit_busy:
            return
        x = s.get("x", self.env["container"]["width"] / 2)
        y = s["y"]
        where = self.hit(x, y)
        if name == "tapDrawer":
            if where == "drawer" and self.drawer_tap_installed() and self.drawer_tap_on and not self.on_control(x, y):
                self.drawer_tap(ts, x, y)
        elif name == "tapOutside":
            if where == "container" and self.outside_tap_installed() and self.outside_tap_on:
                self.outside_tap(ts, x, y)
            else:
                self.log.append(f"{ts:.6f} tapOutside ignored ({where}, enabled {self.outside_tap_on})")

    def run(self, samples):
        end_frame = None
        groups = []
        for s in samples:
            if s.get("end"):
                end_frame = frame_of(s["t"], self.rate)
                break
            k = frame_of(s["t"], self.rate)
            if groups and groups[-1][0] == k:
                groups[-1][1].append(s)
            else:
                groups.append((k, [s]))
        for k, group in groups:
            self.complete_before(k)
            self.deferred = []
            for s in group:
                self.sample(s)
                for what, at in self.deferred:  # D4: UIKit starts after the sample
                    if what == "dismiss":
                        self.uikit_dismiss(at)
                self.deferred = []
        self.complete_before(10 ** 9 if end_frame is None else end_frame + 1)
        assert not self.pending, "animations still running at end"
        assert self.touch is None
        g = self.g
        if self.presented:
            assert self.y == g.pos(self.target), (self.y, self.target)  # K1
        return self

    def complete_before(self, k):
        while True:
            due = sorted(p for p in self.pending if p[0] < k)
            if not due:
                return
            frame = due[0][0]
            now = [p for p in due if p[0] == frame]
            self.pending = [p for p in self.pending if p[0] != frame]
            uikit = []
            for _, _, _, fn in now:  # completions at one frame in start order
                r = fn(frame)
                if r:
                    uikit.append(r)
            for what, at in uikit:  # UIKit transitions requested by completions start after them
                self.uikit_dismiss(at)

    # -- expectation text
    def expect(self, keys=None, finish=False, appearance=True):
        g = self.g
        state = self.target if self.presented else DISMISSED
        parts = [f"state={state}", f"location={num(self.y if self.presented else g.H)}",
                 f"presented={'true' if self.presented else 'false'}"]
        if appearance and self.presented:
            parts.append(approx("cornerRadius", self.radius))
            if g.handle:
                parts.append(approx("handleAlpha", self.alpha))
        if self.next:
            parts.append("nextState=" + ",".join(self.next))
        if self.trans:
            parts.append("transitions=" + ",".join(self.trans))
        if keys and "taps" in keys:
            parts += [f"interior={self.interior}", f"exterior={self.exterior}"]
        if keys and "completions" in keys:
            parts.append(f"completions={self.completions}")
        if finish and self.finishes:
            parts.append("finishAt=" + fmt_time(max(self.finishes)))
        parts.append(f"events={len(self.trans)}")
        return " ".join(parts)


def approx(key, v):
    if float(v).is_integer():
        return f"{key}={int(v)}"
    if v * 64 == math.floor(v * 64):
        return f"{key}={v!r}"
    return f"{key}~={'%.6f' % v}"


# ------------------------------------------------------------------------------------------------
# Trace building

class Trace:
    def __init__(self, family, name, device, drawer, touches=True):
        self.family, self.name, self.device = family, name, device
        self.env = DEVICES[device]
        self.rate = self.env["frameRate"]
        self.drawer = drawer
        self.touches = touches
        self.samples = []

    def at(self, frame):
        return t(frame / self.rate)

    def add(self, frame, **kw):
        smp = {"t": self.at(frame)}
        smp.update(kw)
        self.samples.append(smp)

    def drag(self, f0, x, y0, waypoints, v, step=5, ended_y=None, cancel=False):
        """Touch-down at (x, y0) at frame f0, then one `moved` per frame along the waypoints (at most
        `step` pt per frame; every y a multiple of 0.25 so that stepwise sums are exact), then
        `ended` (velocity {0, v}) or `cancelled` one frame after the last move. Returns the frame of
        the ended sample."""
        self.add(f0, touch="began", x=x, y=num(y0))
        ys, cur = [], y0
        for w in waypoints:
            n = math.ceil(abs(w - cur) / step)
            for i in range(1, n + 1):
                ys.append(w if i == n else cur + math.copysign(step, w - cur) * i)
            cur = w
        f, prev = f0, y0
        for y in ys:
            assert float(y * 4).is_integer(), y
            f += 1
            self.add(f, touch="moved", x=x, y=num(y), velocity={"x": 0, "y": num((y - prev) * self.rate)})
            prev = y
        f += 1
        if cancel:
            self.add(f, touch="cancelled", x=x, y=num(prev))
        else:
            self.add(f, touch="ended", x=x, y=num(prev if ended_y is None else ended_y), velocity={"x": 0, "y": v})
        return f

    def tap(self, f0, x, y, frames=6):
        self.add(f0, touch="began", x=x, y=num(y))
        self.add(f0 + frames, touch="ended", x=x, y=num(y))
        return f0 + frames

    def call(self, frame, name, **kw):
        self.add(frame, call=name, **kw)

    def end(self, frame):
        self.add(frame, end=True)

    def sorted_samples(self):
        self.samples.sort(key=lambda smp: smp["t"])  # stable: equal times keep the order they were added in

    def model(self, velocity_override=None):
        self.sorted_samples()
        return Model(self.env, self.drawer, velocity_override).run(self.samples)

    def header(self, description, source=None):
        h = {"format": "panelsim-trace", "version": 1, "model": "drawerkit", "name": self.name,
             "description": description,
             "source": source or {"kind": "synthetic", "origin": ORIGIN, "device": self.device.split("@")[0]},
             "environment": self.env, "drawer": self.drawer}
        if self.touches:
            h["recognizer"] = {"velocity": "recorded", "beginThreshold": 10}
        return h

    def write(self, text, keys=(), finish=False, appearance=True, clause=None, source=None, velocity_override=None):
        m = self.model(velocity_override)
        clause = clause if clause is not None else m.expect(keys, finish, appearance)
        desc = f"{self.family_tag()} {text} expect: {clause}"
        path = os.path.join(OUT, self.family, self.name + ".jsonl")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        head = self.header(desc, source)
        if velocity_override is not None:
            head["recognizer"] = {"velocity": "lsq2"}
        with open(path, "w") as f:
            f.write(json.dumps(head, separators=(", ", ": "), ensure_ascii=False) + "\n")
            for s in self.samples:
                f.write(json.dumps(s, separators=(", ", ": ")) + "\n")
        WRITTEN.setdefault(self.family, []).append(self.name)
        return m

    def family_tag(self):
        return FAMILY_TAGS.get(self.family, "") + f" {self.device}:"


WRITTEN = {}
FAMILY_TAGS = {"flick": "S1 flick threshold.", "marks": "S2 mark gaps.", "stages": "S3 partial expansion and stages.",
               "taps": "S4 taps.", "programmatic": "S5 programmatic.", "b26": "S6 B26 (release on the target).",
               "durations": "S7 durations.", "limits": "S8 drag limits.", "appearance": "Appearance (§3.7, Q3/Q5).",
               "real": "Real recording as a DrawerKit drag.", "pull": "Pull-to-dismiss (§3.14)."}


def drawer(partial=300, collapsed=None, presented=None, **conf):
    d = {"heightOfPartiallyExpandedDrawer": partial}
    if collapsed is not None:
        d["heightOfCollapsedDrawer"] = collapsed
    if presented is not None:
        d["presented"] = presented
    if conf:
        d["configuration"] = conf
    return d


def fr(seconds, rate=120):
    return int(round(seconds * rate))


# ------------------------------------------------------------------------------------------------
# S1 flick threshold: 3 screen heights per second (2532 pt/s on D1, 2001 pt/s on D2), strict

def s1_flick():
    F = "flick"
    tr = Trace(F, "d1-partial-up", "D1", drawer())
    f = 0
    for v in (-2531, -2532, -2533):
        f = tr.drag(f + 12, 195, 700, [670], v) + 60
    tr.end(f + 180)
    tr.write("D1 at partial (544), three 30 pt drags up to 514 (inside the band [504, 584)) released at -2531, -2532 "
             "and -2533 pt/s: |speedY| 2999.../844 < 3, 2532/844 == 3.0 exactly (not > 3, not quick: row 6 -> partial), "
             "2533/844 > 3 (row 1 -> full).", finish=True)

    tr = Trace(F, "d1-partial-down", "D1", drawer())
    f = 0
    for v in (2532, 2533):
        f = tr.drag(f + 12, 195, 700, [620, 640], v) + 60
    tr.end(f + 180)
    tr.write("D1 at partial, drags up 80 then down 20 (drawer at 484, above the upper mark 504) released downward: "
             "+2532 pt/s is not quick (row 4 -> partial with stages), +2533 is (row 2 -> final = dismissed; UIKit "
             "dismissal 2 x 0.4 s).", finish=True)

    tr = Trace(F, "d1-full-down", "D1", drawer(initialState=FULL))
    f = tr.drag(12, 195, 300, [400], 2532) + 60
    f = tr.tap(f, 195, 700) + 60
    f = tr.drag(f, 195, 300, [400], 2533) + 60
    tr.end(f + 180)
    tr.write("D1 initialState fullyExpanded (0): drag down 100 (drawer 100, above the upper mark) released at +2532 "
             "(row 4 -> partial); a drawer tap at y 700 (local 156 < 300) goes back to full; the same drag at +2533 "
             "(row 2 -> dismissed).", keys=("taps",), finish=True)

    tr = Trace(F, "d1-full-up", "D1", drawer(initialState=FULL))
    f = 0
    for v in (-2533, -2532):
        f = tr.drag(f + 12, 195, 100, [650], v, step=10) + 60
    tr.end(f + 180)
    tr.write("D1 at full: drag down 550 (drawer 550, in the band) released upward: -2533 is quick (row 1 -> full), "
             "then -2532 is not (row 6 -> partial). Both transitions start from transitioning, so no Q3 zeroing.",
             finish=True)

    tr = Trace(F, "d1-collapsed-up", "D1", drawer(collapsed=100, initialState=COLLAPSED))
    f = 0
    for v in (-2532, -2533):
        f = tr.drag(f + 12, 195, 780, [736], v) + 60
    tr.end(f + 180)
    tr.write("D1 C1 (collapsed height 100: collapsedY 744) at collapsed: drag up 44 (drawer 700, below the lower "
             "mark 584) released at -2532 (not quick, row 7 -> final = collapsed with stages), then at -2533 "
             "(row 1 -> full).", finish=True)

    tr = Trace(F, "d1-collapsed-down", "D1", drawer(collapsed=100, initialState=COLLAPSED))
    f = 0
    for v in (2533, 2532):
        f = tr.drag(f + 12, 195, 780, [480], v, step=10) + 60
    tr.end(f + 180)
    tr.write("D1 C1 at collapsed: drag up 300 (drawer 444, above the upper mark) released downward: +2533 is quick "
             "(row 2 -> final = collapsed), then +2532 is not (row 4 -> partial). Collapsed radius 15 x 1/3.",
             finish=True)

    tr = Trace(F, "d2-partial-up", "D2", drawer())
    f = 0
    for v in (-2000, -2001, -2002):
        f = tr.drag(f + 12, 187, 500, [470], v) + 60
    tr.end(f + 180)
    tr.write("D2 (H 667, partialY 367, marks 327/407): drags up 30 to 337 (in the band) at -2000, -2001 "
             "(2001/667 == 3.0 exactly, not quick: row 6 -> partial) and -2002 (row 1 -> full).", finish=True)

    tr = Trace(F, "d2-full-down", "D2", drawer(initialState=FULL))
    f = tr.drag(12, 187, 200, [300], 2001) + 60
    f = tr.tap(f, 187, 500) + 60
    f = tr.drag(f, 187, 200, [300], 2002) + 60
    tr.end(f + 180)
    tr.write("D2 at full: drag down 100 (drawer 100) at +2001 (row 4 -> partial), a drawer tap back to full, "
             "then +2002 (row 2 -> dismissed).", keys=("taps",), finish=True)

    tr = Trace(F, "d1-threshold-zero", "D1", drawer(flickSpeedThreshold=0))
    f = tr.drag(12, 195, 650, [706], -10000) + 60
    tr.end(f + 180)
    tr.write("flickSpeedThreshold 0 disables flicks: drag down 56 (drawer 600, at or below the lower mark 584) "
             "released at -10000 pt/s upward: not quick, row 7 -> dismissed.")


# ------------------------------------------------------------------------------------------------
# S2 mark gaps: slow releases on and next to the marks (y = pos(currentDrawerState))

def s2_marks():
    F = "marks"
    tr = Trace(F, "d1-upper-mark", "D1", drawer())
    f = tr.drag(12, 195, 600, [560], 0) + 60
    f = tr.drag(f, 195, 600, [559.5], 0) + 60
    tr.end(f + 180)
    tr.write("D1 at partial, velocity 0: released at 504 (not < upper mark 504: row 6 -> partial), then at 503.5 "
             "(503.5 is not within 0.5 of partialY 544, so y = 503.5 < 504: row 3 -> full).", finish=True)

    tr = Trace(F, "d1-lower-mark", "D1", drawer())
    f = tr.drag(12, 195, 600, [639.5], 0) + 60
    f = tr.drag(f, 195, 600, [640], 0) + 60
    tr.end(f + 180)
    tr.write("D1 at partial, velocity 0: released at 583.5 (< lower mark 584: row 6 -> partial), then at 584 "
             "(not < 584: row 7 -> final = dismissed).", finish=True)

    tr = Trace(F, "d1-band-one-point", "D1", drawer())
    f = tr.drag(12, 195, 600, [559.5], 1) + 60
    f = tr.drag(f, 195, 600, [616], -1) + 60
    f = tr.drag(f, 195, 600, [616], 1) + 60
    tr.end(f + 180)
    tr.write("D1 at partial: 503.5 at +1 pt/s (above the upper mark, down: row 4 -> partial); 560 at -1 pt/s "
             "(band, up: row 6 -> partial); 560 at +1 pt/s (band, down: row 5 -> dismissed).", finish=True)

    tr = Trace(F, "d1-within-half-point-of-partial", "D1", drawer())
    f = tr.drag(12, 195, 600, [580, 599.5], -1) + 60
    f = tr.drag(f, 195, 600, [620, 600.5], 1) + 60
    tr.end(f + 180)
    tr.write("D1 at partial: a drag away and back released at 543.5 and 544.5, both within 0.5 of partialY, so "
             "currentDrawerState is partiallyExpanded and y = 544 exactly: -1 pt/s -> row 6 (partial, a "
             "partial>partial transition), +1 pt/s -> row 5 (544 < 584, down -> dismissed).", finish=True)

    tr = Trace(F, "d2-marks", "D2", drawer())
    f = tr.drag(12, 187, 450, [410], 0) + 60
    f = tr.drag(f, 187, 450, [489.5], 0) + 60
    f = tr.drag(f, 187, 450, [490], 0) + 60
    tr.end(f + 180)
    tr.write("D2 (partialY 367, marks 327/407), velocity 0: 327 (row 6 -> partial), 406.5 (row 6 -> partial), "
             "407 (row 7 -> dismissed).", finish=True)


# ------------------------------------------------------------------------------------------------
# S3 partial expansion and stages

def s3_stages():
    F = "stages"
    tr = Trace(F, "d1-no-partial-expansion", "D1", drawer(supportsPartialExpansion=False))
    f = tr.drag(12, 195, 100, [660], 0, step=10) + 60
    f = tr.drag(f, 195, 100, [400], 100, step=10) + 60
    tr.end(f + 180)
    tr.write("supportsPartialExpansion false (initialState null -> fullyExpanded). From full: released at 560 with "
             "velocity 0 (band, row 6 -> full, not partial); then at 300 with +100 pt/s (above the upper mark, down: "
             "row 4 -> final = dismissed because partial expansion is off).", finish=True)

    tr = Trace(F, "d1-no-stages", "D1", drawer(dismissesInStages=False, initialState=FULL))
    f = tr.drag(12, 195, 100, [400], 100, step=10) + 60
    tr.end(f + 180)
    tr.write("dismissesInStages false, at full: released at 300 with +100 pt/s (row 4 -> final = dismissed; with "
             "stages it would be partial).", finish=True)

    tr = Trace(F, "d1-collapsed-is-final", "D1", drawer(collapsed=100))
    f = tr.drag(12, 195, 550, [860], 100, step=10) + 60
    f = tr.drag(f, 195, 780, [636], 0, step=8) + 60
    tr.end(f + 180)
    tr.write("C1 (collapsed 100, stages on: final = collapsed). From partial the finger drags 310 pt down (ending "
             "16 pt below the container): the drawer stops at H = 844 (stepwise clamp), currentDrawerState dismissed; released at +100 -> row 7 -> "
             "collapsed (no drag can dismiss); the transition starts at dismissed so its completion zeroes the radius "
             "(Q3). Then from collapsed to 600 with velocity 0 (row 7 -> collapsed again, from transitioning: radius "
             "15 x 1/3).", finish=True)

    tr = Trace(F, "d1-collapsed-no-stages", "D1", drawer(collapsed=100, dismissesInStages=False, initialState=COLLAPSED))
    f = tr.drag(12, 195, 780, [736], 0) + 60
    tr.end(f + 180)
    tr.write("C1 without stages (final = dismissed), initialState collapsed: released at 700 with velocity 0 "
             "(row 7 -> dismissed).", finish=True)

    tr = Trace(F, "d1-q17-no-partial-collapsed", "D1", drawer(collapsed=100, supportsPartialExpansion=False))
    f = tr.drag(12, 195, 100, [750], 0, step=10) + 60
    f = tr.drag(f, 195, 780, [336], 100, step=10) + 60
    tr.end(f + 180)
    tr.write("Q17: partial expansion off, collapsed height 100, dismissesInStages default true: final = collapsed. "
             "From full (initialState null -> fullyExpanded) released at 650 with velocity 0 (row 7 -> collapsed); "
             "then from collapsed at 300 with +100 pt/s (row 4 without partial expansion -> final = collapsed). "
             "triangular without partial expansion: 1 - 744/844.", finish=True)


# ------------------------------------------------------------------------------------------------
# S4 taps

def s4_taps():
    F = "taps"
    tr = Trace(F, "d1-drawer-tap", "D1", drawer())
    tr.tap(12, 195, 700)
    tr.tap(96, 195, 600)
    tr.end(300)
    tr.write("D1 at partial: a tap at y 700 (local y 156 < partialH 300) posts drawerInteriorTapped and expands to "
             "full; a second tap at full is ignored (the drawer tap recognizer is enabled only at partial/collapsed).",
             keys=("taps",), finish=True)

    tr = Trace(F, "d1-two-tap-timing", "D1", drawer(numberOfTapsForFullDrawerPresentation=2))
    tr.tap(fr(0.10), 195, 700)
    tr.tap(fr(1.00), 195, 700)
    tr.tap(fr(1.45), 195, 700)
    tr.tap(fr(1.70), 250, 700)
    tr.tap(fr(1.90), 250, 710)
    tr.write("numberOfTapsForFullDrawerPresentation 2 (D7). Tap A at 0.10 lapses after 0.35 s; tap B at 1.00; tap C "
             "begins 0.40 s after B ended (> 0.35: count restarts); tap D begins 0.20 s after C but 55 pt from C's "
             "touch-down (> 45: restarts); tap E 0.15 s after D and 10 pt from it completes the double tap at its "
             "ended sample (1.95) -> full. No end sample: the replay stops by D14.", keys=("taps",), finish=True)

    tr = Trace(F, "d1-q4-tap-at-full", "D1", drawer(initialState=FULL))
    tr.tap(12, 195, 400)
    tr.tap(60, 195, 250)
    tr.tap(144, 195, 250)
    tr.end(330)
    tr.write("Q4: initialState fullyExpanded, presented: both tap recognizers are enabled after the presentation. A "
             "tap at local y 400 >= partialH 300 does nothing; a tap at local y 250 posts drawerInteriorTapped and runs "
             "a zero-distance full>full transition (full 0.4 s), which disables the drawer tap: a third tap is "
             "ignored. Handle alpha 1 (Q5) becomes 0 at that transition.", keys=("taps",), finish=True)

    tr = Trace(F, "d1-outside-default-passthrough", "D1", drawer())
    tr.tap(12, 195, 300)
    tr.call(60, "tapOutside", y=300)
    tr.end(240)
    tr.write("Default passthroughTouchesInStates [collapsed, partiallyExpanded]: at partial an outside touch tap at "
             "y 300 and a tapOutside call at y 300 both pass through to the presenting view (Q6): nothing happens.",
             keys=("taps",))

    tr = Trace(F, "d1-outside-no-passthrough", "D1", drawer(passthroughTouchesInStates=[]))
    tr.tap(12, 195, 300)
    tr.tap(36, 195, 300)
    tr.end(300)
    tr.write("passthroughTouchesInStates []: an outside tap at y 300 (< 544) at partial posts drawerExteriorTapped "
             "and dismisses (partial>dismissed, then UIKit dismissed>dismissed); a second tap 0.2 s later is ignored "
             "(D3 terminal).", keys=("taps",), finish=True)

    tr = Trace(F, "d1-outside-full-custom-gap", "D1", drawer(initialState=FULL, fullExpansionBehaviour={"leavesCustomGap": 100}))
    tr.tap(12, 195, 50)
    tr.end(300)
    tr.write("leavesCustomGap(100): fullyExpanded at y 100. An outside tap at y 50 reaches the container (full is "
             "not in the default passthrough list) and the outside recognizer is enabled at full (#91): exterior "
             "tap, full>dismissed, UIKit dismissal.", keys=("taps",), finish=True)

    tr = Trace(F, "d1-outside-during-drag", "D1", drawer(passthroughTouchesInStates=[]))
    f = tr.drag(12, 195, 700, [600], 100, step=2)
    tr.call(42, "tapOutside", y=100)
    f += 72
    tr.call(f, "tapOutside", y=100)
    tr.end(f + 200)
    tr.write("passthroughTouchesInStates []. A tapOutside call at y 100 during a 100 pt upward drag (drawer at 484, "
             "target transitioning): the point reaches the container but the outside recognizer is disabled, "
             "ignored. The drag is released at 444 with +100 pt/s (row 4 -> partial); the same call at partial then "
             "dismisses.", keys=("taps",), finish=True)

    tr = Trace(F, "d1-control-and-long-press", "D1",
               dict(drawer(), content={"controls": [{"x": 20, "y": 20, "width": 100, "height": 44}]}))
    tr.tap(12, 70, 586)
    tr.tap(60, 195, 700, frames=72)
    tr.tap(180, 195, 700)
    tr.end(400)
    tr.write("A UIControl at drawer-local (20, 20, 100x44): a tap on it (container (70, 586), local y 42) is not "
             "received; a 0.6 s press at y 700 is not a tap (D7: > 0.5 s); a normal tap at y 700 expands to full.",
             keys=("taps",), finish=True)

    tr = Trace(F, "d2-tap-calls-status-bar", "D2",
               drawer(fullExpansionBehaviour="doesNotCoverStatusBar", numberOfTapsForOutsideDrawerDismissal=2), touches=False)
    tr.call(12, "tapDrawer", y=500)
    tr.call(72, "tapOutside", y=10)
    tr.end(300)
    tr.write("D2, doesNotCoverStatusBar (fullY = statusBarHeight 20), two outside taps required. tapDrawer at y 500 "
             "(local 133) -> full at 20; tapOutside at y 10 (< 20; the call bypasses the tap count of D7) -> "
             "exterior tap, dismissal.", keys=("taps",), finish=True)


# ------------------------------------------------------------------------------------------------
# S5 programmatic

def s5_programmatic():
    F = "programmatic"
    tr = Trace(F, "d1-set-state", "D1", drawer(collapsed=100), touches=False)
    tr.call(12, "setDrawerState", state=FULL, animated=False)
    tr.call(120, "setDrawerState", state=COLLAPSED, completion=True)
    tr.end(330)
    tr.write("C1 at partial: setDrawerState(fullyExpanded, animated: false) at 0.1 still animates (Q2, 0.4 s, no "
             "completion closure); setDrawerState(collapsed, completion) at 1.0: one completion after its "
             "transitionDidFinish; the radius ends 0 at collapsed because the transition started at full (Q3).",
             keys=("completions",), finish=True)

    tr = Trace(F, "d1-set-dismissed", "D1", drawer(), touches=False)
    tr.call(12, "setDrawerState", state=DISMISSED, completion=True)
    tr.call(36, "setDrawerState", state=FULL)
    tr.end(300)
    tr.write("setDrawerState(dismissed, completion) at 0.1: the drawer slides to H (0.1-0.5), the completion "
             "requests the UIKit dismissal (0.5-0.9) and the app's completion runs; setDrawerState(full) at 0.3 is "
             "ignored (D3 terminal).", keys=("completions",), finish=True)

    tr = Trace(F, "d1-blend", "D1", drawer(collapsed=100), touches=False)
    tr.call(12, "setDrawerState", state=FULL)
    tr.call(24, "setDrawerState", state=COLLAPSED, completion=True)
    tr.end(300)
    tr.write("C1 at partial: setDrawerState(full) at 0.1, then setDrawerState(collapsed) at 0.2 while the first "
             "runs: the second starts from the model y (full, §3.12) and blends; completions in start order at 0.5 "
             "and 0.6; the last one zeroes the radius (started at full, Q3) and leaves the handle at 1/3.",
             keys=("completions",), finish=True)

    tr = Trace(F, "d1-b25-a", "D1", drawer(collapsed=100, initialState=COLLAPSED, totalDurationInSeconds=0.3), touches=False)
    tr.call(0, "setDrawerState", state=PARTIAL)
    tr.call(48, "setDrawerState", state=DISMISSED)
    tr.call(60, "setDrawerState", state=PARTIAL)
    tr.write("B25-A (§3.12): C1, initialState collapsed, D = 0.3: setDrawerState(partial) at 0 (744 -> 544, done "
             "0.3), setDrawerState(dismissed) at 0.4 (done 0.7, UIKit dismissal 0.7-1.0), setDrawerState(partial) at "
             "0.5 ignored under dismissalIsTerminal. No end sample (D14).", finish=True)

    tr = Trace(F, "d1-b25-b", "D1", drawer(collapsed=100, presented=False, initialState=COLLAPSED))
    tr.call(0, "present")
    tr.call(6, "setDrawerState", state=PARTIAL)
    f = tr.drag(120, 195, 600, [630], 50) + 60
    tr.call(f, "dismiss")
    tr.end(f + 180)
    tr.write("B25-B: presented false, initialState collapsed; present at 0 (dismissed>collapsed, 0.4 s, D5 corner "
             "animator); setDrawerState(partial) at 0.05 starts from collapsed (the model y is already 744) and blends; "
             "presentationTransitionDidEnd at 0.4. The drawer stays draggable and dismissible: at 1.0 a drag to 574 "
             "(band) released at +50 pt/s goes to final (row 5), which is collapsed here (Q15); a dismiss call then "
             "dismisses it (UIKit collapsed>dismissed).", finish=True)

    tr = Trace(F, "d1-present-dismiss-present", "D1", drawer(presented=False), touches=False)
    tr.call(12, "present")
    tr.call(120, "dismiss")
    tr.call(240, "present")
    tr.end(420)
    tr.write("presented false: present at 0.1 (UIKit presentation dismissed>partial, 0.4 s), dismiss at 1.0 "
             "(partial>dismissed), present at 2.0: a new presentation controller at the initial state, a new handle "
             "view (alpha 1), radius 15 from the corner animator.", finish=True)

    tr = Trace(F, "d1-environment-change", "D1", drawer())
    tr.add(12, environment={"container": {"width": 375, "height": 667}})
    f = tr.drag(60, 187, 450, [420], -2002) + 60
    tr.end(f + 180)
    tr.write("D13: the container changes to 375x667 at 0.1; the drawer is set to pos(partial) for H 667 = 367 "
             "without events. A drag up 30 to 337 released at -2002 pt/s: speedY = -2002/667 < -3, quick (row 1 -> "
             "full); with the old H 844 it would not be.", finish=True)


# ------------------------------------------------------------------------------------------------
# S6 B26: a release exactly on (or within 0.5 pt of) the target runs the whole transition once

def s6_b26():
    F = "b26"
    tr = Trace(F, "d1-release-on-full", "D1", drawer())
    f = tr.drag(12, 195, 700, [156], 0, step=8)
    tr.end(f + 180)
    tr.write("§3.13: from partial the drawer is dragged exactly to y 0 and released with velocity 0: "
             "currentDrawerState fullyExpanded (rule 1), row 3 -> full; a zero-distance full>full transition runs "
             "once with the full 0.4 s; the handle alpha goes to 0 at the release (Q12), the radius is 0.",
             finish=True)

    tr = Trace(F, "d1-within-half-point-of-full", "D1", drawer())
    f = tr.drag(12, 195, 700, [156.5], 0, step=8) + 60
    f = tr.drag(f, 195, 300, [320, 300.75], 0) + 60
    tr.end(f + 180)
    tr.write("Released at y 0.5 (within 0.5 of fullY: fullyExpanded, a full>full transition), then from full a drag "
             "away and back released at 0.75 (transitioning(0.75), row 3 -> full).", finish=True)

    tr = Trace(F, "d1-release-on-partial", "D1", drawer(), touches=True)
    f = tr.drag(12, 195, 600, [580, 600.5], 0) + 60
    tr.call(f, "setDrawerState", state=PARTIAL)
    tr.end(f + 240)
    tr.write("Released at 544.5 (within 0.5 of partialY) with velocity 0: row 6 -> partial>partial; then "
             "setDrawerState(partiallyExpanded) runs another zero-distance transition (§3.11).", finish=True)

    tr = Trace(F, "d1-release-on-dismissed", "D1", drawer())
    f = tr.drag(12, 195, 550, [860], -100, step=10)
    tr.end(f + 240)
    tr.write("The finger drags 310 pt down from partial (ending 16 pt below the container): the drawer is clamped at H = 844 (currentDrawerState "
             "dismissed, rule 2). Released slowly upward (-100 pt/s): y = 844 >= lower mark, row 7 -> dismissed: a "
             "zero-distance dismissed>dismissed transition (0.4 s), then the UIKit dismissal (0.4 s).", finish=True)

    tr = Trace(F, "d1-proportional-zero-distance", "D1", drawer(durationIsProportionalToDistanceTraveled=True))
    f = tr.drag(12, 195, 700, [156], 0, step=8)
    tr.end(f + 180)
    tr.write("As d1-release-on-full with proportional durations: the full>full transition has D = 0 and completes "
             "at the next frame (D9).", finish=True)

    tr = Trace(F, "d2-60hz-release-on-full", "D2@60", drawer())
    f = tr.drag(6, 187, 450, [83], 0, step=8)
    tr.end(f + 90)
    tr.write("D2 at 60 Hz: from partial (367) dragged exactly to 0, velocity 0: full>full, completing 24 frames "
             "(0.4 s) after the release.", finish=True)


# ------------------------------------------------------------------------------------------------
# S7 durations (and K5)

def s7_durations():
    F = "durations"

    def from_partial(tr, v):
        # away and back to exactly partialY, then a quick release: startingState partiallyExpanded (y0 = partialY)
        return tr.drag(12, 195, 700, [680, 700], v)

    tr = Trace(F, "d1-partial-to-full-fixed", "D1", drawer())
    f = from_partial(tr, -3000)
    tr.end(f + 180)
    tr.write("A drag that returns to exactly 544 released at -3000 pt/s (row 1): partial>full with the fixed "
             "duration 0.4 s; transitionDidFinish at release + 0.4.", finish=True)

    tr = Trace(F, "d1-partial-to-full-proportional", "D1", drawer(durationIsProportionalToDistanceTraveled=True))
    f = from_partial(tr, -3000)
    tr.end(f + 180)
    tr.write("The same with proportional durations: D = 0.4 x 544/844 = 0.257820 s, so the completion comes 31 "
             "frames (0.258333 s) after the release.", finish=True)

    tr = Trace(F, "d1-partial-to-full-linear-0.25", "D1", drawer(totalDurationInSeconds=0.25, timingCurveProvider="linear"))
    f = from_partial(tr, -3000)
    tr.end(f + 180)
    tr.write("K5: the same release with totalDurationInSeconds 0.25 and a linear curve: same decision and records, "
             "completion at release + 0.25 (30 frames).", finish=True)

    tr = Trace(F, "d2-60hz-proportional", "D2@60", drawer(durationIsProportionalToDistanceTraveled=True))
    f = tr.drag(6, 187, 450, [430, 450], -3000)
    tr.end(f + 90)
    tr.write("D2 at 60 Hz, proportional: partial (367) -> full, D = 0.4 x 367/667 = 0.220090 s, completion 14 "
             "frames (0.233333 s) after the release.", finish=True)

    tr = Trace(F, "d1-zero-duration", "D1", drawer(totalDurationInSeconds=0), touches=False)
    tr.call(12, "setDrawerState", state=FULL)
    tr.call(60, "setDrawerState", state=DISMISSED)
    tr.end(180)
    tr.write("totalDurationInSeconds 0 (accepted literally, Q1): setDrawerState(full) at 0.1 completes at the next "
             "frame; setDrawerState(dismissed) at 0.5 completes at 0.508333 and the UIKit dismissal (D = 0 too) at "
             "the frame after.", finish=True)

    tr = Trace(F, "d1-proportional-dismissal", "D1", drawer(durationIsProportionalToDistanceTraveled=True))
    f = from_partial(tr, 3000)
    tr.end(f + 180)
    tr.write("Proportional durations, release at exactly 544 with +3000 pt/s (row 2 -> dismissed): D = 0.4 x "
             "300/844 = 0.142180 s (18 frames), then the UIKit dismissal H -> H with D = 0 (next frame).", finish=True)


# ------------------------------------------------------------------------------------------------
# S8 drag limits

def s8_limits():
    F = "limits"
    tr = Trace(F, "d1-overshoot-forgotten", "D1", drawer(initialState=FULL, fullExpansionBehaviour={"leavesCustomGap": 100}))
    f = tr.drag(12, 195, 300, [150, 200], 0) + 60
    f = tr.drag(f, 195, 800, [100, 700], 0, step=10) + 60
    tr.end(f + 180)
    tr.write("Q10 with leavesCustomGap(100) (fullY 100): §3.3's example, finger 300 -> 150 -> 200 from full: the "
             "drawer stays at 100 while the finger rises, then is at 150; released with velocity 0 (row 3 -> full). "
             "Then finger 800 -> 100 -> 700: the drawer stays at 100, then follows down to 700 (not 100 - 700 + 600 "
             "clamped to 100); row 7 -> dismissed.", finish=True)

    tr = Trace(F, "d1-ended-movement-and-cancel", "D1", drawer())
    f = tr.drag(12, 195, 700, [676], 0, ended_y=636) + 60
    f = tr.drag(f, 195, 700, [400], 0, step=10, cancel=True) + 60
    tr.end(f + 180)
    tr.write("Q11: the last moved sample puts the drawer at 520 (band); the ended sample is 40 pt higher (480 would "
             "be above the upper mark) but its movement is dropped: velocity 0 -> row 6 -> partial. Then a drag up "
             "300 (drawer 244) whose touch is cancelled: handleDrawerDrag(cancelled), back to the state the drag "
             "started from (transitioning>partial).", finish=True)

    tr = Trace(F, "d1-not-draggable", "D1", drawer(isDrawerDraggable=False))
    tr.drag(12, 195, 700, [400], -100, step=10)
    tr.tap(120, 195, 700)
    tr.write("isDrawerDraggable false: no pan recognizer; a 300 pt upward drag moves nothing and is not a tap "
             "(moved >= 10 pt); a later tap still expands to full. No end sample (D14).", keys=("taps",), finish=True)

    tr = Trace(F, "d1-drag-during-transition", "D1", drawer())
    tr.call(12, "setDrawerState", state=FULL)
    f = tr.drag(24, 195, 600, [800], 100)
    tr.end(f + 180)
    tr.write("§3.3 step 8: setDrawerState(full) at 0.1 sets the model y to 0; a touch at 0.2 (y 600, inside the "
             "model frame) drags the drawer down 200 from the animation's end value while it still plays; the first "
             "transition completes during the drag; released at 200 with +100 pt/s (row 4 -> partial).", finish=True)


# ------------------------------------------------------------------------------------------------
# Appearance: corner radius and handle (§3.7)

def appearance():
    F = "appearance"
    tr = Trace(F, "d1-q5-initial-full", "D1", drawer(initialState=FULL), touches=False)
    tr.end(60)
    tr.write("Q5 / D12: presented at fullyExpanded: the radius is cornerRadius(at: partiallyExpanded) = 15 and the "
             "handle alpha 1 (not triangular(full) = 0) until the first transition.")

    tr = Trace(F, "d1-corner-option-none", "D1", drawer(cornerAnimationOption="none"))
    tr.tap(12, 195, 700)
    tr.end(240)
    tr.write("cornerAnimationOption none: the radius is always maximumCornerRadius (15), also at full; the handle "
             "still dims to 0.", keys=("taps",), finish=True)

    tr = Trace(F, "d2-below-status-bar", "D2",
               drawer(cornerAnimationOption="alwaysShowBelowStatusBar", fullExpansionBehaviour="doesNotCoverStatusBar"), touches=False)
    tr.call(12, "tapDrawer", y=500)
    tr.end(240)
    tr.write("D2, alwaysShowBelowStatusBar with fullY = statusBarHeight 20: tapDrawer -> full at 20, radius 15 x "
             "min(20, 20)/20 = 15 (the transition started at partial, so no Q3 zeroing).", keys=("taps",), finish=True)

    tr = Trace(F, "d1-no-radius-no-dimming", "D1", drawer(maximumCornerRadius=0, handleViewConfiguration={"autoAnimatesDimming": False}))
    tr.tap(12, 195, 700)
    tr.end(240)
    tr.write("maximumCornerRadius 0 (no corner animation, radius 0) and autoAnimatesDimming false (handle alpha "
             "stays 1): a tap to full.", keys=("taps",), finish=True)


# ------------------------------------------------------------------------------------------------
# Real recordings (traces/real/*.jsonl, top level) as DrawerKit drags on D1, partial 300

REAL_SHIFT = 100


def asserted_velocities():
    out = {}
    with open(os.path.join(SHARED, "expected_velocities.csv"), newline="") as f:
        for r in csv.DictReader(f):
            if r["axis"] != "y" or not r["kind"].startswith("asserted"):
                continue
            name = os.path.basename(r["file"])[:-4]
            out.setdefault(name, {})[r["estimator"]] = float(r["expected"])
    return out


def real():
    F = "real"
    exp = asserted_velocities()
    names = sorted(n[:-6] for n in os.listdir("traces/real") if n.endswith(".jsonl"))
    for name in names:
        with open(os.path.join("traces/real", name + ".jsonl")) as fh:
            lines = [json.loads(l) for l in fh if l.strip()]
        src_head, samples = lines[0], lines[1:]
        assert all("touch" in s for s in samples)
        aosp = name.startswith(("Sailfish", "Swordfish"))
        tr = Trace(F, name, "D1", drawer())
        raw_lines = []
        for line, s in zip([l for l in open(os.path.join("traces/real", name + ".jsonl")) if l.strip()][1:], samples):
            # Only the y value changes; the rest of each line is kept byte for byte.
            shifted = s["y"] + REAL_SHIFT
            new = re.sub(r'("y": )(-?[0-9.eE+-]+)', lambda mo: mo.group(1) + json.dumps(num(shifted)), line.rstrip("\n"), count=1)
            assert json.loads(new) == dict(s, y=shifted)
            raw_lines.append(new)
            tr.samples.append(dict(s, y=shifted))
        assert tr.samples[0]["touch"] == "began" and tr.samples[0]["y"] >= 544
        e = exp[name]
        if aosp:
            est = "android-lsq2" if "android-lsq2" in e else "android-impulse"
            v = e[est] / 3
            vtext = (f"its test asserts {est.split('-')[1]} vy = {e[est]!r} physical px/s (AOSP VelocityTracker_test.cpp, "
                     f"within ±20 %); / 3 (the import's points per pixel) = {v:.4f} pt/s")
            if est == "android-impulse":
                vtext += " (no lsq2 value is asserted for this recording; the replay uses lsq2)"
            prov = ("Android Open Source Project, frameworks/native libs/input/tests/VelocityTracker_test.cpp, "
                    "Copyright (C) 2017 The Android Open Source Project, Apache-2.0")
        else:
            est = [k for k in e if k.startswith("flutter-lsq2")][0]
            v = e[est]
            vtext = f"its test asserts lsq2 vy = {v!r} logical px/s = pt/s (Flutter velocity_tracker_test.dart, rel 0.001)"
            prov = ("Flutter, packages/flutter/test/gestures/velocity_tracker_data.dart, Copyright 2014 The Flutter "
                    "Authors, BSD-3-Clause")
        m = Model(tr.env, tr.drawer, velocity_override=v)
        m.run(tr.samples)
        g = Geo(D1, tr.drawer)
        speed = v / g.H
        y_rel = m.releases[0][0]
        nxt, row, _, _ = g.decide(g.state(y_rel), v)
        near = abs(abs(speed) - g.thr) <= 0.1 * g.thr
        text = (f"traces/real/{name}.jsonl ({prov}; see traces/real/NOTICE.md and ../shared/real-traces/README.md) "
                f"replayed as a DrawerKit drag: the touch samples are unchanged except that every y is shifted by "
                f"+{REAL_SHIFT} pt (touch-down 522 -> 622) so that the touch-down is inside the drawer (top edge at "
                f"partialY 544); the ended sample has no velocity, so the lsq2 estimator decides. Expected release: "
                f"{vtext}; speedY = {speed:.4f} screen heights/s; drawer y at release {y_rel:.4f} (stepwise, ended "
                f"movement dropped).")
        if near:
            alt = {g.decide(g.state(y_rel), math.copysign(g.thr * g.H * f_, v))[0] for f_ in (0.999, 1.001)}
            text += (f" |speedY| is within 10 % of the flick threshold 3, so no decision is asserted (the replay's lsq2 "
                     f"may land on either side; here both sides would give {'/'.join(sorted(alt))}).")
            clause = f"interior=0 exterior=0"
        else:
            text += f" §3.4 row {row} -> {nxt}."
            assert m.next == [nxt]
            clause = m.expect(None, False, appearance=False)
        src = {"kind": "recorded", "origin": f"traces/real/{name}.jsonl via {ORIGIN}", "device": "D1"}
        tr.touches = False
        head = tr.header(f"{FAMILY_TAGS[F]} D1: {text} expect: {clause}", src)
        head["recognizer"] = {"velocity": "lsq2"}
        path = os.path.join(OUT, F, name + ".jsonl")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(json.dumps(head, separators=(", ", ": "), ensure_ascii=False) + "\n")
            for line in raw_lines:
                f.write(line + "\n")
        WRITTEN.setdefault(F, []).append(name)
    with open(os.path.join(OUT, F, "NOTICE.md"), "w") as f:
        f.write("# Third-party data in `traces/drawerkit/real/`\n\n"
                "The traces in this folder are the top-level recordings of `traces/real/` with a DrawerKit header "
                "(written by `scripts/make_drawerkit_corpus.py`). Their touch samples are those of `traces/real/`, "
                f"with every y shifted by +{REAL_SHIFT} pt. The recordings come from the test data of Flutter "
                "(BSD-3-Clause, Copyright 2014 The Flutter Authors) and of the Android Open Source Project "
                "(Apache-2.0, Copyright (C) 2017 The Android Open Source Project); provenance, copyright and license "
                "terms are in [`../../real/NOTICE.md`](../../real/NOTICE.md). The headers and expectations are "
                "PanelSim's own.\n")


# ------------------------------------------------------------------------------------------------
# Pull-to-dismiss (drawerkit.md §3.14, D11, Q7)

def rubber_band(x, d):
    """UIScrollView's rubber band b(x) = (1 - 1/(x*0.55/d + 1))*d (physics.md §2)."""
    return (1 - (1 / ((x * 0.55 / d) + 1))) * d


def pull_outcome(y0_drawer, full_y, H, moves, down, threshold=10.0, d=804.0):
    """The drawer's y after a touch owned by the scroll view (content at its top, offset 0, inset 0,
    long content): the scroll pan begins at the first move >= threshold from touch-down (no offset
    change there); every later move of dy changes the raw offset by -dy; pulled past the top the
    shown offset is -b(dy); DrawerKit moves the drawer by n = -offset when the drawer has left its
    start state, or n > 0, or it is transitioning, and pins the offset to 0 (§3.14)."""
    y, offset, began, prev = y0_drawer, 0.0, False, None
    start_state = "fullyExpanded"
    for m in moves:
        if not began:
            if abs(m - down) >= threshold:
                began, prev = True, m
            continue
        dy = m - prev
        prev = m
        raw = offset - dy
        shown = -rubber_band(-raw, d) if raw < 0 else raw
        n = -shown
        state_now = "fullyExpanded" if (y < full_y or abs(y - full_y) <= 0.5) else "transitioning"
        if state_now != start_state or n > 0 or state_now == "transitioning":
            y = min(max(y + n, full_y), H)
            offset = 0.0
        else:
            offset = shown
    return y, offset


def pull():
    env = DEVICES["D1"]
    H = env["container"]["height"]
    sv = {"frame": {"x": 0, "y": 40, "width": 390, "height": 804}, "contentSize": {"width": 390, "height": 3000}}
    for name, partial, steps, step, v, note in (
            ("d1-pull-to-partial", 300, 40, 5, 1200, "above the upper mark: row 4 -> partial"),
            ("d1-pull-to-dismiss", 700, 68, 10, 1200, "below the lower mark (partial 700: marks 104 and 184): row 7 -> dismissed"),
            ("d1-pull-fast-is-not-a-flick", 300, 40, 5, 5000, "5000 pt/s is 5 pt/ms / 844 = 0.0059 screen heights/s (Q7), not a flick: row 4 -> partial")):
        tr = Trace("pull", name, "D1", {"heightOfPartiallyExpandedDrawer": partial, "configuration": {"initialState": "fullyExpanded"},
                                        "content": {"scrollView": sv}})
        down = 300.0 if step == 5 else 150.0
        ys = [down + step * (i + 1) for i in range(steps)]
        f = tr.drag(10, 195, down, [ys[-1]], v, step=step)
        y, offset = pull_outcome(0.0, 0.0, H, ys, down)
        geo = Geo(env, tr.drawer)
        state = geo.state(y)
        nxt = geo.decide(state, v / 1000)[0]  # Q7: pt/ms divided by H as if pt/s
        tstart = tr.at(f)
        transitions = f"transitioning>{nxt}"
        if nxt == "dismissed":
            transitions += ",dismissed>dismissed"
            clause = f"state=dismissed location={num(H)} presented=false transitions={transitions} events=2 interior=0 exterior=0"
        else:
            loc = geo.pos(nxt)
            finish = done_frame(tstart, 0.4, tr.rate) / tr.rate
            clause = (f"state={nxt} location={num(loc)} presented=true contentOffset=0 transitions={transitions} "
                      f"events=1 finishAt={fmt_time(finish)}")
        note = f"the drawer is at {y:.4f} at the release, " + note
        text = (f"Initial full, list at its top (offset 0, 3000 pt of content). A finger in the list moves down "
                f"{step * steps} pt ({step} pt per frame); the list's pan begins at 10 pt, then each {step} pt pulls the content "
                f"b({step}) = {rubber_band(step, 804):.4f} pt past its top, which DrawerKit turns into drawer movement: {note}; "
                f"no handleDrawerDrag (the drawer pan waited for the list's).")
        tr.end(f + 240)
        tr.write(text, clause=clause)
    # Scrolling at full: the content scrolls, the drawer stays.
    tr = Trace("pull", "d1-scroll-at-full", "D1", {"heightOfPartiallyExpandedDrawer": 300, "configuration": {"initialState": "fullyExpanded"},
                                                   "content": {"scrollView": sv}})
    f = tr.drag(10, 195, 600, [400], 0)
    tr.end(f + 60)
    tr.write("Initial full: a finger in the list moves up 200 pt; the list's pan begins at 10 pt (no offset change there), "
             "then the content scrolls 190 pt with the finger; the drawer stays at full; released at 0 pt/s (no deceleration).",
             clause="state=fullyExpanded location=0 presented=true contentOffset=190 events=0")
    # At partial scrolling is disabled: the drawer pan gets the touch (D11).
    tr = Trace("pull", "d1-list-at-partial-drags-drawer", "D1", {"heightOfPartiallyExpandedDrawer": 300, "content": {"scrollView": sv}})
    f = tr.drag(10, 195, 700, [600], -300)
    tr.end(f + 120)
    tr.write("At partial scrolling is disabled (§3.2, §3.14), so a touch in the list drags the drawer: up 100 pt "
             "(drawer 544 -> 454, above the upper mark 504), released at -300 pt/s: row 3 -> full; the list does not scroll.",
             clause=f"state=fullyExpanded location=0 presented=true contentOffset=0 nextState=fullyExpanded "
                    f"transitions=transitioning>fullyExpanded events=1")


# ------------------------------------------------------------------------------------------------

def main():
    os.chdir(ROOT)
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    s1_flick(); s2_marks(); s3_stages(); s4_taps(); s5_programmatic(); s6_b26(); s7_durations(); s8_limits()
    appearance(); real(); pull()
    total = 0
    for fam in ("flick", "marks", "stages", "taps", "programmatic", "b26", "durations", "limits", "appearance", "real", "pull"):
        n = len(WRITTEN.get(fam, []))
        total += n
        print(f"{OUT}/{fam + '/':14s} {n:3d}  {FAMILY_TAGS[fam]}")
    print(f"{'total':29s} {total:3d}")


if __name__ == "__main__":
    main()
