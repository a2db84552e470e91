#!/usr/bin/env python3
"""Writes the LNPopup trace corpus under traces/lnpopup/ (families S1-S9 of lnpopup.md §6, in the
snap, drag and default interaction styles, with a tab bar and without).

Each trace's description ends with an `expect:` clause computed here from the rules of
../shared/spec/lnpopup.md alone, independently of the Swift simulator. The expectations come from
a small discrete model of the spec in this file (`Popup`): model values only, no animation curves --
geometry (§3.3), the three state variables and `_transitionToState` with its callbacks (§3.4), style
resolution (§3.2), the pan's began / changed / ended rules in every style (§3.5), the snap rubber band
and threshold, the release table of 4.5.6 (§3.5.5), the scroll-view rules (§3.6) with the UIScrollView
rubber band (floatingpanel-core.md O6), the event queue with coalescing and Q11 (§3.8), the 0.15 s
snap timer (L12), taps and the close button (§3.10, L6, L10), bar presentation and dismissal (§3.11),
touches during animations (L7), calls deferred while the popup's own pan is in progress (L13) and the
clock (L1, L4: frame k at k / rate exactly, held as integer ticks of 1 / (rate * 1e6) s; a timer fires
at the first frame whose exact time is at or after it; an animator completes at the first frame with
t_k - t_start >= 0.5 s exactly).

Keys of the clause:
  state        the public state at the last frame
  location     the last frame's location (pt)
  bottomBarTop the last frame's bottom-bar top (only with a bottom bar)
  offset       the last frame's contentOffset (only where the list ends at an edge)
  events       every event in order as name[:argument]@time (didChangeState:<state>,
               willBeginDragging:<public state>/<recognizer>, willEndDragging:<target>/<reason>)
  loc@T        the location of the last frame written at or before T s (only while no animator runs)

Usage: python3 scripts/make_lnpopup_corpus.py   (from anywhere; rewrites traces/lnpopup/)
Plain python3, no packages; the output is byte-identical from run to run. It does not write goldens.
"""
import json, math, os, shutil, struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = "traces/lnpopup"
ORIGIN = "scripts/make_lnpopup_corpus.py"

D1 = {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0},
      "displayScale": 3, "frameRate": 120}
D2 = {"container": {"width": 375, "height": 667}, "safeArea": {"top": 20, "left": 0, "bottom": 0, "right": 0},
      "displayScale": 2, "frameRate": 60}

HIDDEN, BAR, TRANS, OPEN = 0, 1, 2, 3
NAMES = {HIDDEN: "barHidden", BAR: "barPresented", TRANS: "transitioning", OPEN: "open"}
DURATION_US = 500_000
SNAP_DELAY_US = 150_000


def us(x):
    """Seconds to whole microseconds, rounded half away from zero (the loader's rule)."""
    return int(math.floor(x * 1e6 + 0.5))


def t_of(x):
    """A sample time floored to whole microseconds, so that a sample meant for frame k lands on frame k."""
    return math.floor(x * 1e6 + 1e-6) / 1e6


def num(v):
    return int(v) if float(v).is_integer() else v


def fmt_t(x_us):
    return "%.6f" % (x_us / 1e6)


def frame_time(k, rate):
    """L1 / O1: frame k at k / rate s, rounded half up to whole µs (the time records print)."""
    return (2 * k * 1_000_000 + rate) // (2 * rate)


def frame_ticks(k):
    """L1: frame k's exact time k / rate s in ticks of 1 / (rate * 1e6) s."""
    return k * 1_000_000


def sample_ticks(t_us, rate):
    """A sample's (or timer's) time in the same ticks."""
    return t_us * rate


def due_frame(t_us, rate):
    """The frame that processes a sample at t: the first k with t * rate <= k * 1e6."""
    return (t_us * rate + 999_999) // 1_000_000


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def smoothstep(p):
    """§3.7, Q13: t in single precision, t*t in single precision, times (3 - 2t) in double."""
    p = min(max(p, 0.0), 1.0)
    t = f32(p)
    return f32(t * t) * (3 - 2 * t)


def rubber(x, d):
    """UIScrollView's rubber band b(x) (floatingpanel-core.md O6)."""
    return (1 - (1 / ((x * 0.55 / d) + 1))) * d


def unrubber(y, d):
    return y * d / (0.55 * (d - y))


# ------------------------------------------------------------------------------------------------
# The list (§3.6, floatingpanel-core.md O6): vertical offset only

class List:
    def __init__(self, sv, lock):
        self.frame = sv["frame"]
        self.size = sv["contentSize"]
        ins = sv.get("contentInset", {})
        self.t, self.l, self.b, self.r = (ins.get(k, 0) for k in ("top", "left", "bottom", "right"))
        self.offset = sv.get("contentOffset", {}).get("y", 0)
        self.bounces = sv.get("bounces", True)
        self.abv = sv.get("alwaysBounceVertical", False)
        self.abh = sv.get("alwaysBounceHorizontal", False)
        self.lock = lock
        self.raw = self.offset
        self.lo = -self.t
        self.hi = max(self.lo, self.size["height"] + self.b - self.frame["height"])
        self.d = self.frame["height"]
        self.has_v = self.size["height"] > self.frame["height"] - (self.t + self.b)
        self.has_h = self.size["width"] > self.frame["width"] - (self.l + self.r)
        self.returning = False

    def can_pan(self):
        return self.has_v or self.has_h or self.abv or self.abh

    def contains(self, x, y):
        f = self.frame
        return f["x"] <= x < f["x"] + f["width"] and f["y"] <= y < f["y"] + f["height"]

    def pan(self, dy):
        self.raw -= dy
        if self.raw < self.lo:
            self.offset = self.lo - rubber(self.lo - self.raw, self.d) if self.bounces else self.lo
        elif self.raw > self.hi:
            self.offset = self.hi + rubber(self.raw - self.hi, self.d) if self.bounces else self.hi
        else:
            self.offset = self.raw
        if not self.bounces:
            self.raw = self.offset

    def pin(self, v):
        self.offset = v
        if v < self.lo:
            self.raw = self.lo - unrubber(self.lo - v, self.d)
        elif v > self.hi:
            self.raw = self.hi + unrubber(v - self.hi, self.d)
        else:
            self.raw = v

    def at_top(self):
        return self.offset <= -self.t

    def end(self, vy):
        """O7 in the cases the corpus relies on: beyond an edge it returns to that edge; at an edge
        with the velocity pushing into it, it stays. Anything else is left undetermined (None)."""
        if self.offset < self.lo or self.offset > self.hi:
            self.offset = self.lo if self.offset < self.lo else self.hi
            self.raw = self.offset
            return True
        w = -vy
        if w == 0 or (self.offset == self.lo and w < 0) or (self.offset == self.hi and w > 0):
            return True
        self.offset = None
        return False


# ------------------------------------------------------------------------------------------------
# The popup (§3)

