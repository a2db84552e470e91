#!/usr/bin/env python3
"""Writes the hand-designed scenario corpus under traces/ (flicks, S4, S5, S7).

Each trace's description ends with an `expect:` clause computed here, independently of the Swift
simulator, from the rules of ../shared/spec (projection pY = y + v*r/(1-r)/1000, the adjacent-anchor
trim, redirectional progress 0.5, the removal ratio v/distance >= 5.5). CorpusExpectationTests replays
every trace and checks the result against that clause, so a golden is never blessed unchecked.

Usage: python3 scripts/make_corpus.py   (from the repository root; rewrites the files it owns)
"""
import json, math, os

D1 = {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0},
      "displayScale": 3, "frameRate": 120}
D2 = {"container": {"width": 375, "height": 667}, "safeArea": {"top": 20, "left": 0, "bottom": 0, "right": 0},
      "displayScale": 2, "frameRate": 120}
B3 = {"full": {"absoluteInset": 53, "edge": "top", "referenceGuide": "safeArea"},
      "half": {"absoluteInset": 388, "edge": "bottom", "referenceGuide": "safeArea"},
      "tip": {"absoluteInset": 69, "edge": "bottom", "referenceGuide": "safeArea"}}
ORDER = {"full": 1000, "half": 500, "tip": 100, "hidden": 0, "lastQuart": 750}


def positions(env, anchors):
    """Anchor positions of a bottom panel with absolute insets (all integers here: no pixel rounding)."""
    h = env["container"]["height"]; s = env["safeArea"]
    pos = {}
    for name, a in anchors.items():
        top = s["top"] if a["referenceGuide"] == "safeArea" else 0
        bottom = h - (s["bottom"] if a["referenceGuide"] == "safeArea" else 0)
        pos[name] = top + a["absoluteInset"] if a["edge"] == "top" else bottom - a["absoluteInset"]
    pos["hidden"] = h + 100
    return pos


def target_state(pos, anchors, state, y, v, r=0.998, projects=()):
    """FloatingPanel Core.targetState for a bottom panel (floatingpanel-core.md §4.2)."""
    coord = sorted(anchors, key=lambda n: -ORDER[n])  # bottom panel: descending order = ascending y
    if len(coord) <= 1:
        return state
    most, least = coord[0], coord[-1]
    base = abs(pos[least] - pos[most])
    py = ((((v / base) / 1000) * r) / (1 - r)) * base + y
    fwd = (y - pos[state] > 0) if v == 0 else (v > 0)

    def segment(p):
        for i, n in enumerate(coord):
            if (p < pos[n]) if fwd else (p <= pos[n]):
                return (coord[i - 1] if i > 0 else coord[0], n)
        return (coord[-1], coord[-1])

    lo, up = segment(py)
    frm, to = (lo, up) if fwd else (up, lo)
    if to not in projects:
        lo, up = segment(y)
        if lo == up:
            if fwd:
                up = coord[min(coord.index(lo) + 1, len(coord) - 1)]
            else:
                lo = coord[max(coord.index(lo) - 1, 0)]
        frm, to = (lo, up) if fwd else (up, lo)
        nxt = lambda n, d: coord[min(max(coord.index(n) + d, 0), len(coord) - 1)]
        if fwd:
            py = max(min(py, pos[nxt(to, 1)]), pos[frm])
        else:
            py = max(min(py, pos[frm]), pos[nxt(to, -1)])
    if pos[frm] == pos[to]:
        return frm
    return to if abs(py - pos[frm]) / abs(pos[frm] - pos[to]) > 0.5 else frm


def header(name, description, env, initial, anchors=B3, **panel_extra):
    panel = {"position": "bottom", "anchors": anchors, "initialState": initial}
    panel.update(panel_extra)
    return {"format": "panelsim-trace", "version": 1, "name": name, "description": description,
            "source": {"kind": "synthetic", "origin": "scripts/make_corpus.py", "device": ""},
            "environment": env, "panel": panel}


def t(x):
    """Seconds, floored to whole microseconds, so that a sample meant for frame k (k/120 s) is not
    written a fraction of a microsecond after it (which would process it one frame late)."""
    return math.floor(x * 1e6 + 1e-6) / 1e6


def drag_samples(t0, x, y0, dy_total, n, v, hz=120):
    """began at y0, n moves of equal steps at hz, ended at the last point with recorded velocity v.
    Returns (samples, surface displacement): the first move whose distance reaches 10 pt delivers
    `began`, the next one only sets the baseline (floatingpanel-core.md §3.4), so the surface moves
    by the translation after that baseline."""
    step = dy_total / n
    out = [{"t": t(t0), "touch": "began", "x": x, "y": y0}]
    recognized_at = None
    for i in range(1, n + 1):
        y = y0 + step * i
        out.append({"t": t(t0 + i / hz), "touch": "moved", "x": x, "y": round(y, 6), "velocity": {"x": 0, "y": v}})
        if recognized_at is None and abs(step * i) >= 10:
            recognized_at = i
    out.append({"t": t(t0 + n / hz), "touch": "ended", "x": x, "y": round(y0 + dy_total, 6), "velocity": {"x": 0, "y": v}})
    baseline = recognized_at + 1
    moved = dy_total - step * baseline if baseline <= n else 0.0
    return out, moved


