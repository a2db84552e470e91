#!/usr/bin/env bash
# Renders every kind of PanelSim report in headless Chromium at 1400 and 420 px wide: pass, fail
# (a frame nudged in a golden), an event-only failure (one touch moved), diff (with the trace),
# tune, sweep, a MISSING report, check's index page, and one failing report per panel system
# (FloatingPanel is the fail page). Fails when a page overflows horizontally, a table cell or a
# chart sticks out of the window, two SVG text elements overlap or one is cut at its chart's edge, text renders smaller than
# 10 CSS px, a failing report does not show the plot before the text report, or the event-only
# failure's first screen does not name the event, its field and both values with the plot
# marking it. Also checks that reports are byte-identical run to run and between
# `check --report-dir` and `report`, and that the index links every failing report.
# Screenshots and the pages are kept in $SHOTS (default .build/report-screenshots/), CI artifacts.
# Usage: scripts/report-browser-check.sh [PANELSIM_BINARY]
# Skips (exit 0, with a message) when Chromium is missing and cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
SHOTS="${SHOTS:-.build/report-screenshots}"
PANELSIM="${1:-.build/debug/panelsim}"

find_chromium() { command -v chromium || command -v chromium-browser || command -v google-chrome || true; }
CHROMIUM="$(find_chromium)"
if [ -z "$CHROMIUM" ] && command -v apt-get >/dev/null 2>&1; then
  echo "report browser check: installing chromium (Debian package)"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo -n"
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium; } >/dev/null 2>&1 || true
  CHROMIUM="$(find_chromium)"
fi
if [ -z "$CHROMIUM" ]; then
  echo "report browser check SKIPPED: chromium is not installed and could not be installed (apt-get install -y chromium)"
  exit 0
fi
[ -x "$PANELSIM" ] || swift build --product panelsim >/dev/null
P="$(cd "$(dirname "$PANELSIM")" && pwd)/$(basename "$PANELSIM")"
REPO="$(pwd)"

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
rm -rf "$SHOTS"; mkdir -p "$SHOTS"
status=0
fail() { echo "FAIL $*"; status=1; }

# A golden nudged by 3 pt makes the failing FloatingPanel report (and the diff).
TRACE=traces/flicks/flick-d1-full-to-half-500.jsonl
GOLDEN=golden/flicks/flick-d1-full-to-half-500.golden.jsonl
awk 'BEGIN{done=0} { if (!done && NR>10 && index($0, "\"frame\"") && match($0, /"location": [0-9.]+/)) { v=substr($0, RSTART+12, RLENGTH-12); sub(/"location": [0-9.]+/, "\"location\": " v+3); done=1 } print }' "$GOLDEN" > "$WORK/nudged.golden.jsonl"
"$P" report "$TRACE" -o "$WORK/pass.html" 2>/dev/null || fail "panelsim report of a passing trace exited $?"
"$P" report "$TRACE" --golden "$WORK/nudged.golden.jsonl" -o "$WORK/fail.html" 2>/dev/null && fail "report of a differing result exited 0" || true
"$P" replay "$TRACE" -o "$WORK/actual.jsonl" 2>/dev/null || fail "panelsim replay"
"$P" diff "$WORK/nudged.golden.jsonl" "$WORK/actual.jsonl" --report "$WORK/diff.html" --trace "$TRACE" >/dev/null 2>&1 || true
"$P" tune traces/tune/flick-up-fast.jsonl traces/tune/slow-release.jsonl --param springResponseTime=0.3...0.8 --grid 3 --precision 1e-2 --report "$WORK/tune.html" >/dev/null 2>&1 || fail "panelsim tune --report"
"$P" sweep traces/tune/flick-up-fast.jsonl --param springResponseTime=0.3...0.8:6 --svg "$WORK/sweep.svg" >/dev/null 2>&1 || fail "panelsim sweep --svg"
{ echo '<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="margin:8px">'; cat "$WORK/sweep.svg"; echo '</body></html>'; } > "$WORK/sweep.html"