class Popup:
    def __init__(self, env, popup, scroll=None):
        self.env = env
        self.rate = env["frameRate"]
        self.W = env["container"]["width"]
        self.H = env["container"]["height"]
        self.safe = dict({"top": 0, "left": 0, "bottom": 0, "right": 0}, **env.get("safeArea", {}))
        self.style = popup.get("interactionStyle", "default")
        self.c = min(max(popup.get("snapPercent", 0.32), 0.1), 0.9)
        self.glass = popup.get("glass", False)
        bar = popup.get("bar", {})
        style = bar.get("style", "default")
        legacy = {"default": 64, "compact": 40, "prominent": 64, "floating": 64, "floatingCompact": 54}
        glass = {"default": 48, "compact": 48, "prominent": 58, "floating": 58, "floatingCompact": 48}
        self.hB = bar["height"] if "height" in bar else (glass if self.glass else legacy)[style]
        self.offset = bar.get("offset", 0)
        bb = popup.get("bottomBar", {"kind": "none"})
        self.bottom = bb["kind"] != "none"
        self.dock = self.H - bb["height"] if self.bottom else self.H - self.safe["bottom"]
        cb = popup.get("closeButton", {})
        cstyle = cb.get("style", "default")
        if cstyle == "default":
            cstyle = "prominentGlass" if self.glass else "grabber"
        self.close_style = cstyle
        if cb.get("frame"):
            f = cb["frame"]
            self.close_frame = (f["x"], f["y"], f["width"], f["height"])
        elif cstyle == "none":
            self.close_frame = None
        else:
            top = max(12, self.safe["top"])
            if cstyle == "grabber":
                w = 70 if self.glass else 42
                self.close_frame = (self.W / 2 - w / 2, top, w, 25)
            elif cstyle == "chevron":
                self.close_frame = (self.W / 2 - 21, top, 42, 25)
            elif cstyle == "round":
                self.close_frame = (16, top, 24, 24)
            else:
                self.close_frame = (self.W - 16 - 44, top, 44, 44)
        self.limit = popup.get("interactionLimitRect")
        self.rule = popup.get("simulator", {}).get("releaseRule", "4.5.6")
        self.list = List(scroll, scroll.get("isDirectionalLockEnabled", False)) if scroll else None

        self.public = self.internal = self.target = HIDDEN
        self.bar_top, self.bar_h = self.dock + self.offset, 0.0
        self.loc = self.dock
        self.bb = self.dock
        self.anims = []      # dicts: kind, start, done
        self.queue = []      # dicts: kind, ...
        self.timers = []     # (time, seq, fn)
        self.seq = 0
        self.ignored = False
        self.override = False
        self.drag = None
        self.open_y_cache = 0.0
        self.events = []
        self.now = 0
        self.now_ticks = 0   # self.now held exactly (L1)
        self.frames = []     # (k, t, location) written when the location changes
        self.touch = None
        self.deferred = []

    # -- records
    def emit(self, name, arg=None):
        self.events.append((self.now, name if arg is None else name + ":" + arg))

    # -- style (§3.2)
    def sigma(self):
        s = self.style
        if s in ("default", "automatic"):
            return "snap" if self.public == BAR else "drag"
        return s

    # -- geometry (§3.3)
    def place(self, S):
        if S == BAR:
            self.bar_h = self.hB
            self.bar_top = self.dock - self.hB + self.offset
            self.loc = self.dock
            if not self.glass:
                self.bb = self.dock
        else:
            self.bar_h = 0.0
            self.bar_top = 0.0
            self.loc = 0.0
            if not self.glass:
                self.bb = self.H

    # -- animators and the queue (§3.4, §3.8, §3.11)
    def start_anim(self, kind, done, from_loc):
        self.anims.append({"kind": kind, "start": self.now, "ticks": self.now_ticks, "done": done, "from": from_loc})
        # A touch that is down when an animator starts is ignored from then on (L7, as the model
        # states it for a call made while a finger rests, L13): its pans end, it is no tap.
        T = self.touch
        if T is not None and (T["pans"] or T["tap"]):
            if T["began"] and "scroll" in T["pans"]:
                self.list.end(0)
            T["pans"] = []
            T["tap"] = None

    def running(self):
        return bool(self.anims)

    def enqueue(self, entry):
        drops = {"present": ("present", "dismiss"), "dismiss": ("present", "open", "close", "dismiss"),
                 "open": ("open", "close"), "close": ("open", "close")}[entry["kind"]]
        self.queue = [e for e in self.queue if e["kind"] not in drops]
        self.queue.append(entry)
        self.resume()

    def resume(self):
        if self.running() or not self.queue:
            return
        e = self.queue.pop(0)
        k = e["kind"]
        # An open or close queued while a bar existed that starts after the bar's dismissal is
        # dropped like a call with no bar (§2.2; the spec is silent, the project's choice in
        # docs/lnpopup.md): it completes as a no-op request and the next waiting entry starts.
        if k in ("open", "close") and self.public == HIDDEN:
            self.finish_request(e)
            self.resume()
            return
        if k == "open":
            if self.target == OPEN:
                self.finish_request(e)
                return
            self.transition(OPEN, e["animated"], False, lambda: self.finish_request(e))
        elif k == "close":
            if self.target == BAR:
                self.finish_request(e)
                return
            self.transition(BAR, e["animated"], e.get("gesture", False), lambda: self.finish_request(e))
        elif k == "present":
            if self.target == HIDDEN:
                self.present(e["animated"], e["open"])
            elif e["open"]:
                self.enqueue({"kind": "open", "animated": e["animated"]})
            else:
                self.resume()
        elif k == "dismiss":
            if self.override:
                return
            self.override = True
            # The dismissal cancels a pending snap-open timer (docs/lnpopup.md): its open is dropped
            # like a queued request without a bar, whose completion clears gesturesIgnored.
            if self.timers:
                self.timers = []
                self.ignored = False
            if self.target != BAR:
                self.drag = None
                self.transition(BAR, e["animated"], False, lambda: self.dismiss_bar(e["animated"]))
            else:
                self.dismiss_bar(e["animated"])

    def finish_request(self, e):
        if e.get("clears"):
            self.ignored = False

    def transition(self, S, animated, gesture, completion=None):
        if S == self.internal:
            return
        public_before = self.public
        will_close = self.public == OPEN and S == BAR
        will_open = self.public in (BAR, HIDDEN) and S == OPEN
        self.internal = TRANS
        self.target = S
        if S == TRANS:
            return
        if will_open:
            self.emit("willOpenPopup")
        if will_close:
            self.emit("willClosePopup")
        from_loc = self.loc
        self.place(S)

        def done():
            self.internal = S
            self.public = S
            self.emit("didChangeState", NAMES[S])
            if S == BAR and public_before != BAR:
                self.emit("didClosePopup")
            if S == OPEN and public_before != OPEN:
                self.emit("didOpenPopup")
            if completion:
                completion()
            self.resume()
        if animated:
            self.start_anim("close" if S == BAR else "open", done, from_loc)
        else:
            done()

    def present(self, animated, o):
        self.override = False
        self.internal = BAR if o else TRANS
        self.target = BAR
        self.bar_top, self.bar_h = self.dock + self.offset, 0.0
        self.emit("willPresentPopupBar")
        self.bar_h = self.hB
        self.bar_top = self.dock - self.hB + self.offset
        self.loc = self.dock

        def done():
            if not o:
                self.internal = self.public = BAR
                self.emit("didChangeState", NAMES[BAR])
            self.emit("didPresentPopupBar")
            self.resume()
        if animated:
            self.start_anim("present", done, self.dock)
        if o:
            self.emit("willOpenPopup")
            self.transition(OPEN, animated, False)
        if not animated:
            done()

    def dismiss_bar(self, animated):
        self.internal = TRANS
        self.target = HIDDEN
        self.emit("willDismissPopupBar")
        self.bar_h = 0.0
        self.bar_top = self.dock + self.offset
        self.loc = self.dock

        def done():
            self.public = HIDDEN
            self.emit("didChangeState", NAMES[HIDDEN])
            self.emit("didDismissPopupBar")
            self.internal = HIDDEN
            self.resume()
        if animated:
            self.start_anim("dismiss", done, self.dock)
        else:
            done()

    # -- calls (§2.2)
    def call(self, c):
        name = c["call"]
        if self.pan_in_progress() and name not in ("setContentOffset", "setContentSize"):
            self.deferred.append(c)
            return
        anim = c.get("animated", True)
        no_bar = self.public == HIDDEN and not any(a["kind"] == "present" for a in self.anims)
        if name == "presentBar":
            self.enqueue({"kind": "present", "animated": anim, "open": c.get("openPopup", False)})
        elif name in ("openPopup", "closePopup", "dismissBar"):
            if no_bar:
                return
            self.enqueue({"kind": {"openPopup": "open", "closePopup": "close", "dismissBar": "dismiss"}[name],
                          "animated": anim})
        elif name == "tapBar":
            if self.bar_touchable():
                self.bar_tapped()
        elif name == "tapCloseButton":
            if self.close_available():
                self.close_tapped()
        elif name == "setContentOffset":
            if self.list and "y" in c:
                self.list.pin(c["y"])

    def locked(self):
        return any(a["kind"] in ("close", "dismiss") for a in self.anims)

    def bar_touchable(self):
        return self.bar_h > 0 and self.target != HIDDEN and not self.locked() and \
            not any(a["kind"] == "open" for a in self.anims)

    def close_available(self):
        if self.close_frame is None or self.locked():
            return False
        return self.internal == OPEN or any(a["kind"] == "open" for a in self.anims)

    def bar_tapped(self):
        self.ignored = True
        self.enqueue({"kind": "open", "animated": True, "clears": True})

    def close_tapped(self):
        self.enqueue({"kind": "close", "animated": True})

    # -- touches (§3.5, L2, L5-L8)
    def on_bar(self, x, y):
        return self.bar_h > 0 and 0 <= x < self.W and self.bar_top <= y < self.bar_top + self.bar_h

    def in_close(self, x, y):
        if self.close_frame is None:
            return False
        fx, fy, fw, fh = self.close_frame
        cy = y - self.loc
        return fx <= x < fx + fw and fy <= cy < fy + fh

    def touch_sample(self, s):
        ph, x, y = s["touch"], s["x"], s["y"]
        v = s.get("velocity", {"x": 0, "y": 0})
        if s.get("id", 0) != 0:
            return
        if ph == "began":
            T = {"down": (x, y), "last": (x, y), "pans": [], "tap": None, "began": False,
                 "moved_far": False, "t0": self.now}
            self.touch = T
            if self.locked():
                return
            opening = any(a["kind"] == "open" for a in self.anims)
            presenting = any(a["kind"] == "present" for a in self.anims)
            if opening:
                if self.in_close(x, y):
                    T["tap"] = "close"
                return
            if presenting:
                if self.on_bar(x, y):
                    T["tap"] = "bar"
                return
            if self.internal == BAR and self.on_bar(x, y):
                T["tap"] = "bar"
                T["pans"] = ["interaction"]
            elif self.internal == OPEN:
                if self.in_close(x, y):
                    T["tap"] = "close"
                L = self.list
                if L and L.contains(x, y - self.loc) and L.can_pan():
                    T["pans"] = ["scroll"] if (L.has_v or L.has_h) else ["scroll", "interaction"]
                    if L.returning:
                        L.returning = False
                else:
                    T["pans"] = ["interaction"]
            return
        T = self.touch
        if T is None:
            return
        dx, dy = x - T["down"][0], y - T["down"][1]
        if math.hypot(dx, dy) >= 10:
            T["moved_far"] = True
        if ph == "stationary":
            return
        if ph == "moved":
            if not T["pans"]:
                return
            if not T["began"]:
                if math.hypot(dx, dy) < self.threshold:
                    return
                T["began"] = True
                T["tap"] = None
                if "scroll" in T["pans"] and self.list.lock and self.list.has_v and self.list.has_h:
                    T["lockaxis"] = "v" if abs(dy) >= abs(dx) else "h"
                T["last"] = (x, y)
                for rec in list(T["pans"]):
                    if rec == "interaction" and self.internal == OPEN and self.limit is not None:
                        r = self.limit
                        cx, cy = x, y - self.loc
                        if not (r["x"] <= cx < r["x"] + r["width"] and r["y"] <= cy < r["y"] + r["height"]):
                            T["pans"].remove(rec)
                            continue
                    if rec == "interaction" and self.sigma() == "none":
                        T["pans"].remove(rec)
                        continue
                    self.began(rec, v)
                return
            prev = T["last"]
            T["last"] = (x, y)
            for rec in list(T["pans"]):
                if rec not in T["pans"]:
                    continue
                tx, ty = dx, dy
                if rec == "scroll":
                    if T.get("lockaxis") == "v":
                        tx = 0
                    elif T.get("lockaxis") == "h":
                        ty = 0
                    if T.get("lockaxis") != "h":
                        self.list.pan(y - prev[1])
                self.changed(rec, tx, ty, v)
            return
        # ended / cancelled: the touch is over (what its end starts does not overrun it)
        self.touch = None
        pans = T["pans"]
        for rec in list(pans):
            if T["began"]:
                if rec == "scroll":
                    self.list.end(v["y"])
                self.ended(rec, v)
        if not T["began"] and not T["moved_far"] and ph == "ended" and self.now - T["t0"] <= 500_000:
            if T["tap"] == "bar" and self.bar_touchable_at_end():
                self.bar_tapped()
            elif T["tap"] == "close" and self.close_available():
                self.close_tapped()
        self.touch = None

    def pan_in_progress(self):
        """L13: the touch's interaction pan began and was neither cancelled nor ended, or a drag runs."""
        T = self.touch
        return T is not None and T["began"] and (self.drag is not None or "interaction" in T["pans"])

    def run_deferred(self):
        """L13: the deferred calls run, in order, once the pan is no longer in progress."""
        if self.deferred and not self.pan_in_progress():
            calls, self.deferred = self.deferred, []
            for c in calls:
                self.call(c)

    def bar_touchable_at_end(self):
        return self.bar_h > 0 and self.target != HIDDEN and not self.locked()

    def cancel(self, rec):
        T = self.touch
        if T and rec in T["pans"]:
            T["pans"].remove(rec)

    def began(self, rec, v):
        if self.override or self.ignored:
            return
        sg = self.sigma()
        if sg == "none" or (sg == "scroll" and rec != "scroll"):
            return
        vertical = abs(v["y"]) > abs(v["x"])
        if sg == "snap" and self.internal == BAR:
            if vertical and v["y"] < 0:
                self.cancel(rec)
                self.ignored = True
                t = self.now + SNAP_DELAY_US
                self.seq += 1
                self.timers.append((t, self.seq, lambda: self.enqueue({"kind": "open", "animated": True, "clears": True})))
            elif v["y"] > 0:
                self.cancel(rec)
        elif sg == "drag" and self.internal == BAR and (not vertical or v["y"] > 0):
            self.cancel(rec)

    def changed(self, rec, tx, ty, v):
        if self.override or self.ignored:
            return
        sg = self.sigma()
        if sg == "none" or (sg == "scroll" and rec != "scroll"):
            return
        if tx == 0 and ty == 0:
            return
        if rec == "scroll":
            L = self.list
            only_v = (not L.has_h) or tx == 0
            if not only_v:
                if abs(ty) <= abs(tx):
                    self.cancel("interaction")
                elif self.drag is not None:
                    self.cancel("scroll")
                    L.end(0)
                    self.ended("scroll", v)
                return
            if self.drag is None and (not L.at_top() or ty < 0):
                return
            if self.drag is None:
                self.list_start = L.offset
            if self.bar_top > self.open_y_cache:
                L.pin(self.list_start)
        if self.drag is None and (sg in ("drag", "scroll") or self.internal > BAR):
            self.emit("willBeginDragging", NAMES[self.public] + "/" + ("scrollView" if rec == "scroll" else "interaction"))
            h = self.bar_h
            frm = self.internal
            self.drag = {"c0": self.bar_top + h / 2, "from": frm, "dock": self.dock, "openY": -h,
                         "start": ty if rec == "scroll" else 0.0, "h": h}
            self.open_y_cache = -h
            self.transition(TRANS, False, False)
        if self.drag is None:
            return
        d = self.drag
        h = d["h"]
        centre = min(d["c0"] + ty, d["dock"] - h / 2) - d["start"]
        centre = max(centre, d["openY"] + h / 2)
        real = centre
        if sg == "snap":
            R = lambda x: x * self.H * self.c / (self.H + self.c * x)
            centre = R(centre) - (h / 2 + R(-h / 2))
        self.bar_top = centre - h / 2
        self.loc = self.bar_top + h
        if sg in ("drag", "scroll") and not self.glass:
            p = 1 - (self.bar_top + h) / d["dock"]
            self.bb = self.dock + smoothstep(p) * (self.H - self.dock)
        if sg == "snap" and real / self.H > self.c:
            self.drag = None
            self.cancel(rec)
            self.cancel("interaction")
            if rec == "scroll":
                self.list.end(0)
            self.ignored = True
            self.emit("willEndDragging", "barPresented/snapThreshold")
            self.enqueue({"kind": "close", "animated": True, "gesture": True, "clears": True})

    def ended(self, rec, v):
        if self.override or self.ignored:
            return
        if self.drag is None:
            return
        d = self.drag
        sg = self.sigma()
        p = 1 - (self.bar_top + d["h"]) / d["dock"]
        frm = d["from"]
        vy = v["y"]
        if sg == "snap":
            target = self.public
        elif self.rule == "4.5.5":
            if vy < 0:
                target = OPEN
            elif vy > 0:
                target = BAR
            else:
                target = (OPEN if p > 0.2 else BAR) if frm == BAR else (BAR if p < 0.8 else OPEN)
        else:
            target = frm
            if vy <= 0:
                target = BAR if (frm == OPEN and p < 0.5) else OPEN
            elif p != 1.0:
                target = BAR
            else:
                target = OPEN if (frm == BAR and p > 0.2) else (BAR if (frm == OPEN and p < 0.8) else frm)
        self.emit("willEndDragging", NAMES[target] + "/release")
        self.ignored = True
        self.drag = None
        if target == OPEN:
            self.enqueue({"kind": "open", "animated": True, "clears": True})
        else:
            self.enqueue({"kind": "close", "animated": True, "gesture": True, "clears": True})

    # -- the clock (L1)
    def run(self, samples, initial):
        self.threshold = 10
        rate = self.rate
        if initial == "barPresented":
            self.present(False, False)
        elif initial == "open":
            self.present(False, True)
        self.record(0)
        samples = [dict(s, _t=us(s["t"])) for s in samples]
        i, k = 0, 0
        budget_end = None
        while True:
            tk = frame_time(k, rate)
            while i < len(samples) and due_frame(samples[i]["_t"], rate) <= k:
                s = samples[i]
                i += 1
                self.fire_timers(lambda t: t < s["_t"])
                self.now = s["_t"]
                self.now_ticks = sample_ticks(s["_t"], rate)
                if "touch" in s:
                    self.touch_sample(s)
                    self.run_deferred()
                elif "call" in s:
                    self.call(s)
            self.fire_timers(lambda t: sample_ticks(t, rate) <= frame_ticks(k))
            self.now = tk
            self.now_ticks = frame_ticks(k)
            for a in list(self.anims):
                elapsed = frame_ticks(k) - a["ticks"]
                if a in self.anims and elapsed >= DURATION_US * rate and elapsed > 0:
                    self.anims.remove(a)
                    a["done"]()
            self.record(k)
            busy = bool(self.anims) or bool(self.timers)
            if i == len(samples) and self.touch is None and not busy:
                break
            # next interesting frame
            cands = []
            if i < len(samples):
                cands.append(due_frame(samples[i]["_t"], rate))
            for a in self.anims:
                kk = k + 1
                while frame_ticks(kk) - a["ticks"] < DURATION_US * rate:
                    kk += 1
                cands.append(kk)
            for (t, _, _) in self.timers:
                cands.append(max(k + 1, due_frame(t, rate)))
            k = max(k + 1, min(cands)) if cands else k + 1

    def fire_timers(self, due):
        while True:
            ready = sorted((t, n, f) for (t, n, f) in self.timers if due(t))
            if not ready:
                return
            t, n, f = ready[0]
            self.timers = [x for x in self.timers if x[1] != n]
            self.now = t
            self.now_ticks = sample_ticks(t, self.rate)
            f()

    def record(self, k):
        t = frame_time(k, self.rate)
        prev = frame_time(k - 1, self.rate) if k > 0 else -1
        if not self.anims:
            loc = self.loc
        elif len(self.anims) == 1 and self.anims[0]["start"] > prev:
            loc = self.anims[0]["from"]   # started in this frame: at most 1 µs of progress (checked within 1e-3)
        else:
            loc = None
        if not self.frames or self.frames[-1][2] != loc:
            self.frames.append((k, t, loc))

    def loc_at(self, t_s):
        t = us(t_s)
        best = None
        for (k, ft, loc) in self.frames:
            if ft <= t:
                best = loc
        return best