def write(path, head, samples):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(json.dumps(head, separators=(", ", ": ")) + "\n")
        for s in samples:
            f.write(json.dumps(s, separators=(", ", ": ")) + "\n")


def flicks():
    for dev_name, env in (("d1", D1), ("d2", D2)):
        pos = positions(env, B3)
        h = env["container"]["height"]
        for start in ("full", "half", "tip"):
            for toward in ("full", "half", "tip"):
                if toward == start:
                    continue
                for speed in (100, 500, 1500, 4000):
                    direction = 1 if pos[toward] > pos[start] else -1
                    y0 = pos[start] + min(100, (h - pos[start]) / 2)
                    dy = direction * 60.0
                    samples, moved = drag_samples(0.0, 195, y0, dy, 6, direction * speed)
                    release = pos[start] + moved
                    target = target_state(pos, B3, start, release, direction * speed)
                    name = f"flick-{dev_name}-{start}-to-{toward}-{speed}"
                    desc = (f"B3 on {dev_name.upper()} at {start} ({pos[start]} pt); 60 pt drag toward {toward}, released at "
                            f"{release:g} pt with {direction * speed} pt/s. Projection y + 0.499 v = {release + 0.499 * direction * speed:g}; "
                            f"trimmed to the adjacent anchor. expect: state={target} location={pos[target]} removed=false")
                    write(f"traces/flicks/{name}.jsonl", header(name, desc, env, start), samples)


def s4():
    b2 = {k: B3[k] for k in ("full", "half")}
    pos = positions(D1, b2)
    for v in (2430, 2431):
        # began 600, recognized at 610, baseline 611, then to 691: the surface ends 80 pt below half (502).
        samples = [{"t": 0.0, "touch": "began", "x": 195, "y": 600},
                   {"t": 0.008333, "touch": "moved", "x": 195, "y": 610},
                   {"t": 0.016667, "touch": "moved", "x": 195, "y": 611},
                   {"t": 0.025, "touch": "moved", "x": 195, "y": 651},
                   {"t": 0.033333, "touch": "moved", "x": 195, "y": 691},
                   {"t": 0.041667, "touch": "ended", "x": 195, "y": 691, "velocity": {"x": 0, "y": v}}]
        ratio = v / (pos["hidden"] - 502)
        removed = ratio >= 5.5
        if removed:
            exp = f"state=hidden location={pos['hidden']} removed=true"
        else:
            exp = f"state={target_state(pos, b2, 'half', 502, v)} location={pos[target_state(pos, b2, 'half', 502, v)]} removed=false"
        name = f"s4-removal-bottom-{v}"
        desc = (f"S4: D1/B2, removal enabled, surface dragged to 502 (80 pt below half, 442 pt from hidden 944), "
                f"released at {v} pt/s: ratio {ratio:.6f} {'>=' if removed else '<'} 5.5. expect: {exp}")
        write(f"traces/scenarios/{name}.jsonl", header(name, desc, D1, "half", anchors=b2, removalInteractionEnabled=True), samples)


def s5():
    pos = positions(D1, B3)
    samples, moved = drag_samples(0.0, 195, 700, -300, 30, -800)
    # Touch the panel while it flies (t = 0.30 s) and lift without moving 50 ms later.
    samples += [{"t": 0.3, "touch": "began", "x": 195, "y": 420}, {"t": 0.35, "touch": "ended", "x": 195, "y": 420}]
    release = pos["half"] + moved
    first = target_state(pos, B3, "half", release, -800)
    desc = (f"S5: D1/B3 at half, 300 pt drag up released at {release:g} with -800 pt/s -> attracts to {first}; a touch at "
            f"0.30 s stops the spring (didEndAttracting at the touch), the lift without movement re-attracts from where it "
            f"stopped and the panel settles on an anchor. expect: state={first} location={pos[first]} removed=false")
    write("traces/scenarios/s5-interrupted-attraction.jsonl", header("s5-interrupted-attraction", desc, D1, "half"), samples)


def s7():
    pos = positions(D1, B3)
    samples = [{"t": 0.0, "touch": "began", "x": 195, "y": 700}]
    for i in range(1, 61):
        samples.append({"t": t(i / 120), "touch": "moved", "x": 195, "y": 700 - 2.5 * i, "velocity": {"x": 0, "y": -300}})
        if i == 24:
            samples.append({"t": 0.2, "call": "move", "to": "tip", "animated": True})
    samples.append({"t": 0.5, "touch": "ended", "x": 195, "y": 550, "velocity": {"x": 0, "y": -300}})
    desc = ("S7: D1/B3 at half; 200 ms into an upward drag the app calls move(to: tip, animated: true): the drag is "
            "cancelled synchronously (willEndDragging, didEndDragging(true), an attraction started and interrupted), the "
            f"panel attracts to tip and later samples of the touch do not move it. expect: state=tip location={pos['tip']} removed=false")
    write("traces/scenarios/s7-move-during-drag.jsonl", header("s7-move-during-drag", desc, D1, "half"), samples)
    samples = [{"t": 0.1, "call": "move", "to": "half", "animated": False}, {"t": 0.2, "call": "move", "to": "half", "animated": True}]
    desc = ("S7/F1: D1/B3 at half, move(to: half) while idle, not animated then animated: nothing moves but every call "
            f"reports didChangeState. expect: state=half location={pos['half']} removed=false")
    write("traces/scenarios/s7-move-to-current-state.jsonl", header("s7-move-to-current-state", desc, D1, "half"), samples)