# A small corpus of failing copies (the traces changed, the goldens as blessed), checked with
# --report-dir: one failing report per system, the event-only failure, a MISSING trace, a pass.
C="$WORK/corpus"
copy() {  # TRACE_REL PROGRAM sed|awk: the trace changed by PROGRAM, its golden as blessed
  local g="${1#traces/}"; g="${g%.jsonl}.golden.jsonl"
  mkdir -p "$C/$(dirname "$1")" "$C/golden/$(dirname "$g")"
  if [ "$3" = sed ]; then sed "$2" "$REPO/$1" > "$C/$1"; else awk "$2" "$REPO/$1" > "$C/$1"; fi
  cmp -s "$REPO/$1" "$C/$1" && fail "the nudge of $1 changed nothing"
  cp "$REPO/golden/$g" "$C/golden/$g"
}
# One touch moved 20 pt: only a didMove event differs (no frame shows it).
copy traces/tune/slow-release.jsonl 's/^{"t": 0.391667, "touch": "moved", "x": 195, "y": 502.08333333333337}/{"t": 0.391667, "touch": "moved", "x": 195, "y": 522.08333333333337}/' sed
# The LNPopup and UISheet cases whose records fall out of step (a frame one side omits).
copy traces/lnpopup/s1/drag-slow-to-top-tab.jsonl 's/^{"t": 3.06, "touch": "moved", "x": 195, "y": 20,/{"t": 3.06, "touch": "moved", "x": 195, "y": 40,/' sed
copy traces/uisheet/x4/x4-modal-large-far.jsonl 's/^{"t": 0.275, "touch": "moved", "x": 195, "y": 700}/{"t": 0.275, "touch": "moved", "x": 195, "y": 680}/' sed
# DrawerKit: the tenth moved sample 20 pt lower.
copy traces/drawerkit/pull/d1-list-at-partial-drags-drawer.jsonl '/"touch": "moved"/ { n++; if (n == 10 && match($0, /"y": [0-9.]+/)) { v=substr($0, RSTART+5, RLENGTH-5); sub(/"y": [0-9.]+/, "\"y\": " v+20) } } { print }' awk
mkdir -p "$C/traces/flicks" "$C/golden/flicks"
cp "$REPO/$TRACE" "$C/traces/flicks/"; cp "$REPO/$GOLDEN" "$C/golden/flicks/"
cp "$REPO/$TRACE" "$C/traces/flicks/missing-golden.jsonl"
(cd "$C" && "$P" check traces --record never --report-dir reports > check.out 2>&1) && fail "check of the failing corpus exited 0" || true
grep -q "^report index: reports/index.html$" "$C/check.out" || fail "check --report-dir did not name its index: $(tail -3 "$C/check.out")"
cp "$C/reports/index.html" "$WORK/index.html"
cp "$C/reports/tune/slow-release.html" "$WORK/event.html"
cp "$C/reports/lnpopup/s1/drag-slow-to-top-tab.html" "$WORK/lnpopup.html"
cp "$C/reports/uisheet/x4/x4-modal-large-far.html" "$WORK/uisheet.html"
cp "$C/reports/drawerkit/pull/d1-list-at-partial-drags-drawer.html" "$WORK/drawerkit.html"
cp "$C/reports/flicks/missing-golden.html" "$WORK/missing.html"
for r in tune/slow-release lnpopup/s1/drag-slow-to-top-tab uisheet/x4/x4-modal-large-far drawerkit/pull/d1-list-at-partial-drags-drawer flicks/missing-golden; do
  grep -q "href=\"$r.html\"" "$WORK/index.html" || fail "index: no link to $r.html"
done
grep -q 'panelsim check traces/flicks/missing-golden.jsonl --record missing' "$WORK/missing.html" || fail "missing: no record command"
# check --report-dir and report give the same bytes.
(cd "$C" && "$P" report traces/tune/slow-release.jsonl -o "$WORK/event-report.html" >/dev/null 2>&1) || true
cmp -s "$WORK/event.html" "$WORK/event-report.html" || fail "event: check --report-dir and report differ"
(cd "$C" && "$P" report traces/flicks/missing-golden.jsonl -o "$WORK/missing-report.html" >/dev/null 2>&1) || true
cmp -s "$WORK/missing.html" "$WORK/missing-report.html" || fail "missing: check --report-dir and report differ"

