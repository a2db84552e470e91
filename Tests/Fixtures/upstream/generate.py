#!/usr/bin/env python3
"""Writes the traces of this folder (UpstreamAssertionTests): FloatingPanel unit-test situations as PanelSim traces.
Run from anywhere: python3 Tests/Fixtures/upstream/generate.py"""
import json, os
OUT = os.path.dirname(os.path.abspath(__file__))
BOTTOM = {"full": {"absoluteInset": 18, "edge": "top", "referenceGuide": "safeArea"},
          "half": {"fractionalInset": 0.5, "edge": "bottom", "referenceGuide": "safeArea"},
          "tip": {"absoluteInset": 69, "edge": "bottom", "referenceGuide": "safeArea"}}
TOPPOS = {"full": {"absoluteInset": 88, "edge": "bottom", "referenceGuide": "safeArea"},
          "half": {"absoluteInset": 216, "edge": "top", "referenceGuide": "safeArea"},
          "tip": {"absoluteInset": 44, "edge": "top", "referenceGuide": "safeArea"}}
Z = {"top": 0, "left": 0, "bottom": 0, "right": 0}
def sv(frame, size=(375, 2000), offset=(0, 0), **kw):
    d = {"frame": dict(zip("x y width height".split(), frame)), "contentSize": {"width": size[0], "height": size[1]},
         "contentOffset": {"x": offset[0], "y": offset[1]}}
    d.update(kw); return d
def write(name, desc, panel, samples, env=None, scroll=None, delegate=None, recognizer=None):
    e = {"container": {"width": 375, "height": 667}, "safeArea": Z, "displayScale": 3, "frameRate": 120}
    e.update(env or {})
    h = {"format": "panelsim-trace", "version": 1, "name": "upstream-" + name, "description": desc,
         "source": {"kind": "synthetic", "origin": "FloatingPanel Tests (scenee/FloatingPanel 7efcc76)"},
         "environment": e, "panel": panel}
    if scroll is not None: h["scrollView"] = scroll
    if delegate is not None: h["delegate"] = delegate
    if recognizer is not None: h["recognizer"] = recognizer
    with open(os.path.join(OUT, name + ".jsonl"), "w") as f:
        f.write(json.dumps(h) + "\n")
        for s in samples: f.write(json.dumps(s) + "\n")
def P(**kw): return kw

# --- CoreTests.test_adjustScrollContentInsetIfNeeded (bottom block, static then fitToBounds)
write("adjust-inset-bottom", "CoreTests.test_adjustScrollContentInsetIfNeeded, bottom layout: static inset.bottom = 34 + (half - full); fitToBounds inset = the list's safe area",
      P(anchors=BOTTOM, initialState="half"),
      [{"t": 0.1, "call": "move", "to": "half", "animated": False},
       {"t": 0.2, "call": "invalidateLayout", "panel": {"contentMode": "fitToBounds"}},
       {"t": 0.3, "end": True}],
      env={"safeArea": {"top": 0, "left": 0, "bottom": 34, "right": 0}},
      scroll=sv((0, 0, 375, 649)), delegate={"scrollableStates": ["full", "half"]})
# top block
write("adjust-inset-top", "CoreTests.test_adjustScrollContentInsetIfNeeded, top-positioned layout: static inset.top = 91 + (full - half); fitToBounds inset = the list's safe area",
      P(position="top", anchors=TOPPOS, initialState="full"),
      [{"t": 0.1, "call": "move", "to": "half", "animated": False},
       {"t": 0.2, "call": "invalidateLayout", "panel": {"contentMode": "fitToBounds"}},
       {"t": 0.3, "end": True}],
      env={"safeArea": {"top": 91, "left": 0, "bottom": 0, "right": 0}},
      scroll=sv((0, 0, 375, 579)), delegate={"scrollableStates": ["full", "half"]})