def custom_states():
    """A custom lastQuart (order 750) anchor between full and half: 261 pt from the safe top (308 on D1)."""
    anchors = dict(B3)
    anchors["lastQuart"] = {"absoluteInset": 261, "edge": "top", "referenceGuide": "safeArea"}
    pos = positions(D1, anchors)
    for start, direction, speed in (("half", -1, 600), ("half", -1, 3000), ("full", 1, 400), ("lastQuart", 1, 1200)):
        y0 = pos[start] + 100
        samples, moved = drag_samples(0.0, 195, y0, direction * 60.0, 6, direction * speed)
        release = pos[start] + moved
        target = target_state(pos, anchors, start, release, direction * speed)
        name = f"custom-lastquart-from-{start}-{direction * speed}"
        desc = (f"Custom state lastQuart (order 750) at {pos['lastQuart']} pt between full and half on D1; from {start}, "
                f"60 pt drag released at {release:g} pt with {direction * speed} pt/s. expect: state={target} "
                f"location={pos[target]} removed=false")
        head = header(name, desc, D1, start, anchors=anchors, states=[{"name": "lastQuart", "order": 750}],
                      backdropAlpha={"full": 0.3, "lastQuart": 0.15})
        write(f"traces/custom/{name}.jsonl", head, samples)


def mirror(head, samples, position):
    """Mirrors a bottom-panel trace onto a top or left panel (scenarios.md G6): coordinates, edges,
    safe-area sides and velocities flipped so that every location l becomes H - l."""
    env = json.loads(json.dumps(head["environment"]))
    w, h = env["container"]["width"], env["container"]["height"]
    sa = env["safeArea"]
    edge_map = {"top": "bottom", "bottom": "top"} if position == "top" else {"top": "right", "bottom": "left"}
    if position == "top":
        env["safeArea"] = {"top": sa["bottom"], "left": sa["left"], "bottom": sa["top"], "right": sa["right"]}
        point = lambda x, y: (x, h - y)
        vel = lambda vx, vy: (vx, -vy)
    else:
        env["container"] = {"width": h, "height": w}
        env["safeArea"] = {"top": sa["left"], "left": sa["bottom"], "bottom": sa["right"], "right": sa["top"]}
        point = lambda x, y: (h - y, x)
        vel = lambda vx, vy: (-vy, vx)
    panel = json.loads(json.dumps(head["panel"]))
    panel["position"] = position
    for a in panel["anchors"].values():
        a["edge"] = edge_map[a["edge"]]
    out_head = dict(head, environment=env, panel=panel)
    out = []
    for smp in samples:
        smp = dict(smp)
        if "touch" in smp:
            smp["x"], smp["y"] = point(smp["x"], smp["y"])
            if "velocity" in smp:
                vx, vy = vel(smp["velocity"]["x"], smp["velocity"]["y"])
                smp["velocity"] = {"x": vx, "y": vy}
        out.append(smp)
    return out_head, out, h


def mirrored_flicks():
    pos = positions(D1, B3)
    for start, direction, speed in (("half", -1, 1500), ("half", 1, 1500), ("full", 1, 500), ("tip", -1, 4000)):
        y0 = pos[start] + min(100, (844 - pos[start]) / 2)
        samples, moved = drag_samples(0.0, 195, y0, direction * 60.0, 6, direction * speed)
        release = pos[start] + moved
        target = target_state(pos, B3, start, release, direction * speed)
        for position in ("top", "left"):
            name = f"mirror-{position}-{start}-{direction * speed}"
            head, msamples, h = mirror(header(name, "", D1, start), samples, position)
            head["description"] = (f"The bottom flick from {start} ({direction * speed} pt/s on D1/B3) mirrored onto a {position} "
                                   f"panel (G6): same target, location {h} - {pos[target]}. Left panels with unequal left/right "
                                   f"safe areas report attraction frames offset by the FloatingPanel quirk of layout-behavior §8 item 2; "
                                   f"the completion snaps back. expect: state={target} location={h - pos[target]} removed=false")
            write(f"traces/positions/{name}.jsonl", head, msamples)


SV = {"frame": {"x": 0, "y": 36, "width": 390, "height": 761}, "contentSize": {"width": 390, "height": 3000}}


def scroll_header(name, desc, env, initial, offset, anchors=B3, frame=None, **extra):
    head = header(name, desc, env, initial, anchors=anchors)
    sv = json.loads(json.dumps(SV))
    if frame:
        sv["frame"] = frame
    sv["contentOffset"] = {"x": 0, "y": offset}
    head["scrollView"] = sv
    head.update(extra)
    return head