# ------------------------------------------------------------------------------------------------
# Touch paths

def swipe(t0, x, y0, steps, vy, dt=1 / 120, vx=0, xs=None, end_v=None, end="ended"):
    """A finger down at (x, y0) at t0 moving by `steps` (a list of dy per sample, pt) every dt s,
    each moved sample carrying the recorded velocity (vx, vy); lifted at the last point."""
    out = [{"t": t_of(t0), "touch": "began", "x": num(x), "y": num(y0)}]
    y, xx = y0, x
    t = t0
    for i, s in enumerate(steps):
        t += dt
        y += s
        if xs is not None:
            xx = x + xs[i]
        out.append({"t": t_of(t), "touch": "moved", "x": num(round(xx, 6)), "y": num(round(y, 6)),
                    "velocity": {"x": num(vx), "y": num(vy)}})
    ev = end_v if end_v is not None else {"x": num(vx), "y": num(vy)}
    out.append({"t": t_of(t), "touch": end, "x": num(round(xx, 6)), "y": num(round(y, 6)), "velocity": ev})
    return out


def tap(t0, x, y, dur=0.05):
    return [{"t": t_of(t0), "touch": "began", "x": num(x), "y": num(y)},
            {"t": t_of(t0 + dur), "touch": "ended", "x": num(x), "y": num(y)}]


