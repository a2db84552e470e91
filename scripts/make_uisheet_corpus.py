#!/usr/bin/env python3
"""Writes the UISheetPresentationController trace corpus under traces/uisheet/ (families X1-X9 of
uisheet.md §5, plus detent geometry, options and invalid-free edge cases).

Each trace's description ends with an `expect:` clause computed here from the rules of
../shared/spec/uisheet.md alone, independently of the Swift simulator: a small model of the spec at
sample granularity (`Sheet`) -- detent geometry (§3.1, U1-U3, U32), touch classification and pan
recognition (§3.3, U4), 1:1 following with the rubber bands (§3.3, U9), the crossing and permission
rules (§3.6, U13-U16), the release rule with projection and the fast-flick step (§3.4, U6-U8), the
sheet spring in closed form with its completion test (§3.5, U10, U11), programmatic calls (§3.7),
dimming and dimming taps (§3.8, U18, U19), the scroll hand-off (§3.9, U20-U22), the keyboard (§3.10,
U23, U24), the grabber (§3.11, U31), the dimming fade of a change inside `animateChanges` (§3.8
item 6) and the delegate answer that `setShouldDismiss` changes (§2.2).

Keys of the clause (the last frame unless said otherwise):
  state        selectedDetentIdentifier (`null` while nil)
  location     the sheet's top edge at the end (pt; within 1e-6)
  presented    true/false at the end
  events       every record in order: name, or name(arg) for didChangeSelectedDetentIdentifier
               (identifier) and shouldDismiss (result); `-` for none
  dimming      dimming at the end (within 1e-6)
  contentOffset  the tracked scroll view's offset at the end (within 1e-6)
  dragLocation / dragDimming / dragContentOffset  the values at the last frame with isDragging
               true (the frame that processed the last moved sample of the last sheet drag)
  restAt       the time (s) of the completion frame of the last sheet animation (U11)
  dimmingAt    frame:value pairs joined by `/`: the dimming of those frames while a fade of §3.8
               item 6 runs (every sixth frame from the call's, the last two frames of the fade), the
               frame where it ends (its end value exactly) or the frame where a sheet motion cut it
               (item 2's value there); values within 1e-9

Usage: python3 scripts/make_uisheet_corpus.py   (from anywhere; rewrites traces/uisheet/)
Plain python3, no packages; the output is byte-identical from run to run. It does not write goldens.
"""
import json, math, os, shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = "traces/uisheet"
ORIGIN = "scripts/make_uisheet_corpus.py"

D1 = {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0},
      "displayScale": 3, "frameRate": 120}
D2 = {"container": {"width": 375, "height": 667}, "safeArea": {"top": 20, "left": 0, "bottom": 0, "right": 0},
      "displayScale": 2, "frameRate": 120}
D1_60 = dict(D1, frameRate=60)

MEDIUM = {"identifier": "medium", "kind": "medium"}
LARGE = {"identifier": "large", "kind": "large"}
ML = [MEDIUM, LARGE]
LIST = {"frame": {"x": 0, "y": 20, "width": 390, "height": 767}, "contentSize": {"width": 390, "height": 3000}}

C = 0.55            # rubber-band coefficient (U9)


def pixel_round(x, scale):
    """U3: truncate toward zero at 1e-9, then round half away from zero on the 1/scale grid."""
    x = math.trunc(x * 1e9) / 1e9
    y = x * scale
    r = math.floor(abs(y) + 0.5)
    return math.copysign(r, y) / scale


def band(x, e):
    if e <= 0 or x <= 0:
        return 0.0
    return e * (1 - 1 / (C * x / e + 1))


def unband(y, e):
    if e <= 0 or y <= 0:
        return 0.0
    if y >= e:
        return 1e300
    return y * e / (C * (e - y))


def frame_time(k, rate):
    """Frame k's time in µs (rounded half up), as the replay computes it."""
    return (2 * k * 1_000_000 + rate) // (2 * rate)


def first_frame_at_or_after(t_us, rate):
    return (t_us * rate + 999_999) // 1_000_000