# --- CoreTests.test_adjustScrollContentInsetIfNeeded_normal
for suffix, safe in [("", Z)]:
    write("adjust-inset-normal" + suffix, "CoreTests.test_adjustScrollContentInsetIfNeeded_normal: no delegate, the list scrolls only at full, contentInset stays zero at half and full",
          P(anchors=BOTTOM, initialState="half"),
          [{"t": 0.1, "call": "move", "to": "half", "animated": False},
           {"t": 0.2, "call": "move", "to": "full", "animated": False},
           {"t": 0.3, "end": True}],
          env={"safeArea": safe}, scroll=sv((0, 0, 375, 649)))
# --- CoreTests.test_initial_scroll_offset_reset: a UIScrollView() (zero frame, zero content size)
write("initial-scroll-offset-reset", "CoreTests.test_initial_scroll_offset_reset: a pan that begins and is cancelled at full, then setContentOffset 100 and an animated move to half keep the offset 100",
      P(anchors=BOTTOM, initialState="half"),
      [{"t": 0.1, "call": "move", "to": "full", "animated": False},
       {"t": 0.2, "touch": "began", "x": 187.5, "y": 28},
       {"t": 0.2, "touch": "moved", "x": 187.5, "y": 28},
       {"t": 0.2, "touch": "cancelled", "x": 187.5, "y": 28},
       {"t": 1.2, "call": "setContentOffset", "x": 0, "y": 100, "animated": False},
       {"t": 1.25, "call": "move", "to": "half", "animated": True},
       {"t": 2.25, "end": True}],
      scroll=sv((0, 0, 0, 0), size=(0, 0)), recognizer={"beginThreshold": 0})
# --- CoreTests.test_scrollLock
write("scroll-lock", "CoreTests.test_scrollLock: the table is locked (no bounce, no indicator) at half and tip, unlocked at full; a newly tracked table after show is locked at half",
      P(anchors=BOTTOM, initialState="half"),
      [{"t": 0.1, "call": "move", "to": "full", "animated": False},
       {"t": 0.2, "call": "move", "to": "tip", "animated": False},
       {"t": 0.3, "call": "move", "to": "full", "animated": True},
       {"t": 1.5, "call": "move", "to": "tip", "animated": False},
       {"t": 1.6, "call": "track", "scrollView": sv((0, 0, 375, 649))},
       {"t": 1.6, "call": "show", "animated": False},
       {"t": 1.7, "end": True}],
      scroll=sv((0, 0, 375, 649)))
# --- CoreTests.test_is_scrollable (UIScrollView(): zero frame), three delegate answers
for suffix, deleg in [("default", None), ("never", {"scrollableStates": []}), ("always", {"scrollableStates": ["full", "half", "tip"]})]:
    write("is-scrollable-" + suffix, "CoreTests.test_is_scrollable: isScrollable(full/half) seen as the lock state at rest",
          P(anchors=BOTTOM, initialState="half"),
          [{"t": 0.1, "call": "move", "to": "full", "animated": False}, {"t": 0.2, "end": True}],
          scroll=sv((0, 0, 0, 0), size=(0, 0)), delegate=deleg)