# Each page is loaded into an iframe of the width under test (headless Chromium's window is at
# least 500 px wide) inside a harness page whose script measures it; the reports have no script.
# Self-tests of the measurement: overlapping labels, tiny text and text cut at a chart's edge must be caught.
printf '<!DOCTYPE html><html><body><svg width="300" height="100"><text x="10" y="50">overlapping</text><text x="20" y="52">labels</text></svg></body></html>\n' > "$WORK/selftest.html"
printf '<!DOCTYPE html><html><body><svg width="100%%" viewBox="0 0 2000 200"><text x="10" y="50" font-size="12">text far below 10 px</text></svg></body></html>\n' > "$WORK/tinytext.html"
printf '<!DOCTYPE html><html><body><svg width="300" height="100"><text x="250" y="50">cut at the right edge</text></svg></body></html>\n' > "$WORK/cuttext.html"
cat > "$WORK/measure.js" <<'JS'
var MIN_PX = 10;
function measure(frame) {
  var doc = frame.contentDocument, win = frame.contentWindow;
  var problems = [];
  var de = doc.documentElement;
  if (de.scrollWidth > win.innerWidth + 1) problems.push("overflows horizontally: scrollWidth " + de.scrollWidth + " > " + win.innerWidth);
  var smallest = 1e9;
  doc.querySelectorAll("svg").forEach(function (svg, k) {
    var r = svg.getBoundingClientRect();
    if (r.width > 0 && r.right > win.innerWidth + 1) problems.push("svg " + k + " clipped: right " + Math.round(r.right));
    var texts = Array.prototype.slice.call(svg.querySelectorAll("text")).map(function (t) {
      return { b: t.getBoundingClientRect(), s: t.textContent, e: t };
    }).filter(function (t) { return t.b.width > 0; });
    texts.forEach(function (t) {
      if (t.b.left < r.left - 1 || t.b.right > r.right + 1) problems.push("svg " + k + ": text '" + t.s + "' cut at the chart's edge");
      var m = t.e.getScreenCTM(), px = parseFloat(win.getComputedStyle(t.e).fontSize) * Math.sqrt(m.a * m.a + m.b * m.b);
      smallest = Math.min(smallest, px);
      if (px < MIN_PX - 0.05) problems.push("svg " + k + ": text '" + t.s + "' is " + px.toFixed(1) + " px");
    });
    for (var i = 0; i < texts.length; i++) for (var j = i + 1; j < texts.length; j++) {
      var a = texts[i].b, b = texts[j].b;
      var w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 0.5 && h > Math.min(a.height, b.height) * 0.25) problems.push("svg " + k + ": text '" + texts[i].s + "' overlaps '" + texts[j].s + "'");
    }
  });
  // HTML text: every visible element holding text of its own.
  doc.querySelectorAll("body *").forEach(function (el) {
    if (el.closest("svg")) return;
    var own = Array.prototype.some.call(el.childNodes, function (n) { return n.nodeType === 3 && n.textContent.trim() !== ""; });
    if (!own || el.getClientRects().length === 0) return;
    var px = parseFloat(win.getComputedStyle(el).fontSize);
    smallest = Math.min(smallest, px);
    if (px < MIN_PX - 0.05) problems.push("text '" + el.textContent.trim().slice(0, 30) + "' is " + px + " px");
  });
  // No table column off-screen.
  doc.querySelectorAll("td, th").forEach(function (c) {
    var r = c.getBoundingClientRect();
    if (r.width > 0 && r.right > win.innerWidth + 1) problems.push("table cell '" + c.textContent.trim().slice(0, 20) + "' off-screen: right " + Math.round(r.right));
  });
  var firstSvg = Array.prototype.find.call(doc.querySelectorAll("svg"), function (s) { return s.getBoundingClientRect().width > 0; });
  var pre = doc.querySelector("pre");
  var order = firstSvg && pre ? (firstSvg.getBoundingClientRect().top < pre.getBoundingClientRect().top ? "plot-first" : "text-first") : "n/a";
  var verdict = doc.querySelector(".verdict");
  var mark = firstSvg ? firstSvg.querySelector('[data-mark="event-divergence"]') : null;
  var out = document.createElement("div");
  out.textContent = "RESULT " + frame.getAttribute("data-name") + " " + JSON.stringify({
    count: problems.length, order: order, smallest: Math.round(smallest * 10) / 10,
    verdict: verdict ? verdict.textContent.replace(/\s+/g, " ").slice(0, 300) : "",
    verdictBottom: verdict ? Math.round(verdict.getBoundingClientRect().bottom) : -1,
    markTop: mark ? Math.round(mark.getBoundingClientRect().top) : -1,
    problems: problems.slice(0, 12) });
  document.body.appendChild(out);
}
JS

frame() {  # page width height name onload
  printf '<iframe data-name="%s" style="width:%spx;height:%spx;border:0;display:block" %s srcdoc="' "$4" "$2" "$3" "$5"
  sed -e 's/&/\&amp;/g' -e 's/"/\&quot;/g' "$WORK/$1.html"
  printf '"></iframe>\n'
}