def t_of_frame(k, rate=120):
    """A sample time (s, 6 decimals) processed at frame k: the frame's time floored to 1 µs."""
    return (k * 1_000_000 // rate) / 1e6


def secs(us):
    return "%.6f" % (us / 1e6)


def num(v):
    return int(v) if float(v).is_integer() else v


class Spring:
    """§3.5: the sheet spring toward `target` from y0 with initial velocity v0, started at ts (µs)."""

    def __init__(self, ts, y0, target, v0, zeta, response, kind):
        self.ts, self.y0, self.target, self.v0, self.zeta, self.kind = ts, y0, target, v0, zeta, kind
        self.w = 2 * math.pi / response
        self.d0 = y0 - target

    def state(self, t_us):
        tau = (t_us - self.ts) / 1e6
        w, z, d0, v0 = self.w, self.zeta, self.d0, self.v0
        if z == 1:
            e = math.exp(-w * tau)
            return (d0 + (v0 + w * d0) * tau) * e, (v0 - w * (v0 + w * d0) * tau) * e
        wd = w * math.sqrt(1 - z * z)
        a = (v0 + z * w * d0) / wd
        e = math.exp(-z * w * tau)
        c, s = math.cos(wd * tau), math.sin(wd * tau)
        d = e * (d0 * c + a * s)
        return d, e * (-z * w * (d0 * c + a * s) + wd * (a * c - d0 * s))

    def completion(self, rate):
        k = first_frame_at_or_after(self.ts, rate)
        while True:
            tk = frame_time(k, rate)
            d, dd = self.state(tk)
            if abs(d) < 0.1 and abs(dd) < 5:
                return tk
            k += 1


class Fade:
    """§3.8 item 6: the dimming goes from da to db as da + (db - da) P(tau), P = 1 - (1 + w tau) e^(-w tau)
    (the zeta = 1 sheet spring on a unit distance, tau from the call's sample at ts µs), until 1 - P < 1e-3,
    then db exactly; a sheet motion starting at a sample cuts it (`cut`: that frame and item 2's value)."""

    def __init__(self, ts, da, db, response):
        self.ts, self.da, self.db = ts, da, db
        self.w = 2 * math.pi / response
        self.cut = None

    def value(self, t_us):
        """(fraction, done) at t_us."""
        tau = max(t_us - self.ts, 0) / 1e6
        remaining = (1 + self.w * tau) * math.exp(-self.w * tau)
        if remaining < 1e-3:
            return self.db, True
        return self.da + (self.db - self.da) * (1 - remaining), False

    def frames(self, rate):
        """[(frame, dimming)] of the fade's frames, up to its end or cut frame (a cut by another
        fade's call is that fade's first frame, listed there)."""
        out = []
        k = first_frame_at_or_after(self.ts, rate)
        while True:
            if self.cut is not None and k >= self.cut[0]:
                return out + [self.cut] if self.cut[1] is not None else out
            v, done = self.value(frame_time(k, rate))
            out.append((k, v))
            if done:
                return out
            k += 1


class Sheet:
    """The spec's sheet at sample granularity (see the module comment)."""

    def __init__(self, env, sheet, scroll=None, should_dismiss="default"):
        self.env = json.loads(json.dumps(env))
        self.cfg = sheet
        sim = sheet.get("simulator", {})
        self.sim = sim
        self.rate = env["frameRate"]
        self.detent_specs = sheet.get("detents", [LARGE])
        self.selected = sheet.get("selectedDetentIdentifier")
        self.undimmed = sheet.get("largestUndimmedDetentIdentifier")
        self.prop = sheet.get("prefersScrollingExpandsWhenScrolledToEdge", True)
        self.modal = sheet.get("isModalInPresentation", False)
        self.grabber = sheet.get("prefersGrabberVisible", False)
        self.policy = sheet.get("keyboardPolicy", "uikit")
        self.presented = sheet.get("presented", True)
        self.should = should_dismiss
        self.rate_r = sim.get("projectionRate", 0.99)
        self.min_speed = sim.get("minimumSpeed", 250)
        self.fast = sim.get("fastFlickThreshold", 1000)
        self.response = sim.get("springResponse", 0.3441442326)
        self.events = []
        self.anim = None
        self.last_completion = None
        self.programmatic_dismiss = False
        self.dismissible = True
        self.kb_height = 0
        self.kb_up = False
        self.kb_ignore = False
        self.drag_values = None
        self.fade = None
        self.fades = []
        self.dragging = False
        self.scroll = None
        if scroll is not None:
            self.scroll = {"frame": scroll["frame"], "size": scroll["contentSize"]["height"],
                           "top": -scroll.get("contentInset", {}).get("top", 0),
                           "bottom": scroll.get("contentInset", {}).get("bottom", 0),
                           "offset": scroll.get("contentOffset", {}).get("y", 0),
                           "alwaysBounce": scroll.get("alwaysBounceVertical", False)}
        self.last_scroll_pan_end = None
        self.layout()
        self.loc = self.rest() if self.presented else self.H

    # ---- geometry (§3.1)
    def layout(self):
        env = self.env
        H = self.H = env["container"]["height"]
        st, sb = env["safeArea"]["top"], env["safeArea"]["bottom"]
        self.st, self.sb, self.scale = st, sb, env["displayScale"]
        ios26 = self.sim.get("variant") == "ios26"
        if ios26:
            m = st
        elif "topMargin" in self.sim:
            m = st + self.sim["topMargin"]
        else:
            m = st + (10 if sb > 0 else 20)
        self.yL = pixel_round(m, self.scale)
        F = self.F = H - self.yL
        M = self.M = F - sb
        mv = self.sim.get("mediumValue", "uikit")
        dets = []
        for d in self.detent_specs:
            if d.get("inactive"):
                continue
            if d["kind"] == "large":
                v = M
            elif d["kind"] == "medium":
                if H < 500:
                    continue
                v = H / 2 if mv == "halfHeight" else 0.5 * M if mv == "halfMaximum" else (0.56 if H > 568 else 0.63) * M
            else:
                v = d["height"] if "height" in d else d["fraction"] * M
            v = min(max(v, 0), M)
            dets.append((d.get("identifier", d["kind"]), pixel_round(H - sb - v, self.scale), v))
        # Sorted top to bottom (smallest offset first); equal offsets: the later-listed first.
        order = sorted(range(len(dets)), key=lambda i: (dets[i][1], -i))
        self.dets = [dets[i] for i in order]
        self.Edown = min(max(0.25 * F, 0), 200)

    def ids(self):
        return [d[0] for d in self.dets]

    def shown_detent(self):
        for d in self.dets:
            if d[0] == self.selected:
                return d
        return self.dets[-1]

    def kb_position(self):
        """Candidate 0 while the keyboard is up (§3.10), with whether it is an inserted detent."""
        k = min(self.kb_height, self.F)
        if self.policy == "liftSelected":
            return None
        P0 = self.dets[0][1]
        if P0 > self.yL:
            return pixel_round(max(self.yL, P0 - k), self.scale)
        return None

    def lift_offset(self):
        k = min(self.kb_height, self.F)
        return pixel_round(max(self.yL, self.H - k - self.shown_detent()[2]), self.scale)

    def candidates(self, with_dismiss):
        """(offset, kind, identifier) top to bottom: keyboard detent, detents, dismiss point."""
        c = []
        if self.kb_up and self.policy == "uikit":
            kp = self.kb_position()
            if kp is not None:
                c.append((kp, "kb", None))
        sel = self.shown_detent()[0]
        for (i, off, v) in self.dets:
            if self.kb_up and self.policy == "liftSelected" and i == sel:
                off = self.lift_offset()
            c.append((off, "detent", i))
        c.sort(key=lambda x: x[0])  # stable
        if with_dismiss:
            c.append((self.H, "dismiss", None))
        return c

    def kb_candidate_index(self, c):
        """Index of the keyboard position among candidates c."""
        if self.policy == "liftSelected":
            sel = self.shown_detent()[0]
            return next(i for i, x in enumerate(c) if x[2] == sel)
        return 0

    def rest(self):
        if self.kb_up:
            c = self.candidates(False)
            return c[self.kb_candidate_index(c)][0]
        return self.shown_detent()[1]

    def top_candidate(self):
        return self.candidates(False)[0][0]

    def Eup(self):
        if self.sim.get("variant") == "ios26":
            return 200
        return min(max(self.top_candidate() - self.st, 0), 100)

    def smallest(self):
        return self.dets[-1][1]

    def lower_bound(self):
        return self.H if (self.dismissible and not self.modal) else self.smallest()

    def display(self, u):
        P0, B = self.top_candidate(), self.lower_bound()
        if u < P0:
            return P0 - band(P0 - u, self.Eup())
        if u > B:
            return B + band(u - B, self.Edown)
        return u

    def undisplay(self, y):
        P0, B = self.top_candidate(), self.lower_bound()
        if y < P0:
            return P0 - unband(P0 - y, self.Eup())
        if y > B:
            return B + unband(y - B, self.Edown)
        return y

    def dimming(self, y):
        if not self.presented:
            return 0.0
        offs = [d[1] for d in self.dets]
        ids = self.ids()
        if self.undimmed in ids:
            iu = ids.index(self.undimmed)
            if iu == 0:
                return 0.0
            ydim, ynext = offs[iu - 1], offs[iu]
        else:
            ydim, ynext = offs[-1], self.H
        if ydim == ynext:
            return 1.0 if y <= ydim else 0.0
        return min(max((y - ynext) / (ydim - ynext), 0), 1)

    # ---- animation bookkeeping
    def advance(self, t):
        """Completes the running animation if its completion frame comes before the frame of t."""
        if self.anim is None:
            return
        done = self.anim.completion(self.rate)
        if done < frame_time(first_frame_at_or_after(t, self.rate), self.rate):
            self.finish_anim(done)

    def finish_anim(self, done):
        a = self.anim
        self.anim = None
        self.loc = a.target
        # restAt is seen as the frame where isAttracting turns false; an animation that completes
        # at its own first frame is never shown as running.
        if done > frame_time(first_frame_at_or_after(a.ts, self.rate), self.rate):
            self.last_completion = done
        if a.kind in ("dismiss", "programmaticDismiss"):
            self.presented = False
            self.programmatic_dismiss = False
            if a.kind == "dismiss":
                self.events.append("didDismiss")

    def displayed(self, t):
        if self.anim is None:
            return self.loc, 0.0
        d, dd = self.anim.state(t)
        return self.anim.target + d, dd

    def animate(self, t, target, v0, zeta=1.0, kind="settle"):
        y, _ = self.displayed(t)
        self.anim = Spring(t, y, target, v0, zeta, self.response, kind)
        self.loc = target
        self.cut_fade(t)

    def shown_dimming(self, t, y):
        """The displayed dimming: a running fade's value, else item 2's (§3.8 item 6)."""
        if self.fade is not None:
            v, done = self.fade.value(t)
            if not done:
                return v
        return self.dimming(y)

    def dimming_target(self, t):
        if self.fade is not None:
            return self.fade.db
        return self.dimming(self.displayed(t)[0])

    def cut_fade(self, t):
        """A sheet motion starting at t ends a running fade: from that sample's frame on, item 2."""
        f, self.fade = self.fade, None
        if f is None:
            return
        k = first_frame_at_or_after(t, self.rate)
        if f.value(frame_time(k, self.rate))[1]:
            return
        y = self.anim.target + self.anim.state(frame_time(k, self.rate))[0] if self.anim is not None else self.loc
        f.cut = (k, self.dimming(y) if self.presented else None)

    def dimming_rule_changed(self, t, shown, target, animated):
        """§3.8 item 6 after setLargestUndimmedDetent / setDetents: inside animateChanges with the sheet
        still, a changed target fades from the displayed fraction; otherwise item 2 holds at once."""
        if not (animated and self.anim is None and not self.dragging):
            self.cut_fade(t)
            return
        new = self.dimming(self.loc)
        if new == target:
            return
        old = self.fade
        self.cut_fade(t)
        if shown != new:
            if old is not None and old.cut is not None:
                old.cut = (old.cut[0], None)
            self.fade = Fade(t, shown, new, self.response)
            self.fades.append(self.fade)

    def current_velocity(self, t):
        return self.displayed(t)[1] if self.anim is not None else 0.0

    def ask(self):
        """§3.6 item 1; returns True when dismissal is allowed."""
        if self.modal:
            allowed = False
        elif self.should == "default":
            allowed = True
        else:
            allowed = self.should == "always"
            self.events.append("shouldDismiss(%s)" % ("true" if allowed else "false"))
        self.dismissible = allowed
        return allowed

    def select(self, ident):
        """A user-driven selection (§3.2): nothing changes when `ident` is the detent already shown
        (the worked example of §3.4: a release on the shown smallest detent while the selection is
        nil writes no record and keeps nil)."""
        if ident != self.shown_detent()[0]:
            self.selected = ident
            self.events.append("didChangeSelectedDetentIdentifier(%s)" % ident)

    def finish(self):
        if self.anim is not None:
            self.finish_anim(self.anim.completion(self.rate))


def run(sheet_model, samples, velocity_source="recorded"):
    """Runs the samples through the model; returns the expectation dict."""
    s = sheet_model
    touch = None
    for smp in samples:
        t = round(smp["t"] * 1e6)
        s.advance(t)
        if "touch" in smp:
            ph, x, y = smp["touch"], smp["x"], smp["y"]
            if ph == "began":
                if not s.presented or s.programmatic_dismiss:
                    touch = {"route": "none"}
                    continue
                loc, _ = s.displayed(t)
                touch = {"down": (x, y), "tdown": t, "began": False, "route": None}
                sv = s.scroll
                if y >= loc:
                    inside = sv is not None and sv["frame"]["x"] <= x < sv["frame"]["x"] + sv["frame"]["width"] \
                        and sv["frame"]["y"] <= y - loc < sv["frame"]["y"] + sv["frame"]["height"]
                    # §3.9: scrollable when max > top or alwaysBounceVertical; otherwise the touch
                    # is a sheet pan and never moves the content (item 2, last case).
                    scrollable = inside and (max(sv["top"], sv["size"] + sv["bottom"] - sv["frame"]["height"]) > sv["top"]
                                             or sv["alwaysBounce"])
                    touch["route"] = "scroll" if scrollable else "sheet"
                    touch["scrub_band"] = inside and x >= sv["frame"]["x"] + sv["frame"]["width"] - 16
                else:
                    touch["route"] = "dim" if s.shown_dimming(t, loc) > 0 else "pass"
            elif ph == "moved":
                if touch["route"] in ("none", "pass", "dim"):
                    continue
                dy = y - touch["down"][1]
                dist = math.hypot(x - touch["down"][0], dy)
                if not touch["began"]:
                    if dist >= 10:
                        begin_pan(s, touch, t, y)
                    continue
                pan_changed(s, touch, t, y)
            elif ph in ("ended", "cancelled"):
                r = touch["route"]
                if r == "dim" and ph == "ended":
                    if math.hypot(x - touch["down"][0], y - touch["down"][1]) <= 10:
                        loc, _ = s.displayed(t)
                        if loc > s.yL:
                            accepted_dimming_tap(s, t)
                elif r in ("sheet", "scroll") and touch["began"]:
                    if ph == "ended":
                        # The lift point is the pan's last change (with the crossing rule); the
                        # release follows in the same sample, so no isDragging frame shows it.
                        pan_changed(s, touch, t, y, lift=True)
                    v = smp.get("velocity", {}).get("y", 0.0) if ph == "ended" else 0.0
                    pan_ended(s, touch, t, v)
                touch = None
        elif "call" in smp:
            call(s, smp, t)
        elif "environment" in smp:
            kb = smp["environment"].get("keyboard")
            if kb is not None:
                keyboard(s, kb, t)
    s.finish()
    return s


def begin_pan(s, touch, t, y):
    touch["began"] = True
    touch["ybegin"] = y
    if touch["route"] == "scroll":
        sv = s.scroll
        s0 = sv["offset"]
        touch["s0"] = s0
        scrub = touch["scrub_band"] and t - touch["tdown"] >= 500_000
        touch["scrub"] = scrub
        eligible = pixel_round(s0, s.scale) <= sv["top"] and not scrub
        if eligible and s.last_scroll_pan_end is not None and touch["tdown"] - s.last_scroll_pan_end < 400_000:
            eligible = s.anim is not None or not s.ask()
        touch["eligible"] = eligible
        touch["sheet_drag"] = False
        touch["u0"] = s.displayed(t)[0]
        return
    start_sheet_drag(s, touch, t)


def start_sheet_drag(s, touch, t):
    y, _ = s.displayed(t)
    caught_dismiss = s.anim is not None and s.anim.kind == "dismiss"
    s.anim = None
    s.loc = y
    s.cut_fade(t)
    touch["dismissing"] = caught_dismiss
    touch["refused"] = False
    if caught_dismiss:
        s.dismissible = True
    touch["u0"] = s.undisplay(y)
    touch["u"] = touch["u0"]
    touch["sheet_drag"] = True
    s.dragging = True
    crossing(s, touch)


def crossing(s, touch):
    u = touch["u"]
    if u > s.smallest():
        if not touch["dismissing"] and not touch["refused"]:
            if s.ask():
                s.events.append("willDismiss")
                touch["dismissing"] = True
            else:
                touch["refused"] = True
    else:
        touch["dismissing"] = False
        touch["refused"] = False


def pan_changed(s, touch, t, y, lift=False):
    ty = y - touch["down"][1]
    if touch["route"] == "sheet":
        touch["u"] = touch["u0"] + ty
        crossing(s, touch)
        s.loc = s.display(touch["u"])
        if not lift:
            record_drag(s, touch)
        return
    sv = s.scroll
    if touch["scrub"]:
        C_ = sv["size"] + (-sv["top"]) + sv["bottom"]
        hi = max(sv["top"], sv["size"] + sv["bottom"] - sv["frame"]["height"])
        sv["offset"] = min(max(touch["s0"] + (y - touch["ybegin"]) * C_ / sv["frame"]["height"], sv["top"]), hi)
        return
    if not touch["eligible"]:
        content_pan(s, touch, ty)
        return
    s0, top = touch["s0"], sv["top"]
    if ty <= 0:
        if s.prop:
            cap = s.top_candidate() - touch["u0"]
            sheet_part = max(ty, min(cap, 0))
        else:
            sheet_part = 0.0
        # The remainder scrolls the content by O6 (U29): rubber band past the bottom edge.
        content = banded_offset(sv, s0 - (ty - sheet_part)) if ty != sheet_part else s0
    else:
        excess = ty - (s0 - top)
        if excess > 0:
            sheet_part, content = excess, top
        else:
            sheet_part, content = 0.0, s0 - ty
    touch["content_at_rest"] = (ty == sheet_part) if ty <= 0 else (content == top and sheet_part > 0)
    sv["offset"] = content
    if sheet_part != 0 and not touch["sheet_drag"]:
        u0 = touch["u0"]
        start_sheet_drag(s, touch, t)
        touch["u0"] = u0
    if touch["sheet_drag"]:
        touch["u"] = touch["u0"] + sheet_part
        crossing(s, touch)
        s.loc = s.display(touch["u"])
    if not lift:
        record_drag(s, touch)


def banded_offset(sv, raw):
    """O6: the offset shown for the finger-driven raw offset, rubber band d = frame height past an edge."""
    lo, hi = sv["top"], max(sv["top"], sv["size"] + sv["bottom"] - sv["frame"]["height"])
    d = sv["frame"]["height"]
    if raw < lo:
        return lo - band(lo - raw, d)
    if raw > hi:
        return hi + band(raw - hi, d)
    return raw


def content_pan(s, touch, ty):
    """O6 for a pan the sheet does not take part in: offset = s0 - ty with the rubber band."""
    s.scroll["offset"] = banded_offset(s.scroll, touch["s0"] - ty)


def record_drag(s, touch):
    if touch.get("sheet_drag"):
        s.drag_values = (s.loc, s.dimming(s.loc), s.scroll["offset"] if s.scroll else None)


def content_release(s, t, v):
    """O7: decelerate from inside the range (v pt/s of the finger), or return to the edge."""
    sv = s.scroll
    lo, hi = sv["top"], max(sv["top"], sv["size"] + sv["bottom"] - sv["frame"]["height"])
    off = sv["offset"]
    if off < lo or off > hi:
        sv["offset"] = min(max(off, lo), hi)
        return
    if v == 0:
        return
    lam = 1000 * math.log(0.998)
    q = math.exp(lam * (1 / s.rate))
    w = -v
    while True:
        delta = w * (q - 1) / lam
        nxt = sv["offset"] + delta
        stop = abs(delta) < 1 / s.scale
        if nxt < lo or nxt > hi:
            nxt = min(max(nxt, lo), hi)
            stop = True
        sv["offset"] = nxt
        w *= q
        if stop:
            return


def pan_ended(s, touch, t, v):
    if touch["route"] == "scroll":
        s.last_scroll_pan_end = t
        if touch.get("scrub"):
            return
        if not touch["sheet_drag"]:
            content_release(s, t, v)
            return
        if not touch.get("content_at_rest", True):
            content_release(s, t, v)
            v = 0.0
    release(s, touch, t, v)


def release(s, touch, t, v):
    s.dragging = False
    u = touch["u"]
    y = s.display(u)
    dismissible = s.dismissible and not s.modal
    cands = s.candidates(dismissible)
    P = [c[0] for c in cands]
    ve = v if (s.min_speed == 0 or abs(v) >= s.min_speed) else 0.0
    r = s.rate_r
    p = u + ve * r / (1 - r) / 1000

    def nearest(x):
        best = 0
        for i in range(len(P)):
            if abs(P[i] - x) < abs(P[best] - x):
                best = i
        return best
    iC, iP = nearest(u), nearest(p)
    if s.fast > 0 and abs(v) >= s.fast and iC == iP and ((u < P[iC]) == (v < 0)):
        i = max(iC - 1, 0) if v < 0 else min(iC + 1, len(P) - 1)
    else:
        i = iP
    zeta = 0.8 if abs(v) >= 1000 else 1.0
    target = cands[i]
    if target[1] == "dismiss":
        if not touch["dismissing"]:
            if s.ask():
                s.events.append("willDismiss")
                touch["dismissing"] = True
            else:
                # U15: refused at the release -> the smallest detent, no didAttemptToDismiss.
                target = [c for c in cands if c[1] == "detent" and c[2] == s.dets[-1][0]][0]
        if touch["dismissing"]:
            s.anim = Spring(t, y, s.H, v, zeta, s.response, "dismiss")
            s.loc = s.H
            return
    if s.kb_up:
        kb_index = s.kb_candidate_index(s.candidates(False))
        if cands.index(target) != kb_index:
            s.events.append("endEditing")
            s.kb_up = False
            s.kb_ignore = True
            # Re-resolve the target without the keyboard position.
            if target[1] == "detent":
                target = (dict((d[0], d[1]) for d in s.dets)[target[2]], "detent", target[2])
    if target[1] == "detent":
        s.select(target[2])
    if touch["refused"] and y - s.smallest() > 0.25 * s.Edown:
        s.events.append("didAttemptToDismiss")
    s.anim = Spring(t, y, target[0], v, zeta, s.response, "settle")
    s.loc = target[0]


def accepted_dimming_tap(s, t, allow_select=True):
    v0 = s.current_velocity(t)
    if s.ask():
        s.events.append("willDismiss")
        s.animate(t, s.H, v0, 1.0, "dismiss")
    elif allow_select and s.undimmed in s.ids():
        s.select(s.undimmed)
        s.animate(t, s.rest(), v0)


def keyboard(s, kb, t):
    h = kb.get("height", 0) if kb.get("firstResponderInSheet", True) else 0
    if s.policy == "ignore":
        return
    if h == 0:
        s.kb_ignore = False
        s.kb_height = 0
        if s.kb_up:
            s.kb_up = False
            if s.presented:
                s.animate(t, s.rest(), s.current_velocity(t))
        return
    if s.kb_ignore or not s.presented:
        return
    s.kb_height = h
    s.kb_up = True
    s.animate(t, s.rest(), s.current_velocity(t))


def call(s, smp, t):
    name = smp["call"]
    if not s.presented and name != "present":
        return
    if name == "present":
        if s.presented:
            return
        s.presented = True
        s.dismissible = True
        if smp.get("animated", True):
            s.loc = s.H
            s.anim = Spring(t, s.H, s.rest(), 0.0, 1.0, s.response, "present")
            s.loc = s.rest()
        else:
            s.loc = s.rest()
    elif name == "dismiss":
        if smp.get("animated", True):
            s.programmatic_dismiss = True
            s.animate(t, s.H, s.current_velocity(t), 1.0, "programmaticDismiss")
        else:
            s.anim = None
            s.presented = False
            s.loc = s.H
    elif name in ("selectDetent", "setDetents"):
        animated = smp.get("animateChanges", False)
        shown, target = s.shown_dimming(t, s.displayed(t)[0]), s.dimming_target(t)
        if name == "selectDetent":
            s.selected = smp.get("identifier")
        else:
            s.detent_specs = smp["detents"]
            s.layout()
        if not s.dragging:
            # A still sheet already at its new rest offset does not move (§3.7).
            if animated and (s.anim is not None or s.rest() != s.loc):
                s.animate(t, s.rest(), s.current_velocity(t))
            else:
                if s.anim is not None or s.rest() != s.loc:
                    s.cut_fade(t)
                s.anim = None
                s.loc = s.rest()
        if name == "setDetents":
            s.dimming_rule_changed(t, shown, target, animated)
    elif name == "setLargestUndimmedDetent":
        shown, target = s.shown_dimming(t, s.displayed(t)[0]), s.dimming_target(t)
        s.undimmed = smp.get("identifier")
        s.dimming_rule_changed(t, shown, target, smp.get("animateChanges", False))
    elif name == "setModalInPresentation":
        s.modal = smp["value"]
    elif name == "setShouldDismiss":
        # §2.2: the delegate's answer from this sample on (the header's is "always" or "never").
        s.should = "always" if smp["value"] else "never"
    elif name == "setPrefersScrollingExpands":
        s.prop = smp["value"]
    elif name == "tapDimming":
        y, _ = s.displayed(t)
        if s.shown_dimming(t, y) > 0 and y > s.yL:
            accepted_dimming_tap(s, t)
    elif name == "tapGrabber":
        if not s.grabber:
            return
        if s.kb_up:
            s.events.append("endEditing")
            s.kb_up = False
            s.kb_ignore = True
            s.animate(t, s.rest(), s.current_velocity(t))
            return
        if len(s.dets) == 1:
            v0 = s.current_velocity(t)
            if s.ask():
                s.events.append("willDismiss")
                s.animate(t, s.H, v0, 1.0, "dismiss")
            return
        ids = s.ids()
        i = ids.index(s.shown_detent()[0])
        nxt = ids[i - 1] if i > 0 else ids[-1]
        s.select(nxt)
        s.animate(t, s.rest(), s.current_velocity(t))


# ------------------------------------------------------------------------------------------------
# Gestures

class Gestures:
    def __init__(self, rate=120):
        self.rate = rate
        self.samples = []
        self.k = 0   # current frame

    def at(self, k):
        self.k = max(self.k, k)
        return t_of_frame(self.k, self.rate)

    def wait(self, frames):
        self.k += frames

    def drag(self, x, y0, dy, v, frames=12, start=None, hold=0, cancel=False, x1=None, steps=None, lift=None):
        """Touch-down at (x, y0), `hold` frames still, a 10 pt move that begins the pan (in dy's
        direction), then `frames` moves reaching y0 + dy, then ended there with velocity v (or at
        y = `lift`, the lift point of the ended sample, when given)."""
        if start is not None:
            self.k = start
        sign = 1 if dy >= 0 else -1
        self.samples.append({"t": self.at(self.k), "touch": "began", "x": x, "y": num(y0)})
        self.k += 1 + hold
        self.samples.append({"t": self.at(self.k), "touch": "moved", "x": x, "y": num(y0 + 10 * sign)})
        path = steps if steps is not None else [y0 + dy * (i + 1) / frames for i in range(frames)]
        for yy in path:
            self.k += 1
            self.samples.append({"t": self.at(self.k), "touch": "moved", "x": x, "y": num(round(yy, 6))})
        self.k += 1
        yend = path[-1] if lift is None else lift
        if cancel:
            self.samples.append({"t": self.at(self.k), "touch": "cancelled", "x": x, "y": num(round(yend, 6))})
        else:
            self.samples.append({"t": self.at(self.k), "touch": "ended", "x": x, "y": num(round(yend, 6)),
                                 "velocity": {"x": 0, "y": num(v)}})
        self.k += 1

    def tap(self, x, y, hold=2):
        self.samples.append({"t": self.at(self.k), "touch": "began", "x": x, "y": y})
        self.k += hold
        self.samples.append({"t": self.at(self.k), "touch": "ended", "x": x, "y": y, "velocity": {"x": 0, "y": 0}})
        self.k += 1

    def call(self, name, **fields):
        s = {"t": self.at(self.k), "call": name}
        s.update(fields)
        self.samples.append(s)
        self.k += 1

    def keyboard(self, height, first=True):
        self.samples.append({"t": self.at(self.k), "environment": {"keyboard": {
            "height": height, "duration": 0.25, "curve": 7, "firstResponderInSheet": first}}})
        self.k += 1

    def end(self):
        self.samples.append({"t": self.at(self.k), "end": True})


# ------------------------------------------------------------------------------------------------
# Writing

WRITTEN = []


def fmt(x):
    return "%.6f" % (x + 0.0)


def expectation(s):
    out = []
    out.append("state=%s" % (s.selected if s.selected is not None else "null"))
    out.append("location=%s" % fmt(s.loc))
    out.append("presented=%s" % ("true" if s.presented else "false"))
    out.append("events=%s" % (",".join(s.events) if s.events else "-"))
    out.append("dimming=%s" % fmt(s.dimming(s.loc)))
    if s.scroll is not None:
        out.append("contentOffset=%s" % fmt(s.scroll["offset"]))
    if s.drag_values is not None:
        out.append("dragLocation=%s" % fmt(s.drag_values[0]))
        out.append("dragDimming=%s" % fmt(s.drag_values[1]))
        if s.drag_values[2] is not None:
            out.append("dragContentOffset=%s" % fmt(s.drag_values[2]))
    if s.last_completion is not None:
        out.append("restAt=%s" % secs(s.last_completion))
    pairs = []
    for f in s.fades:
        frames = f.frames(s.rate)
        keep = set(range(0, len(frames), 6)) | {len(frames) - 3, len(frames) - 2, len(frames) - 1}
        pairs += ["%d:%.12f" % (frames[i][0], frames[i][1] + 0.0) for i in sorted(keep) if i >= 0]
    if pairs:
        out.append("dimmingAt=" + "/".join(pairs))
    return " ".join(out)


def write(family, name, text, g, env=D1, sheet=None, scroll=None, should="default", recognizer=None):
    sheet = dict(sheet or {})
    sheet.setdefault("detents", ML)
    header = {"format": "panelsim-trace", "version": 1, "model": "uisheet", "name": name, "description": "",
              "source": {"kind": "synthetic", "origin": ORIGIN, "device": "D2" if env is D2 else "D1"},
              "environment": env, "sheet": sheet}
    if should != "default":
        header["sheetDelegate"] = {"shouldDismiss": should}
    if scroll is not None:
        header["scrollView"] = scroll
    header["recognizer"] = recognizer or {"velocity": "recorded", "beginThreshold": 10}
    model = run(Sheet(env, sheet, scroll, should), g.samples)
    header["description"] = text + " expect: " + expectation(model)
    path = os.path.join(ROOT, OUT, family, name + ".jsonl")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(json.dumps(header, separators=(", ", ": "), ensure_ascii=False) + "\n")
        for smp in g.samples:
            f.write(json.dumps(smp, separators=(", ", ": "), ensure_ascii=False) + "\n")
    WRITTEN.append(path)


MED = 388 + 1 / 3   # D1 medium offset (§3.1 item 4)


def corpus():
    # X1 slow drags: releases at rest on both sides of the midpoint 222.667
    for name, dy in [("x1-medium-up-short", -160), ("x1-medium-up-past-mid", -170),
                     ("x1-medium-up-to-mid", -(MED - (MED + 57) / 2))]:
        g = Gestures(); g.wait(2); g.drag(195, 500, dy, 0)
        write("x1", name, "Slow drag up from medium released at rest, finger %s pt." % num(round(dy, 6)), g)
    for name, dy in [("x1-large-down-short", 160), ("x1-large-down-past-mid", 170)]:
        g = Gestures(); g.wait(2); g.drag(195, 200, dy, 0)
        write("x1", name, "Slow drag down from large released at rest, finger %s pt." % dy, g,
              sheet={"selectedDetentIdentifier": "large"})
    # The ended sample's location is the pan's last change (docs/uisheet.md): u = 388.333 - 200
    g = Gestures(); g.wait(2); g.drag(195, 500, -20, 0, frames=1, lift=300)
    write("x1", "x1-lift-point-counts", "Last moved 20 pt above medium, lifted 200 pt above it at rest: u = 188.333 -> large.", g)
    # X2 projection and the fast-flick rule
    for v in (950, 1000, 1050):
        g = Gestures(); g.wait(2); g.drag(195, 500, -15, -v, frames=3)
        write("x2", "x2-medium-up-15-v%d" % v, "Short flick up from medium at %d pt/s (fast-flick rule at 1000)." % v, g)
    for v in (950, 1050):
        g = Gestures(); g.wait(2); g.drag(195, 200, 15, v, frames=3)
        write("x2", "x2-large-down-15-v%d" % v, "Short flick down from large at %d pt/s." % v, g,
              sheet={"selectedDetentIdentifier": "large"})
    g = Gestures(); g.wait(2); g.drag(195, 500, 10.5, 1100, frames=2)
    write("x2", "x2-medium-down-fast-dismiss", "Short fast flick down from the smallest detent dismisses (Q4).", g)
    g = Gestures(); g.wait(2); g.drag(195, 500, -30, -1500, frames=4)
    write("x2", "x2-medium-projection-large", "Flick up 30 pt at 1500 pt/s: the projection picks large.", g)
    g = Gestures(); g.wait(2); g.drag(195, 200, 40, 3000, frames=4)
    write("x2", "x2-large-down-3000", "Flick down 40 pt from large at 3000 pt/s: projection to medium.", g,
          sheet={"selectedDetentIdentifier": "large"})
    for v in (240, 260):
        g = Gestures(); g.wait(2); g.drag(195, 500, -160, -v)
        write("x2", "x2-gate-v%d" % v, "Release 160 pt above medium at %d pt/s, around the 250 pt/s gate." % v, g)
    g = Gestures(); g.wait(2); g.drag(195, 500, -100, -200)
    write("x2", "x2-slow-small", "100 pt up at 200 pt/s: stays at medium.", g)
    g = Gestures(); g.wait(2); g.drag(195, 500, -30, -1500, frames=4)
    write("x2", "x2-option-no-fast-rule", "fastFlickThreshold 0 and projectionRate 0.98 (options).", g,
          sheet={"simulator": {"fastFlickThreshold": 0, "projectionRate": 0.98}})
    # X3 several detents
    small = {"identifier": "small", "kind": "custom", "height": 150}
    half = {"identifier": "half", "kind": "custom", "fraction": 0.5}
    g = Gestures(); g.wait(2); g.drag(195, 700, -20, -5000, frames=3)
    write("x3", "x3-small-hard-flick", "From 660, a hard flick up lands on large (medium skipped).", g,
          sheet={"detents": [small, MEDIUM, LARGE]})
    g = Gestures(); g.wait(2); g.drag(195, 700, -260, 0)
    write("x3", "x3-small-to-half", "Custom height and fraction detents, slow drag from 660 to about 400.", g,
          sheet={"detents": [small, half, LARGE]})
    g = Gestures(); g.wait(2); g.drag(195, 700, -20, -1200, frames=3)
    write("x3", "x3-fast-step", "Fast short flick from 660 steps one detent up.", g,
          sheet={"detents": [small, half, MEDIUM, LARGE]})
    g = Gestures(); g.wait(2); g.drag(195, 700, 60, 0)
    write("x3", "x3-inactive-and-unsorted", "An inactive detent and an unsorted list; slow drag down from 660.", g,
          sheet={"detents": [LARGE, {"identifier": "gone", "kind": "custom", "height": 300, "inactive": True}, small]})
    # X4 dismissal
    g = Gestures(); g.wait(2); g.drag(195, 500, 300, 0, frames=20)
    write("x4", "x4-slow-past-mid", "Slow drag 300 pt below medium (past the midpoint to H) dismisses.", g)
    g = Gestures(); g.wait(2); g.drag(195, 500, 100, 0)
    write("x4", "x4-started-cancelled", "Drag 100 pt below medium and release at rest: willDismiss, no didDismiss (Q1).", g)
    g = Gestures(); g.wait(2); g.drag(195, 500, 100, 0)
    write("x4", "x4-always-started-cancelled", "As above with shouldDismiss always.", g, should="always")
    for d in (60, 119, 121, 200):
        g = Gestures(); g.wait(2); g.drag(195, 500, d, 0)
        write("x4", "x4-modal-pull-%d" % d, "Modal, pull %d pt below medium (attempt past 49.19 pt shown)." % d, g,
              sheet={"isModalInPresentation": True})
    g = Gestures(); g.wait(2); g.drag(195, 500, 200, 0)
    write("x4", "x4-never-pull-200", "shouldDismiss never, pull 200 pt below medium.", g, should="never")
    g = Gestures(); g.wait(2); g.drag(195, 100, 600, 0, frames=30)
    write("x4", "x4-modal-large-far", "Modal, drag from large to far below medium: selection record, then attempt.", g,
          sheet={"isModalInPresentation": True, "selectedDetentIdentifier": "large"})
    path = [500 + 150 * (i + 1) / 10 for i in range(10)] + [650 - 200 * (i + 1) / 10 for i in range(10)] + \
           [450 + 250 * (i + 1) / 10 for i in range(10)]
    g = Gestures(); g.wait(2); g.drag(195, 500, 200, 0, steps=path)
    write("x4", "x4-never-twice", "shouldDismiss never: down 150, up 200, down 250: asked twice, one attempt.", g,
          should="never")
    g = Gestures(); g.wait(2); g.drag(195, 500, 200, 0, steps=path)
    write("x4", "x4-always-twice", "shouldDismiss always: down, back up, down again: willDismiss twice.", g,
          should="always")
    g = Gestures(); g.wait(2); g.drag(195, 200, 60, 6000, frames=4)
    write("x4", "x4-never-flick-from-large", "shouldDismiss never, flick from large whose projection passes H without a crossing (U15).", g,
          should="never", sheet={"selectedDetentIdentifier": "large"})
    g = Gestures(); g.wait(2); g.drag(195, 200, 60, 6000, frames=4)
    write("x4", "x4-flick-from-large-dismiss", "The same flick with the default delegate: asked at the release, dismissed.", g,
          sheet={"selectedDetentIdentifier": "large"})
    g = Gestures(); g.wait(2); g.drag(195, 200, 60, 2500, frames=4)
    write("x4", "x4-never-single-detent", "Only large, shouldDismiss never: the pull crosses at once and is refused.", g,
          should="never", sheet={"detents": [LARGE]})
    for lift, text in [(700, "below medium but before the midpoint to H: asked, willDismiss, back to medium (Q1)"),
                       (800, "past the midpoint to H: asked, dismissed")]:
        g = Gestures(); g.wait(2); g.drag(195, 500, -20, 0, steps=[480], lift=lift)
        write("x4", "x4-always-crossing-at-lift-%d" % lift,
              "shouldDismiss always; the crossing happens only at the lift point (y %d), %s." % (lift, text), g,
              should="always")
    # §2.2 setShouldDismiss: the "unsaved changes" flow (a form that becomes dirty, then is saved).
    g = Gestures(); g.wait(2); g.call("setShouldDismiss", value=False); g.wait(2); g.drag(195, 500, 200, 0)
    g.wait(80); g.call("setShouldDismiss", value=True); g.wait(2); g.drag(195, 500, 300, 0, frames=20)
    write("x4", "x4-dirty-form-swipes", "shouldDismiss always until the form becomes dirty (setShouldDismiss false): a pull 200 pt below medium is refused with didAttemptToDismiss; saved (setShouldDismiss true), a slow drag 300 pt down dismisses.", g,
          should="always")
    g = Gestures(); g.wait(2); g.tap(195, 200); g.wait(10); g.call("setShouldDismiss", value=True); g.wait(2); g.tap(195, 200)
    write("x4", "x4-dirty-form-taps", "shouldDismiss never (dirty form), no undimmed detent: a dimming tap is refused and nothing happens; after setShouldDismiss true the next tap dismisses.", g,
          should="never")
    g = Gestures(); g.wait(2); g.drag(195, 500, 100, 0, cancel=True)
    write("x4", "x4-cancelled-touch", "A cancelled touch 100 pt below medium releases with v = 0.", g)
    g = Gestures(); g.wait(2); g.drag(195, 500, 150, 900, frames=6)
    g.wait(4); g.drag(195, 840, -300, 0, frames=10)
    write("x4", "x4-catch-dismissal", "A swipe dismissal caught by a new pan, pushed back to medium.", g)
    # X6 programmatic
    g = Gestures(); g.wait(2); g.call("selectDetent", identifier="large", animateChanges=True)
    write("x6", "x6-select-animated", "selectDetent large inside animateChanges: spring, no record.", g)
    g = Gestures(); g.wait(2); g.call("selectDetent", identifier="large")
    write("x6", "x6-select-instant", "selectDetent large without animateChanges: jumps, no record.", g)
    g = Gestures(); g.wait(2); g.call("selectDetent", identifier="large", animateChanges=True); g.wait(10)
    g.call("selectDetent", identifier="medium", animateChanges=True)
    write("x6", "x6-select-during-animation", "A second selectDetent during the first animation.", g)
    g = Gestures(); g.wait(2)
    g.samples.append({"t": t_of_frame(2), "touch": "began", "x": 195, "y": 500})
    g.samples.append({"t": t_of_frame(3), "touch": "moved", "x": 195, "y": 490})
    g.samples.append({"t": t_of_frame(4), "touch": "moved", "x": 195, "y": 480})
    g.k = 5; g.call("selectDetent", identifier="large", animateChanges=True)
    g.samples.append({"t": t_of_frame(6), "touch": "moved", "x": 195, "y": 470})
    g.samples.append({"t": t_of_frame(7), "touch": "ended", "x": 195, "y": 470, "velocity": {"x": 0, "y": 0}})
    g.k = 8
    write("x6", "x6-select-during-drag", "selectDetent during a drag changes the selection only; the release returns to medium and records it.", g)
    g = Gestures(); g.wait(2); g.call("setDetents", detents=[LARGE], animateChanges=True)
    write("x6", "x6-set-detents-removes-selected", "setDetents drops medium (selected): the sheet shows large.", g,
          sheet={"selectedDetentIdentifier": "medium"})
    g = Gestures(); g.wait(2); g.call("dismiss"); g.wait(80); g.call("present")
    write("x6", "x6-dismiss-present", "dismiss then present: no records.", g)
    g = Gestures(); g.wait(2); g.call("present", animated=False)
    write("x6", "x6-present-instant", "Not presented at t = 0; present without animation.", g,
          sheet={"presented": False})
    g = Gestures(); g.wait(2); g.call("present"); g.wait(80); g.drag(195, 600, -100, 0)
    write("x6", "x6-present-then-drag", "Presented by a call, then dragged up 100 pt.", g, sheet={"presented": False})
    g = Gestures(); g.wait(2); g.call("dismiss"); g.wait(3); g.drag(195, 600, -100, 0)
    write("x6", "x6-touch-during-dismiss", "Touches during a programmatic dismissal are ignored.", g)
    # X7 keyboard
    compact = {"identifier": "compact", "kind": "custom", "height": 120}
    g = Gestures(); g.wait(2); g.keyboard(336)
    write("x7", "x7-compact-large-up", "B27: compact + large, keyboard 336: the sheet goes to 57, state stays compact.", g,
          sheet={"detents": [compact, LARGE], "selectedDetentIdentifier": "compact"})
    g = Gestures(); g.wait(2); g.keyboard(336); g.wait(80); g.keyboard(0)
    write("x7", "x7-compact-large-hide", "B27 keyboard shown then hidden: back to 690.", g,
          sheet={"detents": [compact, LARGE], "selectedDetentIdentifier": "compact"})
    g = Gestures(); g.wait(2); g.keyboard(336)
    write("x7", "x7-compact-only", "Only the compact detent: keyboard detent at 354.", g,
          sheet={"detents": [compact], "selectedDetentIdentifier": "compact"})
    g = Gestures(); g.wait(2); g.keyboard(336)
    write("x7", "x7-medium-large", "Medium + large with the keyboard: 57.", g)
    g = Gestures(); g.wait(2); g.keyboard(336)
    write("x7", "x7-lift-selected", "liftSelected: 844 - 336 - 120 = 388.", g,
          sheet={"detents": [compact, LARGE], "selectedDetentIdentifier": "compact", "keyboardPolicy": "liftSelected"})
    g = Gestures(); g.wait(2); g.keyboard(336)
    write("x7", "x7-ignore", "ignore: the keyboard does not move the sheet.", g,
          sheet={"detents": [compact, LARGE], "selectedDetentIdentifier": "compact", "keyboardPolicy": "ignore"})
    g = Gestures(); g.wait(2); g.keyboard(336); g.wait(80); g.drag(195, 200, 500, 0, frames=20)
    g.wait(80); g.keyboard(336)
    write("x7", "x7-drag-ends-editing", "Keyboard up, drag from 57 down 500 pt: endEditing, back at 690; a later keyboard sample is ignored.", g,
          sheet={"detents": [compact, LARGE], "selectedDetentIdentifier": "compact"})
    g = Gestures(); g.wait(2); g.keyboard(336); g.wait(80); g.drag(195, 200, 30, 0)
    write("x7", "x7-drag-keeps-editing", "Keyboard up, small drag released back on 57: keeps editing, selection becomes large.", g,
          sheet={"detents": [compact, LARGE], "selectedDetentIdentifier": "compact"})
    g = Gestures(); g.wait(2); g.keyboard(336, first=False)
    write("x7", "x7-not-first-responder", "The first responder is outside the sheet: no adjustment.", g,
          sheet={"detents": [compact, LARGE], "selectedDetentIdentifier": "compact"})
    # X8 dimming
    for und in (None, "medium", "large"):
        g = Gestures(); g.wait(2); g.tap(195, 200)
        write("x8", "x8-tap-undimmed-%s" % (und or "nil"), "Tap above medium with largestUndimmedDetentIdentifier %s." % und, g,
              sheet={"largestUndimmedDetentIdentifier": und})
    g = Gestures(); g.wait(2); g.tap(195, 200)
    write("x8", "x8-tap-modal-undimmed-nil", "Modal tap above medium, nothing undimmed: nothing happens.", g,
          sheet={"isModalInPresentation": True})
    g = Gestures(); g.wait(2); g.tap(195, 200)
    write("x8", "x8-tap-never-undimmed-small", "shouldDismiss never, undimmed small, at medium: the refused tap selects small.", g,
          should="never", sheet={"detents": [small, MEDIUM, LARGE], "selectedDetentIdentifier": "medium",
                                 "largestUndimmedDetentIdentifier": "small"})
    g = Gestures(); g.wait(2); g.tap(195, 30)
    write("x8", "x8-tap-at-large", "At large the area above the sheet does not dismiss.", g,
          sheet={"selectedDetentIdentifier": "large"})
    g = Gestures(); g.wait(2); g.drag(195, 500, -(MED - (MED + 57) / 2) + 20, 0)
    write("x8", "x8-fraction-during-drag", "Undimmed medium: the dimming follows the drag (about 0.44 near the midpoint).", g,
          sheet={"largestUndimmedDetentIdentifier": "medium"})
    g = Gestures(); g.wait(2); g.call("tapDimming")
    write("x8", "x8-tap-dimming-call", "A tapDimming call dismisses.", g)
    g = Gestures(); g.wait(2); g.call("tapGrabber"); g.wait(80); g.call("tapGrabber")
    write("x8", "x8-grabber-wraps", "Grabber taps: medium -> large -> medium.", g, sheet={"prefersGrabberVisible": True})
    g = Gestures(); g.wait(2); g.call("setLargestUndimmedDetent", identifier="medium")
    write("x8", "x8-set-undimmed", "setLargestUndimmedDetent medium at medium: dimming 0.", g)
    # §3.8 item 6: dimming changes inside animateChanges fade while the sheet is still.
    g = Gestures(); g.wait(2); g.call("setLargestUndimmedDetent", identifier="medium", animateChanges=True)
    write("x8", "x8-fade-out", "setLargestUndimmedDetent medium inside animateChanges at medium: the dimming fades from 1 to 0 along the sheet spring's progress.", g)
    g = Gestures(); g.wait(2); g.call("setLargestUndimmedDetent", identifier=None, animateChanges=True)
    write("x8", "x8-fade-in", "Undimmed medium, setLargestUndimmedDetent nil inside animateChanges at medium: the dimming fades from 0 to 1.", g,
          sheet={"largestUndimmedDetentIdentifier": "medium"})
    g = Gestures(); g.wait(2); g.call("setLargestUndimmedDetent", identifier="medium", animateChanges=True)
    g.wait(12); g.drag(195, 500, -100, 0)
    write("x8", "x8-fade-cut-by-drag", "The fade from 1 to 0 cut short by a drag up 100 pt: from the frame the pan begins, the dimming follows the offset (item 2).", g)
    g = Gestures(); g.wait(2); g.call("setLargestUndimmedDetent", identifier="medium", animateChanges=True)
    g.wait(30); g.tap(195, 200)
    write("x8", "x8-fade-tap-during-fade", "A tap above the sheet during the fade from 1 to 0 meets the displayed dimming (about 0.06), not the new 0: the dimming view takes it and it dismisses; the dismissal's motion ends the fade.", g)
    extra = {"identifier": "extra", "kind": "custom", "height": 500}
    g = Gestures(); g.wait(2); g.call("setDetents", detents=[extra, MEDIUM, LARGE], animateChanges=True)
    write("x8", "x8-fade-set-detents", "Undimmed 'extra' (not yet a detent, so nil): setDetents adds it at 310 above medium inside animateChanges; the sheet stays at medium and the dimming fades from 1 to 0.", g,
          sheet={"largestUndimmedDetentIdentifier": "extra"})
    # X9 rubber bands
    g = Gestures(); g.wait(2); g.drag(195, 200, -100, 0)
    write("x9", "x9-above-large", "Finger 100 pt up at large: 48.538 (extent 10).", g, sheet={"selectedDetentIdentifier": "large"})
    g = Gestures(); g.wait(2); g.drag(195, 500, -100 - (MED - 47), 0, frames=20)
    write("x9", "x9-above-medium-only", "Medium as the largest detent: extent 100.", g, sheet={"detents": [MEDIUM]})
    g = Gestures(); g.wait(2); g.drag(195, 500, 200, 0)
    write("x9", "x9-below-modal", "Modal, 200 pt below medium: 458.888 (extent 196.75).", g,
          sheet={"isModalInPresentation": True})
    # X5 hand-off
    g = Gestures(); g.wait(2); g.drag(195, 500, -500, 0, frames=25)
    write("x5", "x5-handoff-expands", "Content at top, finger up 500: sheet 331.333, content 168.667.", g, scroll=LIST)
    g = Gestures(); g.wait(2); g.drag(195, 500, -500, 0, frames=25)
    write("x5", "x5-handoff-property-false", "prefersScrollingExpandsWhenScrolledToEdge false: content scrolls 500.", g,
          scroll=LIST, sheet={"prefersScrollingExpandsWhenScrolledToEdge": False})
    g = Gestures(); g.wait(2); g.drag(195, 300, 200, 0)
    write("x5", "x5-large-pull-down", "At large with offset 0, finger down 200: the sheet follows to 257.", g,
          scroll=LIST, sheet={"selectedDetentIdentifier": "large"})
    g = Gestures(); g.wait(2); g.drag(195, 300, 400, 0, frames=20)
    write("x5", "x5-large-scrolled-down", "At large with offset 200, finger down 400: content bounces, sheet stays.", g,
          scroll=dict(LIST, contentOffset={"x": 0, "y": 200}), sheet={"selectedDetentIdentifier": "large"})
    g = Gestures(); g.wait(2); g.drag(195, 500, -100, 0)
    write("x5", "x5-scrolled-before", "At medium with the content scrolled to 50: the whole drag scrolls.", g,
          scroll=dict(LIST, contentOffset={"x": 0, "y": 50}))
    g = Gestures(); g.wait(2); g.drag(195, 500, -500, -1500, frames=25)
    write("x5", "x5-handoff-decelerates", "Hand-off with the content taking the last movement: the content decelerates.", g,
          scroll=LIST)
    scrolled = dict(LIST, contentOffset={"x": 0, "y": 100})
    for name, wait, extra, text in [
            ("x5-quick-second-swipe", 10, {}, "At large, offset 100: a swipe down scrolls to the top, a second swipe within 0.4 s only bounces the content."),
            ("x5-slow-second-swipe", 60, {}, "As above with 0.5 s between the swipes: the second one pulls the sheet to medium."),
            ("x5-quick-second-swipe-modal", 10, {"isModalInPresentation": True}, "Quick second swipe, modal: the rule is waived, the sheet follows."),
            ("x5-quick-second-swipe-never", 10, {}, "Quick second swipe, shouldDismiss never: asked, refused, the sheet follows.")]:
        g = Gestures(); g.wait(2); g.drag(195, 300, 100, 0, frames=10); g.wait(wait); g.drag(195, 300, 200, 0, frames=10)
        write("x5", name, text, g, scroll=scrolled, sheet=dict({"selectedDetentIdentifier": "large"}, **extra),
              should="never" if name.endswith("never") else "default")
    short = dict(LIST, contentSize={"width": 390, "height": 500})
    g = Gestures(); g.wait(2); g.drag(195, 300, 200, 0, frames=2)
    write("x5", "x5-nonscrollable-pull-down", "Content 500 in a 767 frame cannot scroll: at large, finger down 200 moves the sheet only; the offset stays 0.", g,
          scroll=short, sheet={"selectedDetentIdentifier": "large"})
    g = Gestures(); g.wait(2); g.drag(195, 700, -200, 0, frames=2)
    write("x5", "x5-nonscrollable-push-up", "Content that cannot scroll: at medium, finger up 200 moves the sheet only; the offset stays 0.", g,
          scroll=short)
    g = Gestures(); g.wait(2); g.drag(195, 700, -600, 0, frames=20)
    write("x5", "x5-handoff-bottom-band", "Content 1000 (max 233), finger up 600 from medium: the sheet takes 331.333, the remainder bands past 233 (O6), back to 233 after the release.", g,
          scroll=dict(LIST, contentSize={"width": 390, "height": 1000}))
    g = Gestures(); g.wait(2); g.drag(195, 700, -500, 0, frames=20)
    write("x5", "x5-handoff-always-bounce", "Content 500 with alwaysBounceVertical (max 0), finger up 500 from medium: the remainder 168.667 bands past 0, back to 0.", g,
          scroll=dict(short, alwaysBounceVertical=True))
    g = Gestures(); g.wait(2); g.drag(385, 450, 308, 0, frames=20, hold=60)
    write("x5", "x5-b28-scrub", "B28: a drag held 0.5 s on the indicator band scrolls 298 * 3000/767.", g, scroll=LIST)
    g = Gestures(); g.wait(2); g.drag(385, 450, -308, 0, frames=20)
    write("x5", "x5-b28-no-hold", "The same band without the hold: an ordinary hand-off expanding the sheet.", g, scroll=LIST)
    # Geometry and options
    g = Gestures(); g.wait(2)
    write("geometry", "d2-medium", "D2 (home button): large 40, medium 315.88 -> 316 (scale 2).", g, env=D2)
    g = Gestures(); g.wait(2); g.drag(195, 500, -30, -1500, frames=4)
    write("geometry", "d1-half-height", "mediumValue halfHeight: medium at 388.", g,
          sheet={"simulator": {"mediumValue": "halfHeight"}})
    g = Gestures(); g.wait(2); g.drag(195, 200, -100, 0)
    write("geometry", "d1-ios26", "variant ios26: large at 47, upper extent 200.", g,
          sheet={"selectedDetentIdentifier": "large", "simulator": {"variant": "ios26"}})
    g = Gestures(rate=60); g.wait(2); g.drag(195, 500, -200, -600, frames=10)
    write("geometry", "d1-60hz-spring-response", "60 Hz, springResponse 0.5 (option).", g, env=D1_60,
          sheet={"simulator": {"springResponse": 0.5}})
    g = Gestures(); g.wait(2); g.call("selectDetent", identifier="large", animateChanges=True)
    write("geometry", "d1-reference-spring", "medium -> large from rest completes 70 frames after the start.", g)


def main():
    os.chdir(ROOT)
    shutil.rmtree(OUT, ignore_errors=True)
    corpus()
    print("wrote %d traces under %s" % (len(WRITTEN), OUT))


if __name__ == "__main__":
    main()