def straight(t0, x, y0, y1, duration, v, hz=120):
    """began at y0, moves every 1/hz to y1 over `duration`, ended there with recorded velocity v."""
    n = int(round(duration * hz))
    out = [{"t": t(t0), "touch": "began", "x": x, "y": y0}]
    for i in range(1, n + 1):
        out.append({"t": t(t0 + i / hz), "touch": "moved", "x": x, "y": round(y0 + (y1 - y0) * i / n, 6),
                    "velocity": {"x": 0, "y": v}})
    out.append({"t": t(t0 + n / hz), "touch": "ended", "x": x, "y": y1, "velocity": {"x": 0, "y": v}})
    return out


def scroll_scenarios():
    """S1, S2, S3, S6, S8 and plain scrolling (floatingpanel-core.md §3). The expectations are the
    scenario texts of scenarios.md, worked through the rules by hand: they name the resting state and
    location and the content offset at rest (`contentOffsetMin` where deceleration makes the exact
    value a matter of the O7 model rather than of FloatingPanel's rules)."""
    d = "traces/scroll"
    # S1: at full (100), O=120, finger in the list at 400 dragged down to 700 over 0.5 s, +600 pt/s.
    write(f"{d}/s1-handoff-at-content-top.jsonl", scroll_header("s1-handoff-at-content-top",
          "S1: D1/B3 at full, list O=120. The list scrolls back to O=0 while the panel stays at 100, then the panel "
          "follows the finger in the same touch (willBeginDragging once, at the hand-off); release at +600 pt/s from "
          "about 270 projects to 570 -> half; the content stays pinned at 0. expect: state=half location=422 "
          "removed=false contentOffset=0 willBeginDragging=1", D1, "full", 120), straight(0, 195, 400, 700, 0.5, 600))
    write(f"{d}/s1-content-at-top.jsonl", scroll_header("s1-content-at-top",
          "S1 variant O=0: the panel moves from the first accepted sample, the list stays at 0 -> half. "
          "expect: state=half location=422 removed=false contentOffset=0 willBeginDragging=1", D1, "full", 0),
          straight(0, 195, 400, 700, 0.5, 600))
    write(f"{d}/s1-grabber-touch.jsonl", scroll_header("s1-grabber-touch",
          "S1 variant: touch-down in the grabber band (surface-local y 20 < 36) with O=120: the panel moves at once "
          "and the list keeps O=120 (io = the current offset, no clamp, pinned in case B) -> half. "
          "expect: state=half location=422 removed=false contentOffset=120 willBeginDragging=1", D1, "full", 120),
          straight(0, 195, 120, 420, 0.5, 600))
    write(f"{d}/s1-long-list-offset.jsonl", scroll_header("s1-long-list-offset",
          "S1 variant O=400 with a 600 pt drag (200 -> 800): the list scrolls 400 back to 0 first, then the panel "
          "follows about 200 pt down and never moves up; release at +600 pt/s -> half (projection from about 300). "
          "expect: state=half location=422 removed=false contentOffset=0 willBeginDragging=1", D1, "full", 400),
          straight(0, 195, 200, 800, 0.8, 600))
    # S2: at half, O=200, drag down 300 pt inside the list.
    write(f"{d}/s2-half-no-delegate.jsonl", scroll_header("s2-half-no-delegate",
          "S2: D1/B3 at half, O=200, drag down 300 pt in the list at +800 pt/s. Only the most expanded state is "
          "scrollable, so the panel moves and the list stays pinned at 200 -> tip. "
          "expect: state=tip location=741 removed=false contentOffset=200 willBeginDragging=1", D1, "half", 200),
          straight(0, 195, 500, 800, 0.3, 800))
    write(f"{d}/s2-half-scrollable.jsonl", scroll_header("s2-half-scrollable",
          "S2 with scrollableStates [full, half]: the list scrolls to O=0 first (recognition at 516.7, O reaches 0 at "
          "716.7), only then does the panel move, 83.3 pt -> released at +300 pt/s at 505.3: projection 655.0, progress "
          "(655.0 - 422) / 319 = 0.73 past half toward tip > 0.5 -> tip. "
          "expect: state=tip location=741 removed=false contentOffset=0 willBeginDragging=1", D1, "half", 200,
          delegate={"scrollableStates": ["full", "half"]}), straight(0, 195, 500, 800, 0.3, 300))
    # S3: a 56 pt header above the list; O=900.
    frame56 = {"x": 0, "y": 56, "width": 390, "height": 741}
    write(f"{d}/s3-header-drag-stays-full.jsonl", scroll_header("s3-header-drag-stays-full",
          "S3: D1/B3 at full, list below a 56 pt header, O=900. Dragging by the header (surface-local y 46: outside "
          "the grabber band and the list) 40 pt down slowly (+100 pt/s) returns to full; O stays 900. "
          "expect: state=full location=100 removed=false contentOffset=900", D1, "full", 900, frame=frame56),
          straight(0, 195, 146, 186, 0.2, 100))
    write(f"{d}/s3-header-drag-to-half.jsonl", scroll_header("s3-header-drag-to-half",
          "S3: the same header drag, 150 pt at +1000 pt/s -> half; O stays 900. "
          "expect: state=half location=422 removed=false contentOffset=900", D1, "full", 900, frame=frame56),
          straight(0, 195, 146, 296, 0.2, 1000))
    samples = straight(0, 195, 146, 296, 0.2, 1000)
    samples += [{"t": 1.5, "call": "setContentOffset", "y": 300, "animated": False},
                {"t": 1.6, "call": "move", "to": "full", "animated": True}]
    write(f"{d}/s3-set-offset-after-drag.jsonl", scroll_header("s3-set-offset-after-drag",
          "S3: after the header drag has ended (io cleared by endAttraction), setContentOffset(300) and an animated "
          "move(to: full) keep the new offset. expect: state=full location=100 removed=false contentOffset=300",
          D1, "full", 900, frame=frame56), samples)
    write(f"{d}/s3-set-offset-before-any-drag.jsonl", scroll_header("s3-set-offset-before-any-drag",
          "S3 contrast (floatingpanel-core.md §8 item 12): right after track io holds 900, so after setContentOffset(300) "
          "the first animated spring move (to half) pins the list back to 900 on every frame. "
          "expect: state=half location=422 removed=false contentOffset=900", D1, "full", 900, frame=frame56),
          [{"t": 0.1, "call": "setContentOffset", "y": 300, "animated": False},
           {"t": 0.2, "call": "move", "to": "half", "animated": True}])
    # S6: at half, drag up from 600 to 100 in one touch.
    write(f"{d}/s6-reach-full-during-drag.jsonl", scroll_header("s6-reach-full-during-drag",
          "S6: D1/B3 at half, list at 0; one touch drags up from 600 to 100 and lifts at -300 pt/s. The panel reaches "
          "full after 322 pt (clamped there while the finger is above its start), the rest scrolls the list; the release "
          "is exactly at full: willEndDragging(full), didChangeState(full), didEndDragging(false), no attraction; the "
          "list decelerates. expect: state=full location=100 removed=false contentOffsetMin=150 attractions=0",
          D1, "half", 0), straight(0, 195, 600, 100, 0.5, -300))
    # S8: fractional anchors rounded to the pixel grid.
    anchors = {"full": {"absoluteInset": 44.3, "edge": "top", "referenceGuide": "safeArea"},
               "half": {"absoluteInset": 388, "edge": "bottom", "referenceGuide": "safeArea"},
               "tip": {"absoluteInset": 69, "edge": "bottom", "referenceGuide": "safeArea"}}
    write(f"{d}/s8-d2-fractional-full.jsonl", scroll_header("s8-d2-fractional-full",
          "S8: D2, full 44.3 from the safe top = 64.3, 64.5 on the 1/2-pt grid. At full the list scrolls freely "
          "(offset(from: full) is exactly 0) and the panel does not budge: a 200 pt upward drag in the list, slow "
          "release; the list scrolls by the drag less the 12.5 pt before the scroll pan recognized (its began sample "
          "does not scroll, O6). expect: state=full location=64.5 removed=false contentOffsetMin=187.5 willBeginDragging=0",
          D2, "full", 0, anchors=anchors), straight(0, 187, 400, 200, 0.4, -10))
    anchors = {"full": {"absoluteInset": 501.6667, "edge": "top", "referenceGuide": "safeArea"},
               "tip": {"absoluteInset": 69, "edge": "bottom", "referenceGuide": "safeArea"}}
    write(f"{d}/s8-d1-fractional-full.jsonl", scroll_header("s8-d1-fractional-full",
          "S8 on D1: full at 47 + 501.6667 = 548.6667, 548.666… on the 1/3-pt grid; the list (frame 36..236) scrolls "
          "freely and the panel does not budge (120 pt drag, 10 pt to recognize). expect: state=full "
          "location=548.6666666666666 removed=false contentOffsetMin=110 willBeginDragging=0", D1, "full", 0, anchors=anchors,
          frame={"x": 0, "y": 36, "width": 390, "height": 200}), straight(0, 195, 760, 640, 0.3, -10))
    # Plain scrolling at full.
    write(f"{d}/scroll-fling-to-end.jsonl", scroll_header("scroll-fling-to-end",
          "Plain scroll at full: a fast upward fling in the list (-9000 pt/s) decelerates and stops at the end of the "
          "content, clamped without a bounce (O7): 3000 + 34 (the bottom safe inset FloatingPanel writes into "
          "contentInset at show) - 761 = 2273. expect: state=full location=100 removed=false contentOffset=2273",
          D1, "full", 1500), straight(0, 195, 600, 300, 0.2, -9000))
    write(f"{d}/scroll-bounce-at-end.jsonl", scroll_header("scroll-bounce-at-end",
          "Plain scroll at full: dragging 200 pt up from O=2223 pulls 150 pt past the end (rubber band, bounces on while "
          "unlocked at full); released there the list returns to the end, 2273. "
          "expect: state=full location=100 removed=false contentOffset=2273", D1, "full", 2223),
          straight(0, 195, 600, 400, 0.2, -50))
    write(f"{d}/scroll-fling-to-top.jsonl", scroll_header("scroll-fling-to-top",
          "Plain scroll at full: a fast downward fling in the list from O=1000 (+3000 pt/s): the scroll view keeps the "
          "touch while the content is scrolled (od > 0), then decelerates and stops at the top, clamped without a "
          "bounce (O7); the panel never moves. expect: state=full location=100 removed=false contentOffset=0 "
          "willBeginDragging=0", D1, "full", 1000), straight(0, 195, 300, 500, 0.2, 3000))