SELFTESTS="selftest tinytext cuttext"
PAGES="pass fail event diff tune sweep missing index drawerkit lnpopup uisheet"
# One harness page measures every page at both widths (one browser start); one screenshot each.
{
  printf '<!DOCTYPE html><html><head><meta charset="utf-8"><script>'; cat "$WORK/measure.js"; printf '</script></head><body style="margin:0">\n'
  for page in $SELFTESTS $PAGES; do for width in 1400 420; do
    [ -f "$WORK/$page.html" ] && frame "$page" "$width" 1000 "$page@$width" 'onload="measure(this)"'
  done; done
  printf '</body></html>\n'
} > "$WORK/measure.html"
results="$("$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1000 \
  --virtual-time-budget=20000 --dump-dom "file://$WORK/measure.html" 2>/dev/null | grep -o 'RESULT [^<]*' || true)"
result_of() { printf '%s\n' "$results" | grep "^RESULT $1 " | awk 'NR == 1' | sed 's/&quot;/"/g; s/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g' || true; }
for page in $SELFTESTS; do for width in 1400 420; do
  case "$(result_of "$page@$width")" in
    '') fail "self-test $page @ ${width}px: no measurement";;
    *'"count":0'*) fail "the measurement missed the self-test $page @ ${width}px";;
    *) echo "ok   measurement self-test $page @ ${width}px (caught)";;
  esac
done; done
for page in $PAGES; do
  [ -f "$WORK/$page.html" ] || { fail "$page: no report was written"; continue; }
  for width in 1400 420; do
    { printf '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">'; frame "$page" "$width" 2600 x ""; printf '</body></html>\n'; } > "$WORK/$page-$width.shot.html"
    "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=$width,2600 \
      --screenshot="$SHOTS/$page-$width.png" "file://$WORK/$page-$width.shot.html" >/dev/null 2>&1 || true
    result="$(result_of "$page@$width")"
    if [ -z "$result" ]; then fail "$page @ ${width}px: no measurement (page did not load)"; continue; fi
    smallest="$(printf '%s' "$result" | grep -o '"smallest":[0-9.]*' | cut -d: -f2)"
    case "$result" in
      *'"count":0'*) echo "ok   $page @ ${width}px (smallest text ${smallest} px)";;
      *) fail "$page @ ${width}px: ${result#RESULT * }";;
    esac
    case "$page" in fail|event|lnpopup|uisheet|drawerkit)
      case "$result" in *'"order":"plot-first"'*) ;; *) fail "$page @ ${width}px: the text report comes before the plot";; esac;;
    esac
    if [ "$page" = event ]; then
      # The first screen names the event, the field and both values, and the plot marks it.
      for needle in 'Event didMove' 'location' '336.583333' '356.583333' 'Δ +20 pt'; do
        case "$result" in *"$needle"*) ;; *) fail "event @ ${width}px: the headline does not say '$needle'";; esac
      done
      bottom="$(printf '%s' "$result" | grep -o '"verdictBottom":-\?[0-9]*' | cut -d: -f2)"
      [ "${bottom:-9999}" -gt 0 ] && [ "${bottom:-9999}" -le 900 ] || fail "event @ ${width}px: the headline ends at ${bottom} px, below the first screen"
      mark="$(printf '%s' "$result" | grep -o '"markTop":-\?[0-9]*' | cut -d: -f2)"
      [ "${mark:--1}" -ge 0 ] || fail "event @ ${width}px: the location plot does not mark the differing event"
      [ "$width" = 1400 ] && { [ "${mark:-9999}" -le 1000 ] || fail "event @ 1400px: the event mark starts at ${mark} px, below the first screen"; }
    fi
  done
done
# What a failing report must show.
for needle in 'golden events' 'actual events' 'finger (touch samples)' 'Residual: actual' 'Zoom at the first difference' 'data-mark="event-divergence"'; do
  grep -q "$needle" "$WORK/event.html" || fail "event: missing '$needle'"
done
for needle in 'anchor ' 'finger (touch samples)'; do grep -q "$needle" "$WORK/diff.html" || fail "diff: missing '$needle' (diff --trace)"; done
grep -q 'Error at the observations' "$WORK/tune.html" || fail "tune: no residual chart"
# Byte-deterministic: the same report twice.
"$P" report "$TRACE" --golden "$WORK/nudged.golden.jsonl" -o "$WORK/fail2.html" 2>/dev/null || true
cmp -s "$WORK/fail.html" "$WORK/fail2.html" || fail "fail: two renderings differ"
mkdir -p "$SHOTS/html"
for page in $PAGES; do [ -f "$WORK/$page.html" ] && cp "$WORK/$page.html" "$SHOTS/html/"; done
echo "screenshots: $SHOTS/ (the pages themselves in $SHOTS/html/)"
[ $status = 0 ] && echo "report browser check passed" || echo "report browser check FAILED"
exit $status