# --- SurfaceViewTests grabber band: surface bounds 375 x 500, list over the whole surface, panel at full
GEOM = {
  # position: (container, anchors, list contentSize, contentOffset, surface origin, closing direction (dx, dy))
  "bottom": ((375, 667), {"full": {"absoluteInset": 167, "edge": "top", "referenceGuide": "superview"},
                          "half": {"absoluteInset": 250, "edge": "bottom", "referenceGuide": "superview"},
                          "tip": {"absoluteInset": 60, "edge": "bottom", "referenceGuide": "superview"}},
             (375, 3000), (0, 200), (0, 167), (0, 5)),
  "top": ((375, 667), {"full": {"absoluteInset": 167, "edge": "bottom", "referenceGuide": "superview"},
                       "half": {"absoluteInset": 250, "edge": "top", "referenceGuide": "superview"},
                       "tip": {"absoluteInset": 60, "edge": "top", "referenceGuide": "superview"}},
          (375, 3000), (0, 200), (0, 0), (0, -5)),
  "left": ((667, 500), {"full": {"absoluteInset": 292, "edge": "right", "referenceGuide": "superview"},
                        "half": {"absoluteInset": 200, "edge": "left", "referenceGuide": "superview"},
                        "tip": {"absoluteInset": 60, "edge": "left", "referenceGuide": "superview"}},
           (3000, 500), (200, 0), (0, 0), (-5, 0)),
  "right": ((667, 500), {"full": {"absoluteInset": 292, "edge": "left", "referenceGuide": "superview"},
                         "half": {"absoluteInset": 200, "edge": "right", "referenceGuide": "superview"},
                         "tip": {"absoluteInset": 60, "edge": "right", "referenceGuide": "superview"}},
            (3000, 500), (200, 0), (292, 0), (5, 0)),
}
def grabber(name, desc, pos, g, down, recog, steps=6):
    (cw, ch), anchors, size, offset, (ox, oy), (dx, dy) = GEOM[pos]
    panel = P(position=pos, anchors=anchors, initialState="full")
    if g is not None: panel["grabberAreaOffset"] = g
    dt = 1 / 120
    s = [{"t": 0.1, "touch": "began", "x": ox + down[0], "y": oy + down[1]}]
    x, y = ox + recog[0], oy + recog[1]
    s.append({"t": 0.1 + dt, "touch": "moved", "x": x, "y": y})
    for k in range(steps):
        x += dx; y += dy
        s.append({"t": round(0.1 + (k + 2) * dt, 6), "touch": "moved", "x": x, "y": y})
    s.append({"t": round(0.1 + (steps + 2) * dt, 6), "end": True})
    write(name, desc, panel, s, env={"container": {"width": cw, "height": ch}},
          scroll=sv((0, 0, 375, 500), size=size, offset=offset), recognizer={"beginThreshold": 0})
EPS = 1 / 3
# SurfaceViewTests.test_surfaceView_grabberArea (grabberAreaOffset 44): one pixel inside vs on the far boundary
for pos, inside, outside in [("bottom", (187.5, 44 - EPS), (187.5, 44)), ("top", (187.5, 456), (187.5, 456 - EPS)),
                             ("left", (331, 250), (331 - EPS, 250)), ("right", (44 - EPS, 250), (44, 250))]:
    for tag, p in [("in", inside), ("out", outside)]:
        grabber(f"grabber-area-{pos}-{tag}", f"SurfaceViewTests.test_surfaceView_grabberArea, {pos}: grabberAreaOffset 44, touch {tag}side the band at the drag's start",
                pos, 44, p, p)

# SurfaceViewTests.test_surfaceView_grabberAreaDetection (default 36 pt band): the finger goes down inside
# the band and is recognized at the asserted point (the recognition-time location decides §3.8's arbitration)
DET = {"bottom": ((187.5, 10), [("a", (0, 0), True), ("b", (187.5, 0), True), ("c", (187.5, -2), True), ("d", (-2, 0), False), ("e", (-2, -2), False)]),
       "top": ((187.5, 490), [("a", (0, 500), True), ("b", (187.5, 500), True), ("c", (187.5, 502), True), ("d", (-2, 500), False), ("e", (-2, -2), False)]),
       "left": ((365, 250), [("a", (375, 0), True), ("b", (375, 250), True), ("c", (377, 250), True), ("d", (375, -2), False), ("e", (-2, -2), False)]),
       "right": ((10, 250), [("a", (0, 0), True), ("b", (0, 250), True), ("c", (-2, 250), True), ("d", (0, -2), False), ("e", (-2, -2), False)])}
for pos, (down, pts) in DET.items():
    for tag, p, expect in pts:
        grabber(f"grabber-detect-{pos}-{tag}", f"SurfaceViewTests.test_surfaceView_grabberAreaDetection, {pos}: recognized at {p} (surface-local), upstream grabberAreaContains = {str(expect).lower()}",
                pos, None, down, p)