def app_scenarios():
    """What apps do to a panel (issue 4): presentation, removal, backdrop taps, layout invalidation,
    rotation, keyboard and intrinsic growth, the didMove recipes, moves during attractions, and the
    S4 removal threshold mirrored onto top and left panels. Expectations worked by hand from
    floatingpanel-core.md §4.1, §4.7, §5 and §9 O13-O16."""
    d = "traces/app"
    pos = positions(D1, B3)
    write(f"{d}/present-and-hide.jsonl", header("present-and-hide",
          "presented false: the panel waits hidden (944); show(animated) at 0.1 presents to half with the UIKit spring "
          "(model values at the start, one didMove at completion 0.369 s later); hide(animated) at 1.0 dismisses. "
          "expect: state=hidden location=944 removed=false", D1, "half", presented=False),
          [{"t": 0.1, "call": "show", "animated": True}, {"t": 1.0, "call": "hide", "animated": True}])
    write(f"{d}/present-then-remove.jsonl", header("present-then-remove",
          "presented false, show(animated: false) at 0.1, remove() at 0.5: willRemove, didChangeState(hidden), didMove "
          "and didRemove when the dismissal completes. expect: state=hidden location=944 removed=true", D1, "half",
          presented=False), [{"t": 0.1, "call": "show", "animated": False}, {"t": 0.5, "call": "remove"}])
    for enabled in (True, False):
        name = f"backdrop-tap-{'enabled' if enabled else 'disabled'}"
        exp = "state=hidden location=944 removed=true" if enabled else "state=half location=422 removed=false"
        write(f"{d}/{name}.jsonl", header(name, f"tapBackdrop at 0.2 with the dismissal tap {'enabled: the panel is removed' if enabled else 'disabled: nothing happens'}. expect: {exp}",
              D1, "half", backdrop={"dismissalTapEnabled": enabled}), [{"t": 0.2, "call": "tapBackdrop"}])
    # Layout invalidation mid-drag: half moves to 500; the surface snaps there and the drag is frozen.
    samples = straight(0, 195, 700, 600, 0.3, -300)
    samples.append({"t": 0.15, "call": "invalidateLayout", "panel": {"anchors": dict(B3, half={"absoluteInset": 310, "edge": "bottom", "referenceGuide": "safeArea"})}})
    samples.sort(key=lambda smp: smp["t"])  # stable: the call comes after the samples at its time
    write(f"{d}/invalidate-mid-drag.jsonl", header("invalidate-mid-drag",
          "invalidateLayout at 0.15 s during an upward drag moves half to 500 (310 from the safe bottom): the state "
          "constraints replace the interaction constraint, the surface snaps to 500 and later samples of the drag do "
          "nothing; at release the interaction restarts at the frame (500): projection 500 - 149.7, progress 0.37 "
          "toward full -> half, exactly on its anchor, so no attraction. expect: state=half location=500 removed=false "
          "attractions=0", D1, "half"), samples)
    samples = straight(0, 195, 700, 640, 0.1, -1500)
    samples.append({"t": 0.2, "call": "invalidateLayout", "panel": {"anchors": dict(B3, full={"absoluteInset": 103, "edge": "top", "referenceGuide": "safeArea"})}})
    write(f"{d}/invalidate-mid-attraction.jsonl", header("invalidate-mid-attraction",
          "A flick from half to full; at 0.2 s invalidateLayout moves full to 150: the surface snaps to the state's "
          "(full's) new anchor, the spring keeps ticking on its detached constraint (didMove each frame, the surface "
          "stays) and completes normally. expect: state=full location=150 removed=false attractions=1", D1, "half"), samples)
    frac = {"full": {"absoluteInset": 53, "edge": "top", "referenceGuide": "safeArea"},
            "half": {"fractionalInset": 0.5, "edge": "bottom", "referenceGuide": "safeArea"},
            "tip": {"absoluteInset": 69, "edge": "bottom", "referenceGuide": "safeArea"}}
    samples = straight(0, 195, 700, 640, 0.1, -1500)
    samples.append({"t": 0.2, "environment": {"container": {"width": 844, "height": 390},
                                              "safeArea": {"top": 0, "left": 47, "bottom": 21, "right": 47}}})
    write(f"{d}/rotation-mid-attraction.jsonl", header("rotation-mid-attraction",
          "A flick from half to full, then at 0.2 s the device rotates to 844x390 (safe area 0/47/21/47): the "
          "attraction constant keeps its constraint-space value relative to full's guide (safe top), so the spring "
          "finishes at the new full, 0 + 53. expect: state=full location=53 removed=false attractions=1", D1, "half",
          anchors=frac), samples)
    intrinsic = {"full": {"absoluteOffset": 0, "referenceGuide": "safeArea"},
                 "half": {"fractionalOffset": 0.5, "referenceGuide": "safeArea"}}
    write(f"{d}/keyboard-growing-input.jsonl", header("keyboard-growing-input",
          "An intrinsic panel (a growing text input) at full: the keyboard raises the bottom safe area to 336 at 0.1 s "
          "and the text grows the intrinsic length from 200 to 300 at 0.3 s (invalidateLayout). At rest full = "
          "844 - 336 - 300 = 208. expect: state=full location=208 removed=false", D1, "full", anchors=intrinsic,
          intrinsicLength=200),
          [{"t": 0.1, "environment": {"safeArea": {"top": 47, "left": 0, "bottom": 336, "right": 0}}},
           {"t": 0.3, "call": "invalidateLayout", "panel": {"intrinsicLength": 300}}])
    head = header("did-move-dismiss-beyond", "", D1, "half")
    head["delegate"] = {"didMove": {"dismissBeyond": {"state": "half", "offset": 40}}}
    head["description"] = ("The close-on-drag recipe: dismissBeyond half + 40 (462). A slow 100 pt drag down from half "
                           "passes 462, the app calls remove(): the drag is cancelled synchronously (it still ends with "
                           "didEndDragging), willRemove, dismissal, didRemove. expect: state=hidden location=944 removed=true")
    write(f"{d}/did-move-dismiss-beyond.jsonl", head, straight(0, 195, 600, 700, 0.3, 100))
    head = header("did-move-clamp", "", D1, "half")
    head["delegate"] = {"didMove": {"clamp": {"min": {"state": "full", "offset": -6}, "max": {"state": "tip", "offset": 6}}}}
    head["description"] = ("FloatingPanel's boundary recipe: clamp the surface to [full - 6, tip + 6] = [94, 747] while not "
                           "attracting. A 500 pt drag up from half would reach -78; it stops at 94; released slowly -> full. "
                           "expect: state=full location=100 removed=false")
    write(f"{d}/did-move-clamp.jsonl", head, straight(0, 195, 800, 300, 0.5, -50))
    samples = straight(0, 195, 700, 640, 0.1, -1500)
    samples.append({"t": 0.2, "call": "move", "to": "tip", "animated": True})
    write(f"{d}/move-during-attraction.jsonl", header("move-during-attraction",
          "move(to: tip, animated) while a flick attracts to full: the spring is interrupted (didEndAttracting, no "
          "completion) and a new spring attracts to tip. expect: state=tip location=741 removed=false attractions=2",
          D1, "half"), samples)
    samples = straight(0, 195, 700, 640, 0.1, -1500)
    samples.append({"t": 0.2, "call": "move", "to": "hidden", "animated": True})
    write(f"{d}/hide-during-attraction.jsonl", header("hide-during-attraction",
          "move(to: hidden, animated) during an attraction: interrupted, then the dismissal animator. "
          "expect: state=hidden location=944 removed=false attractions=1", D1, "half"), samples)
    write(f"{d}/move-during-show.jsonl", header("move-during-show",
          "presented false; show(animated) at 0.1 starts the presenting animator toward half; move(to: full, animated) "
          "at 0.2 interrupts it (it finishes at its in-flight position: didMove, completion) and the spring attracts "
          "from there to full. expect: state=full location=100 removed=false attractions=1", D1, "half", presented=False),
          [{"t": 0.1, "call": "show", "animated": True}, {"t": 0.2, "call": "move", "to": "full", "animated": True}])
    # Fingers (floatingpanel-core.md §9 O4): only finger 0 drives the recognizers.
    samples = straight(0, 195, 700, 600, 0.2, -1500)
    samples += [{"t": 0.05, "touch": "began", "id": 1, "x": 100, "y": 200},
                {"t": 0.1, "touch": "moved", "id": 1, "x": 100, "y": 400},
                {"t": 0.15, "touch": "ended", "id": 1, "x": 100, "y": 400}]
    samples.sort(key=lambda smp: smp["t"])
    write(f"{d}/second-finger-during-drag.jsonl", header("second-finger-during-drag",
          "A second finger (id 1) lands on the backdrop and moves while finger 0 drags up from half and flicks at "
          "-1500 pt/s: only finger 0 drives the pan (O4; a warning names the ignored finger), and a touch on the "
          "backdrop is not a backdrop tap (only the tapBackdrop call is) -> full. "
          "expect: state=full location=100 removed=false", D1, "half", backdrop={"dismissalTapEnabled": True}), samples)
    samples = straight(0, 195, 700, 600, 0.2, -1500)
    samples[-1]["touch"] = "cancelled"
    write(f"{d}/cancelled-touch.jsonl", header("cancelled-touch",
          "A drag up from half whose touch is cancelled by the system (with the last velocity -1500 pt/s): the pan "
          "delivers cancelled, which ends the drag like ended (panningEnd) -> full. "
          "expect: state=full location=100 removed=false", D1, "half"), samples)
    # S4 on top and left panels: the bottom sweep mirrored.
    b2 = {k: B3[k] for k in ("full", "half")}
    for v in (2430, 2431):
        bottom = [{"t": 0.0, "touch": "began", "x": 195, "y": 600},
                  {"t": 0.008333, "touch": "moved", "x": 195, "y": 610},
                  {"t": 0.016666, "touch": "moved", "x": 195, "y": 611},
                  {"t": 0.025, "touch": "moved", "x": 195, "y": 651},
                  {"t": 0.033333, "touch": "moved", "x": 195, "y": 691},
                  {"t": 0.041666, "touch": "ended", "x": 195, "y": 691, "velocity": {"x": 0, "y": v}}]
        removed = v / 442 >= 5.5
        for position in ("top", "left"):
            name = f"s4-removal-{position}-{v}"
            h0 = header(name, "", D1, "half", anchors=b2, removalInteractionEnabled=True)
            head, msamples, hh = mirror(h0, bottom, position)
            rest = ("state=hidden location=-100 removed=true" if removed else "state=half location=422 removed=false")
            head["description"] = (f"S4 mirrored onto a {position} panel: surface 80 pt past half toward hidden (442 pt "
                                   f"from hidden at -100), released at {v} pt/s toward hidden: ratio {v / 442:.6f}. expect: {rest}")
            write(f"traces/positions/{name}.jsonl", head, msamples)