def call(t, name, **kw):
    s = {"t": t_of(t), "call": name}
    s.update(kw)
    return s


# ------------------------------------------------------------------------------------------------
# Writing

class Writer:
    def __init__(self):
        self.count = 0

    def write(self, family, name, text, popup, samples, env=D1, scroll=None, locs=(), offset=False, device="D1"):
        m = Popup(env, popup, scroll)
        m.run(samples, popup.get("initialState", "barPresented"))
        last_loc = m.frames[-1][2]
        assert last_loc is not None, name
        keys = ["state=" + NAMES[m.public], "location=%s" % fmt_num(last_loc)]
        if m.bottom:
            keys.append("bottomBarTop=%s" % fmt_num(m.bb))
        if offset and m.list is not None and m.list.offset is not None:
            keys.append("offset=%s" % fmt_num(m.list.offset))
        for t in locs:
            v = m.loc_at(t)
            assert v is not None, (name, t)
            keys.append("loc@%s=%s" % (fmt_num(t), fmt_num(v)))
        keys.append("events=" + ",".join("%s@%s" % (n, fmt_t(t)) for (t, n) in m.events))
        head = {"format": "panelsim-trace", "version": 1, "model": "lnpopup", "name": name,
                "description": family + ". " + text + " expect: " + " ".join(keys),
                "source": {"kind": "synthetic", "origin": ORIGIN, "device": device},
                "environment": env, "popup": popup}
        if scroll is not None:
            head["scrollView"] = scroll
        head["recognizer"] = {"velocity": "recorded", "beginThreshold": 10}
        folder = os.path.join(ROOT, OUT, family.split()[0].lower())
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, name + ".jsonl"), "w") as f:
            f.write(json.dumps(head, separators=(", ", ": "), ensure_ascii=False) + "\n")
            for s in samples:
                f.write(json.dumps(s, separators=(", ", ": ")) + "\n")
        self.count += 1