def grabber_band_scenarios():
    """issue 18: a list whose frame starts at the top of the surface lies under the grabber band
    (grabberAreaOffset 36). A touch that goes down in the band belongs to the panel: FloatingPanel
    answers shouldBeRequiredToFailBy = true there (floatingpanel-core.md §3.8 item 2), so the list's
    pan waits for the panel's pan, which recognizes; the list never scrolls for that touch and only
    the panel moves (invariant G3). MirrorCorpusTests checks the top, left and right mirrors."""
    d = "traces/scroll"
    pos = positions(D1, B3)
    frame0 = {"x": 0, "y": 0, "width": 390, "height": 744}
    for state, offset in (("full", 700), ("half", 300)):
        y0 = pos[state] + 20          # surface-local y 20, inside the 36 pt band
        y1 = y0 - 60                   # 60 pt up, 5 pt per frame, released at rest
        release = pos[state] - 60      # the panel follows the whole displacement (a grabber drag is not clamped)
        target = target_state(pos, B3, state, release, 0)
        write(f"{d}/grabber-band-list-{state}.jsonl", scroll_header(f"grabber-band-list-{state}",
              f"issue 18: D1/B3 at {state} ({pos[state]}), list frame from the surface top (under the 36 pt grabber band), "
              f"O={offset} on 3000 pt of content; touch-down at surface-local y 20 and 60 pt up, released at 0 pt/s at "
              f"{release}: the list's pan waits for the panel's (§3.8 item 2), so the list keeps O={offset} and only the panel "
              f"moves; Core.targetState from {release} at rest -> {target}. expect: state={target} location={pos[target]} "
              f"removed=false contentOffset={offset} willBeginDragging=1", D1, state, offset, frame=frame0),
              straight(0.1, 195, y0, y1, 0.1, 0))


def nav_bar_scenarios():
    """FloatingPanel issue #602: a list inside a navigation controller, under its 44 pt bar. UIKit adds the
    bar to contentInset (`systemInset`), so adjustedContentInset.top = contentInset.top + 44. At show
    FloatingPanel writes contentInset := (0, 0, S.bottom, 0) (floatingpanel-core.md §3.10 step 5), so the
    pinning offset of a bottom panel (§3.6.2) is -(0 + 44) = -44. With the list at its top (O = -44,
    O - pin = 0) a downward drag in the list moves the panel and the list stays pinned at -44."""
    d = "traces/scroll"
    system_top = 44
    content_inset_top = 0                      # after show: only the bottom side carries S.bottom
    pin = -(content_inset_top + system_top)
    pos = positions(D1, B3)
    release = pos["full"] + 300 - 10           # 300 pt of finger travel less about 10 to recognize
    target = target_state(pos, B3, "full", release, 600)
    head = scroll_header("issue602-list-under-navigation-bar",
                         f"FloatingPanel #602: D1/B3 at full, a list under a {system_top} pt navigation bar "
                         f"(scrollView.systemInset.top {system_top}) at its top, O={pin}. The pinning offset is "
                         f"-adjustedContentInset.top = {pin}, so the content is at its pinned edge: a 300 pt drag down "
                         f"in the list at +600 pt/s moves the panel and the list stays at {pin}; released near {release} "
                         f"-> {target}. expect: state={target} location={pos[target]} removed=false contentOffset={pin} "
                         f"willBeginDragging=1", D1, "full", pin)
    head["scrollView"]["systemInset"] = {"top": system_top, "left": 0, "bottom": 0, "right": 0}
    write(f"{d}/issue602-list-under-navigation-bar.jsonl", head, straight(0, 195, 400, 700, 0.5, 600))


if __name__ == "__main__":
    flicks(); s4(); s5(); s7(); custom_states(); mirrored_flicks(); scroll_scenarios(); app_scenarios(); grabber_band_scenarios()
    nav_bar_scenarios()