def fmt_num(x):
    r = round(x, 6)
    if r == 0:
        r = 0.0
    s = ("%.6f" % r).rstrip("0").rstrip(".")
    return s


TB = {"kind": "tabBar", "height": 83}
NB = {"kind": "none"}


def P(style="default", bottom=TB, initial="barPresented", **extra):
    p = {"interactionStyle": style, "bottomBar": bottom, "initialState": initial}
    p.update(extra)
    return p


LIST = {"frame": {"x": 0, "y": 0, "width": 390, "height": 844}, "contentSize": {"width": 390, "height": 2400},
        "contentOffset": {"x": 0, "y": 0}}


def main():
    shutil.rmtree(os.path.join(ROOT, OUT), ignore_errors=True)
    w = Writer()
    down20 = lambda n: [20] * n
    up20 = lambda n: [-20] * n

    # S1 opening ----------------------------------------------------------------------------------
    for style in ("default", "snap", "drag"):
        w.write("S1 opening", "tapbar-call-%s-tab" % style,
                "tapBar call at 0.1 s on the closed bar (%s style, tab bar): willOpenPopup at the call, didChangeState(open) and didOpenPopup 0.5 s later (§3.10, §3.13)." % style,
                P(style), [call(0.1, "tapBar"), {"t": 1.0, "end": True}])
    w.write("S1 opening", "bar-touch-tap-nobar",
            "A 50 ms touch on the closed bar (no bottom bar: dock 810, bar 746-810) at y 778 is a bar tap (L6): opens.",
            P("default", NB), tap(0.1, 195, 778))
    w.write("S1 opening", "bar-touch-outside-nobar",
            "A tap at y 700, above the closed bar (746-810), hits nothing: stays closed, no event.",
            P("default", NB), tap(0.1, 195, 700))
    for style, speed in (("snap", 250), ("snap", 1500), ("default", 250), ("default", 1500)):
        n = 12
        w.write("S1 opening", "snap-swipe-up-%s-%d" % (style, speed),
                "%s style, closed bar (tab bar 697-761): swipe up from y 730 at %d pt/s in 20 pt steps. The pan is recognized at the first sample (20 pt >= 10), vertical and upward: cancelled, open called 0.15 s later (L12); the content never follows the finger (Q5)." % (style, speed),
                P(style), swipe(0.1, 195, 730, up20(n), -speed, dt=20 / speed if speed < 2400 else 1 / 120),
                locs=[0.1 + 2 * 20 / speed])
    w.write("S1 opening", "snap-swipe-down-tab",
            "snap style, closed bar: a downward swipe (v.y > 0) is cancelled at recognition; nothing happens.",
            P("snap"), swipe(0.1, 195, 705, down20(3), 600))
    w.write("S1 opening", "default-swipe-down-nobar",
            "default style (snap on the bar), no bottom bar: a downward swipe on the bar is cancelled; nothing happens.",
            P("default", NB), swipe(0.1, 195, 760, down20(2), 600))
    w.write("S1 opening", "drag-slow-to-top-tab",
            "drag style, tab bar: a slow drag from y 760 to y 0 (38 samples of 20 pt, -250 pt/s) moves the content 1:1 from the second sample (location 761 + ty: 1 at the end), release v.y < 0 opens (§3.5.5 rule 1).",
            P("drag"), swipe(0.1, 195, 760, up20(38), -250, dt=0.08), locs=[0.1 + 0.08 * 2, 0.1 + 0.08 * 20, 0.1 + 0.08 * 38])
    w.write("S1 opening", "drag-short-flick-nobar",
            "drag style, no bottom bar: a 3-sample flick up at -1500 pt/s (60 pt): location 810 - 40 at the third sample, release opens.",
            P("drag", NB), swipe(0.1, 195, 780, up20(3), -1500), locs=[0.1 + 2 / 120])
    w.write("S1 opening", "drag-40pt-v0-tab",
            "drag style: a 40 pt drag up released at v = 0 opens (Q2: from the bar any release with v.y <= 0 opens).",
            P("drag"), swipe(0.1, 195, 730, up20(2), -300, end_v={"x": 0, "y": 0}), locs=[0.1 + 2 / 120])
    w.write("S1 opening", "drag-sideways-on-bar-tab",
            "drag style: a sideways pan on the closed bar (v = (800, -100), not vertical) is cancelled at recognition (§3.5.2 step 4, 4.3.0).",
            P("drag"), swipe(0.1, 100, 730, [-2, -2, -2], -100, vx=800, xs=[20, 40, 60]))
    w.write("S1 opening", "drag-v0-recognition-tab",
            "drag style: a pan recognized with velocity exactly 0 is not vertical and is cancelled (Q5).",
            P("drag"), swipe(0.1, 195, 730, up20(3), 0, end_v={"x": 0, "y": -300}))

    # S2 closing by drag (default style, open) -------------------------------------------------------
    def close_drag(n, v_end, style="default", bottom=TB, y0=200):
        return swipe(0.1, 195, y0, down20(n), 600, end_v={"x": 0, "y": v_end})
    for bottom, tag in ((TB, "tab"), (NB, "nobar")):
        w.write("S2 closing", "drag-300-plus600-%s" % tag,
                "default style (drag when open), open: a 300 pt drag down (15 samples of 20 pt) released at +600 pt/s closes (rule 2: v.y > 0, p != 1) with the 0.87 spring.",
                P("default", bottom, "open"), close_drag(15, 600, bottom=bottom), locs=[0.1 + 15 / 120])
        w.write("S2 closing", "drag-300-minus100-%s" % tag,
                "default style, open: the same 300 pt drag released at -100 pt/s re-opens (rule 1: p = 1 - 300/dock >= 0.5): only didChangeState(open).",
                P("default", bottom, "open"), close_drag(15, -100, bottom=bottom), locs=[0.1 + 15 / 120])
    w.write("S2 closing", "drag-440-minus100-tab",
            "default style, open, tab bar: a 440 pt drag released at -100 pt/s closes (p = 1 - 440/761 = 0.42 < 0.5).",
            P("default", TB, "open"), close_drag(22, -100), locs=[0.1 + 22 / 120])
    w.write("S2 closing", "release-down-at-top-tab",
            "default style, open: a pan up 40 pt keeps the content at 0 (clamped); released moving down (+50 pt/s) at p = 1 exactly stays open (rule 3).",
            P("default", TB, "open"), swipe(0.1, 195, 400, up20(2), -300, end_v={"x": 0, "y": 50}), locs=[0.1 + 2 / 120])
    w.write("S2 closing", "back-to-origin-q4-tab",
            "drag style, open: down 20, 40, 60 then back to 40, 20, 0 (the touch-down point): the last sample is (0, 0) and ignored (Q4), so the content stays at 20; released at -200 pt/s re-opens.",
            P("drag", TB, "open"), swipe(0.1, 195, 300, [20, 20, 20, -20, -20, -20], 300, end_v={"x": 0, "y": -200}),
            locs=[0.1 + 3 / 120, 0.1 + 6 / 120])

    # S3 snap closing ------------------------------------------------------------------------------
    for bottom, tag in ((TB, "tab"), (NB, "nobar")):
        w.write("S3 snap", "snap-pull-30-%s" % tag,
                "snap style, open: a 30 pt pull (began at 20, changed at 30) rubber-bands to R(30) = 9.492; release re-opens whatever the velocity (target = public state).",
                P("snap", bottom, "open"), swipe(0.1, 195, 300, [20, 10], 300, end_v={"x": 0, "y": 900}), locs=[0.1 + 2 / 120])
        w.write("S3 snap", "snap-threshold-%s" % tag,
                "snap style, open: a long pull in 20 pt steps snaps at the first sample past 270.08 pt (ty = 280, location R(280) = 81.001): willEndDragging(snapThreshold) and willClosePopup at that sample; the rest of the touch, turning back up, is ignored.",
                P("snap", bottom, "open"), swipe(0.1, 195, 100, down20(14) + up20(10), 600), locs=[0.1 + 14 / 120])

    # S4 B24 ----------------------------------------------------------------------------------------
    path = up20(20) + down20(4)
    w.write("S4 B24", "drag-up400-down80-tab",
            "drag style, closed: up 400 pt, back down 80, released at +800 pt/s: returns to the bar (v.y > 0, p != 1).",
            P("drag"), swipe(0.1, 195, 730, path, -800, end_v={"x": 0, "y": 800}), locs=[0.1 + 20 / 120, 0.1 + 24 / 120])
    w.write("S4 B24", "snap-up400-down80-tab",
            "snap style, the same path: the upward swipe at recognition already triggered the open (Q5); opens.",
            P("snap"), swipe(0.1, 195, 730, path, -800, end_v={"x": 0, "y": 800}))
    w.write("S4 B24", "default-up400-down80-nobar",
            "default style (snap on the bar), no bottom bar, the same path from y 780: opens.",
            P("default", NB), swipe(0.1, 195, 780, path, -800, end_v={"x": 0, "y": 800}))
    w.write("S4 B24", "snap-open-up30-tab",
            "snap style, open: a 30 pt upward pan never moves the content (clamped at 0, no jump: B24(b)); release re-opens.",
            P("snap", TB, "open"), swipe(0.1, 195, 400, [-20, -10], -300), locs=[0.1 + 2 / 120])

    # S5 B22 ----------------------------------------------------------------------------------------
    for style in ("default", "drag"):
        w.write("S5 B22", "list-o0-%s-tab" % style,
                "%s style, open, a 2400 pt list at offset 0 filling the content: began at +20; at +40 the list bounces and the drag starts through the list's pan (startOffset 40); from +80 the list is pinned; released at +600 the popup closes and the list returns to 0." % style,
                P(style, TB, "open"), swipe(0.1, 195, 200, down20(16), 600), scroll=LIST,
                locs=[0.1 + 2 / 120, 0.1 + 3 / 120, 0.1 + 16 / 120], offset=True)
    w.write("S5 B22", "list-o0-snap-tab",
            "snap style, open, 2400 pt list at 0: the drag starts through the list at ty = 40; location R(ty - 40); the snap fires at the first sample with ty - 40 > 270.08 (ty = 320).",
            P("snap", TB, "open"), swipe(0.1, 195, 100, down20(20), 600), scroll=LIST, locs=[0.1 + 10 / 120, 0.1 + 16 / 120])
    l200 = dict(LIST, contentOffset={"x": 0, "y": 200})
    w.write("S5 B22", "list-o200-default-tab",
            "default style, open, list at offset 200: the list scrolls back 20 pt per sample to 0 at ty = 220, where the drag starts (startOffset 220); from ty = 260 the list stays pinned at 0 and the popup follows in the same touch; released at +600 it closes.",
            P("default", TB, "open"), swipe(0.1, 195, 100, down20(30), 600), scroll=l200,
            locs=[0.1 + 11 / 120, 0.1 + 20 / 120, 0.1 + 30 / 120], offset=True)
    l2d = dict(LIST, contentSize={"width": 1200, "height": 2400})
    drift = [2 * (i + 1) for i in range(16)]
    w.write("S5 B22", "list-2d-nolock-drift-tab",
            "default style, open, a list scrolling both ways without directional lock and a finger drifting sideways (tx != 0): every list sample is ignored by LNPopup (not scrolling only vertically); the popup never closes.",
            P("default", TB, "open"), swipe(0.1, 195, 200, down20(16), 600, xs=drift), scroll=l2d)
    w.write("S5 B22", "list-2d-lock-drift-tab",
            "The same list with isDirectionalLockEnabled: locked vertically at recognition, the pan reports tx = 0 and the popup closes (L8).",
            P("default", TB, "open"), swipe(0.1, 195, 200, down20(16), 600, xs=drift),
            scroll=dict(l2d, isDirectionalLockEnabled=True))
    drift_late = [0] * 8 + [3] * 8
    w.write("S5 B22", "list-2d-nolock-vertical-then-drift-tab",
            "The unlocked 2-D list, the finger exactly vertical for 8 samples (a drag starts, Q9) then drifting 3 pt: the first sideways sample cancels the list's pan, which releases the drag there (§3.6.3 step 1) with +600 pt/s: closes.",
            P("default", TB, "open"), swipe(0.1, 195, 200, down20(16), 600, xs=drift_late), scroll=l2d,
            locs=[0.1 + 8 / 120])
    short = dict(LIST, contentSize={"width": 390, "height": 600})
    w.write("S5 B22", "list-short-default-tab",
            "default style, open, a short list (600 pt in an 844 pt frame, no alwaysBounce): its pan cannot begin, the interaction recognizer closes the popup as without a list.",
            P("default", TB, "open"), swipe(0.1, 195, 200, down20(15), 600), scroll=short, locs=[0.1 + 15 / 120])
    w.write("S5 B22", "list-up-scrolls-tab",
            "default style, open, list at 0: an upward pan scrolls the list (ty < 0: LNPopup ignores it); the popup stays open, the list ends at 200 after its pan (released at v = 0: no deceleration).",
            P("default", TB, "open"), swipe(0.1, 195, 600, up20(11), -600, end_v={"x": 0, "y": 0}), scroll=LIST, offset=True)

    # S6 B23 ----------------------------------------------------------------------------------------
    w.write("S6 B23", "bottom-swipe-19-drag-tab",
            "drag style, tab bar, open: a swipe from y 825 (19 pt above the bottom edge) to 844: began at 835, content follows at 844 (location 19); release +400 closes; the tab bar comes back (P2).",
            P("drag", TB, "open"), swipe(0.1, 195, 825, [10, 9], 400), locs=[0.1 + 2 / 120])
    w.write("S6 B23", "bottom-swipe-6-drag-tab",
            "drag style, tab bar, open: a 6 pt swipe near the bottom edge is not a pan (threshold 10) nor a tap on anything: nothing happens; the close button then closes the popup.",
            P("drag", TB, "open"), swipe(0.1, 195, 835, [3, 3], 400) + tap(0.5, 195, 59))
    w.write("S6 B23", "closed-bar-swipe-down-drag-tab",
            "drag style, tab bar, closed: a downward swipe on the bar is cancelled at recognition (2.18.2 fix); the bar and tab bar stay; a tap then opens.",
            P("drag", TB), swipe(0.1, 195, 705, [10, 10, 10], 500) + tap(0.5, 195, 720))
    w.write("S6 B23", "close-button-after-drag-close-tab",
            "drag style, tab bar, open: a drag closes; a tapBar re-opens; the close button (tapCloseButton) closes again.",
            P("drag", TB, "open"), swipe(0.1, 195, 300, down20(10), 900) + [call(1.0, "tapBar"), call(2.0, "tapCloseButton")])

    # S7 programmatic ------------------------------------------------------------------------------
    w.write("S7 calls", "open-close-animated-tab",
            "openPopup at 0.1 s, closePopup at 1 s (animated): willOpenPopup, didChangeState(open), didOpenPopup, then willClosePopup, didChangeState(barPresented), didClosePopup.",
            P("default"), [call(0.1, "openPopup"), call(1.0, "closePopup")])
    w.write("S7 calls", "open-close-not-animated-nobar",
            "openPopup and closePopup with animated false: every callback at the call's time.",
            P("default", NB), [call(0.1, "openPopup", animated=False), call(0.2, "closePopup", animated=False)])
    w.write("S7 calls", "present-dismiss-tab",
            "initialState barHidden: presentBar (animated) at 0.1 s, dismissBar at 1 s.",
            P("default", TB, "barHidden"), [call(0.1, "presentBar"), call(1.0, "dismissBar")])
    w.write("S7 calls", "present-open-animated-q3-nobar",
            "initialState barHidden: presentBar(openPopup: true, animated): willPresentPopupBar, willOpenPopup twice (Q3); at 0.6 s didPresentPopupBar, then didChangeState(open), didOpenPopup (start order).",
            P("default", NB, "barHidden"), [call(0.1, "presentBar", openPopup=True)])
    w.write("S7 calls", "dismiss-while-open-tab",
            "initialState open: dismissBar at 0.1 s closes first (willClosePopup), then the bar dismissal starts in the close's completion at 0.6 s and ends at 1.1 s.",
            P("default", TB, "open"), [call(0.1, "dismissBar")])
    w.write("S7 calls", "initial-open-then-close-nobar",
            "initialState open (t = 0 records of §2.3, Q3), closePopup at 0.2 s.",
            P("drag", NB, "open"), [call(0.2, "closePopup")])
    w.write("S7 calls", "calls-without-bar-ignored-tab",
            "initialState barHidden: openPopup, closePopup and dismissBar are ignored (no bar); presentBar not animated then works.",
            P("default", TB, "barHidden"), [call(0.1, "openPopup"), call(0.2, "closePopup"), call(0.3, "dismissBar"),
                                             call(0.4, "presentBar", animated=False)])
    w.write("S7 calls", "call-while-finger-rests-tab",
            "A closePopup call while a finger merely rests on the open content (no pan began) runs when its sample is processed (L13).",
            P("default", TB, "open"), [{"t": 0.1, "touch": "began", "x": 195, "y": 400}, call(0.2, "closePopup"),
                                        {"t": 0.4, "touch": "ended", "x": 195, "y": 400}])
    w.write("S7 calls", "finger-overrun-by-close-tab",
            "A closePopup call while a finger rests on the open content runs at once (L13); the finger, down when the close's animator starts, is ignored from then on, so its later movement starts no drag (L7, P5).",
            P("default", TB, "open"), [{"t": 0.1, "touch": "began", "x": 195, "y": 300}, call(0.15, "closePopup")]
            + swipe(0.2, 195, 300, [20] * 10, 600)[1:])
    w.write("S7 calls", "call-deferred-during-drag-tab",
            "A closePopup call while the popup's interaction pan drags the open content is deferred until that pan ends, then runs after the release's own processing (L13).",
            P("default", TB, "open"), swipe(0.1, 195, 300, [20] * 8, 100, end_v={"x": 0, "y": -100})[:6] + [call(0.145, "closePopup")]
            + swipe(0.1, 195, 300, [20] * 8, 100, end_v={"x": 0, "y": -100})[6:])

    # S8 queue --------------------------------------------------------------------------------------
    w.write("S8 queue", "close-during-opening-tab",
            "openPopup at 0.1 s, closePopup at 0.3 s (during the opening): the close starts at the opening's completion frame, after didOpenPopup.",
            P("default"), [call(0.1, "openPopup"), call(0.3, "closePopup")])
    w.write("S8 queue", "close-then-open-coalesce-tab",
            "openPopup at 0.1 s, closePopup at 0.2 s and openPopup at 0.3 s: the second open drops the waiting close; at the completion the open is a no-op (Q11).",
            P("default"), [call(0.1, "openPopup"), call(0.2, "closePopup"), call(0.3, "openPopup")])
    w.write("S8 queue", "bar-tap-during-presentation-nobar",
            "initialState barHidden: presentBar at 0.1 s; a touch tap on the bar at 0.3 s (the model frame is already final) queues the open, which starts at 0.6 s when the presentation completes.",
            P("default", NB, "barHidden"), [call(0.1, "presentBar")] + tap(0.3, 195, 778))
    w.write("S8 queue", "pan-during-tap-opening-tab",
            "A bar tap ending at 0.1 s opens; a drag on the content at 0.3 s (during the opening) is not reachable (L7), and one at 0.7 s (after it) closes.",
            P("default"), tap(0.05, 195, 730) + swipe(0.3, 195, 300, down20(10), 600) + swipe(0.7, 195, 300, down20(10), 600))
    w.write("S8 queue", "snap-delay-ignores-pans-tab",
            "snap style: a swipe up recognized at 0.108 s sets gesturesIgnored; open at +0.15 s; a second snap swipe after the open (0.8 s, drag style now) closes by drag.",
            P("snap"), swipe(0.1, 195, 730, up20(3), -1000) + swipe(0.8, 195, 300, down20(10), 600))
    w.write("S8 queue", "close-queued-during-dismissal-tab",
            "closed, dismissBar at 0.1 s, closePopup at 0.2 s (queued behind the running dismissal): at 0.6 s the bar is gone and the close is dropped like a call with no bar (§2.2, docs/lnpopup.md); ends barHidden with no close callbacks.",
            P("default"), [call(0.1, "dismissBar"), call(0.2, "closePopup")])
    w.write("S8 queue", "open-queued-during-dismissal-tab",
            "closed, dismissBar at 0.1 s, openPopup at 0.2 s: the open would start after the dismissal, with no bar: dropped; ends barHidden.",
            P("default"), [call(0.1, "dismissBar"), call(0.2, "openPopup")])
    w.write("S8 queue", "open-then-present-queued-during-dismissal-tab",
            "closed, dismissBar at 0.1 s, openPopup at 0.2 s, presentBar at 0.3 s (present does not drop the waiting open): at 0.6 s the open is dropped (no bar) and the queue goes on with the presentation, which ends at 1.1 s.",
            P("default"), [call(0.1, "dismissBar"), call(0.2, "openPopup"), call(0.3, "presentBar")])
    w.write("S8 queue", "snap-timer-cancelled-by-dismiss-tab",
            "snap style: a swipe up recognized at 0.108 s arms the 0.15 s open timer; dismissBar at 0.15 s cancels it (docs/lnpopup.md), so no open follows the dismissal; after presentBar at 1 s a new snap swipe at 1.7 s opens (gesturesIgnored was cleared with the timer).",
            P("snap"), swipe(0.1, 195, 730, up20(1), -800) + [call(0.15, "dismissBar"), call(1.0, "presentBar")]
            + swipe(1.7, 195, 730, up20(3), -800))
    w.write("S8 queue", "tap-during-close-ignored-tab",
            "open, closePopup at 0.1 s; a tap on the bar area at 0.3 s (window locked by the animated close) is ignored; closed at 0.6 s.",
            P("default", TB, "open"), [call(0.1, "closePopup")] + tap(0.3, 195, 730))

    # S9 styles -------------------------------------------------------------------------------------
    w.write("S9 styles", "none-no-drag-tab",
            "interactionStyle none, open: a long downward drag does nothing; the close button (touch at its frame, grabber 174-216 x 47-72) closes; a swipe up on the bar does nothing; tapBar opens.",
            P("none", TB, "open"), swipe(0.1, 195, 300, down20(15), 600) + tap(0.5, 195, 59)
            + swipe(1.2, 195, 730, up20(5), -800) + [call(1.6, "tapBar")])
    w.write("S9 styles", "scroll-bar-not-draggable-tab",
            "interactionStyle scroll, closed: a swipe up on the bar does nothing; tapBar opens; a drag on the content outside any list does nothing.",
            P("scroll"), swipe(0.1, 195, 730, up20(10), -800) + [call(0.5, "tapBar")] + swipe(1.2, 195, 300, down20(15), 600))
    w.write("S9 styles", "scroll-list-closes-tab",
            "interactionStyle scroll, open, 2400 pt list at 0: the list's pan drives the popup and closes it (release +600).",
            P("scroll", TB, "open"), swipe(0.1, 195, 200, down20(16), 600), scroll=LIST, locs=[0.1 + 16 / 120])
    w.write("S9 styles", "snappercent-clamped-nobar",
            "snap style with snapPercent 0.05 (clamped to 0.1: threshold 84.4 pt), open: a pull in 20 pt steps snaps at ty = 100 (R(100) with c = 0.1).",
            dict(P("snap", NB, "open"), snapPercent=0.05), swipe(0.1, 195, 300, down20(8), 600), locs=[0.1 + 4 / 120, 0.1 + 5 / 120])
    w.write("S9 styles", "snappercent-zero-clamped-nobar",
            "snap style with snapPercent 0 (any number is clamped to [0.1, 0.9] like LNPopup's setter: c = 0.1, threshold 84.4 pt), open: a pull in 20 pt steps snaps at ty = 100.",
            dict(P("snap", NB, "open"), snapPercent=0), swipe(0.1, 195, 300, down20(8), 600), locs=[0.1 + 4 / 120, 0.1 + 5 / 120])
    w.write("S9 styles", "snappercent-above-range-clamped-nobar",
            "snap style with snapPercent 1.5 (clamped to 0.9: threshold 759.6 pt; unclamped it could never be passed), open, no bottom bar: a pull in 20 pt steps snaps at ty = 760.",
            dict(P("snap", NB, "open"), snapPercent=1.5), swipe(0.1, 195, 40, down20(40), 900), locs=[0.1 + 37 / 120])
    w.write("S9 styles", "release-rule-455-snap-tab",
            "simulator.releaseRule 4.5.5 in drag style, open: a 440 pt drag released at -50 pt/s re-opens (v.y < 0; 4.5.6 would close, p = 0.42 < 0.5); a 200 pt drag released at v = 0 closes (p = 0.737 < 0.8; 4.5.6 would re-open).",
            dict(P("drag", TB, "open"), simulator={"releaseRule": "4.5.5"}),
            swipe(0.1, 195, 100, down20(22), 600, end_v={"x": 0, "y": -50}) + swipe(1.0, 195, 300, down20(10), 600, end_v={"x": 0, "y": 0}))
    w.write("S9 styles", "compact-bar-d2",
            "D2 (375 x 667, no bottom safe area, 60 Hz), compact bar (40 pt), no bottom bar: dock 667, bar 627-667; a drag-style drag up 200 pt from the bar (location 467) released at -500 pt/s opens.",
            dict(P("drag", NB), bar={"style": "compact"}), swipe(0.1, 180, 650, up20(10), -500, dt=1 / 60),
            env=D2, locs=[0.1 + 10 / 60], device="D2")
    w.write("S9 styles", "interaction-limit-rect-tab",
            "drag style, open, interactionLimitRect (0, 0, 390, 400): a drag beginning at content y 500 does not begin; one at y 200 closes.",
            dict(P("drag", TB, "open"), interactionLimitRect={"x": 0, "y": 0, "width": 390, "height": 400}),
            swipe(0.1, 195, 480, down20(10), 600) + swipe(0.5, 195, 180, down20(10), 600))
    w.write("S9 styles", "glass-close-button-tab",
            "glass: true, tab bar, open: the default bar is 48 pt, the default close button prominentGlass 44 x 44 at (330, 47) (L10); LNPopup never moves the tab bar (bottomBarTop stays 761, L11). A touch tap at (352, 69) closes.",
            dict(P("default", TB, "open"), glass=True), tap(0.1, 352, 69))
    w.write("S9 styles", "glass-drag-close-tab",
            "glass: true, default style, open: a 300 pt drag released at +600 closes; the tab bar stays at 761 during the drag.",
            dict(P("default", TB, "open"), glass=True), swipe(0.1, 195, 200, down20(15), 600), locs=[0.1 + 15 / 120])
    print("wrote %d traces under %s" % (w.count, OUT))


if __name__ == "__main__":
    main()
