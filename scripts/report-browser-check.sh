#!/usr/bin/env bash
# Renders every kind of PanelSim report (pass, fail, diff, tune, sweep, and a report per panel
# system) in headless Chromium at 1400 and 420 px wide and fails when a page overflows
# horizontally, when two SVG text elements overlap, or when a failing report does not show the
# plot before the text report (with both event lanes, the finger samples and the residual).
# Screenshots are kept in $SHOTS (default .build/report-screenshots/), CI artifacts.
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

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
rm -rf "$SHOTS"; mkdir -p "$SHOTS"
P="$PANELSIM"

# The reports. A golden nudged by 3 pt makes the failing one (and the diff).
TRACE=traces/flicks/flick-d1-full-to-half-500.jsonl
GOLDEN=golden/flicks/flick-d1-full-to-half-500.golden.jsonl
awk 'BEGIN{done=0} { if (!done && NR>10 && index($0, "\"frame\"") && match($0, /"location": [0-9.]+/)) { v=substr($0, RSTART+12, RLENGTH-12); sub(/"location": [0-9.]+/, "\"location\": " v+3); done=1 } print }' "$GOLDEN" > "$WORK/nudged.golden.jsonl"
"$P" report "$TRACE" -o "$WORK/pass.html" 2>/dev/null || { echo "FAIL: panelsim report of a passing trace exited $?"; exit 1; }
"$P" report "$TRACE" --golden "$WORK/nudged.golden.jsonl" -o "$WORK/fail.html" 2>/dev/null && { echo "report of a differing result exited 0"; exit 1; } || true
"$P" replay "$TRACE" -o "$WORK/actual.jsonl" 2>/dev/null || { echo "FAIL: panelsim replay"; exit 1; }
"$P" diff "$WORK/nudged.golden.jsonl" "$WORK/actual.jsonl" --report "$WORK/diff.html" >/dev/null 2>&1 || true
"$P" tune traces/tune/flick-up-fast.jsonl traces/tune/slow-release.jsonl --param springResponseTime=0.3...0.8 --grid 3 --precision 1e-2 --report "$WORK/tune.html" >/dev/null 2>&1 || { echo "FAIL: panelsim tune --report"; exit 1; }
"$P" sweep traces/tune/flick-up-fast.jsonl --param springResponseTime=0.3...0.8:6 --svg "$WORK/sweep.svg" >/dev/null 2>&1 || { echo "FAIL: panelsim sweep --svg"; exit 1; }
for t in drawerkit lnpopup uisheet; do
  # awk reads to the end (`head -1` would close the pipe early: sort could die of SIGPIPE, which
  # pipefail turns into a failed check).
  f="$(find traces/$t -name '*.jsonl' | LC_ALL=C sort | awk 'NR == 1')"
  "$P" report "$f" -o "$WORK/$t.html" >/dev/null 2>&1 || true
done
{ echo '<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="margin:8px">'; cat "$WORK/sweep.svg"; echo '</body></html>'; } > "$WORK/sweep.html"

# Each page is loaded into an iframe of the width under test (headless Chromium's window is at
# least 500 px wide) inside a harness page whose script measures it; the reports have no script.
# Self-test of the measurement: a page with two overlapping labels must be caught.
printf '<!DOCTYPE html><html><body><svg width="300" height="100"><text x="10" y="50">overlapping</text><text x="20" y="52">labels</text></svg></body></html>\n' > "$WORK/selftest.html"
cat > "$WORK/measure.js" <<'JS'
function measure(frame) {
  var doc = frame.contentDocument, win = frame.contentWindow;
  var problems = [];
  var de = doc.documentElement;
  if (de.scrollWidth > win.innerWidth + 1) problems.push("overflows horizontally: scrollWidth " + de.scrollWidth + " > " + win.innerWidth);
  doc.querySelectorAll("svg").forEach(function (svg, k) {
    var r = svg.getBoundingClientRect();
    if (r.right > win.innerWidth + 1) problems.push("svg " + k + " clipped: right " + Math.round(r.right));
    var texts = Array.prototype.slice.call(svg.querySelectorAll("text")).map(function (t) {
      return { b: t.getBoundingClientRect(), s: t.textContent };
    }).filter(function (t) { return t.b.width > 0; });
    for (var i = 0; i < texts.length; i++) for (var j = i + 1; j < texts.length; j++) {
      var a = texts[i].b, b = texts[j].b;
      var w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 0.5 && h > Math.min(a.height, b.height) * 0.25) problems.push("svg " + k + ": text '" + texts[i].s + "' overlaps '" + texts[j].s + "'");
    }
  });
  var firstSvg = doc.querySelector("svg"), pre = doc.querySelector("pre");
  var order = firstSvg && pre ? (firstSvg.getBoundingClientRect().top < pre.getBoundingClientRect().top ? "plot-first" : "text-first") : "n/a";
  var out = document.createElement("div");
  out.textContent = "RESULT " + frame.getAttribute("data-name") + " " + JSON.stringify({ count: problems.length, order: order, problems: problems.slice(0, 12) });
  document.body.appendChild(out);
}
JS

frame() {  # page width height name onload
  printf '<iframe data-name="%s" style="width:%spx;height:%spx;border:0;display:block" %s srcdoc="' "$4" "$2" "$3" "$5"
  sed -e 's/&/\&amp;/g' -e 's/"/\&quot;/g' "$WORK/$1.html"
  printf '"></iframe>\n'
}

PAGES="selftest pass fail diff tune sweep drawerkit lnpopup uisheet"
# One harness page measures every page at both widths (one browser start); one screenshot each.
{
  printf '<!DOCTYPE html><html><head><meta charset="utf-8"><script>'; cat "$WORK/measure.js"; printf '</script></head><body style="margin:0">\n'
  for page in $PAGES; do for width in 1400 420; do
    [ -f "$WORK/$page.html" ] && frame "$page" "$width" 1000 "$page@$width" 'onload="measure(this)"'
  done; done
  printf '</body></html>\n'
} > "$WORK/measure.html"
results="$("$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1000 \
  --virtual-time-budget=10000 --dump-dom "file://$WORK/measure.html" 2>/dev/null | grep -o 'RESULT [^<]*' || true)"
status=0
for page in $PAGES; do
  [ -f "$WORK/$page.html" ] || { echo "FAIL $page: no report was written"; status=1; continue; }
  for width in 1400 420; do
    { printf '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">'; frame "$page" "$width" 2600 x ""; printf '</body></html>\n'; } > "$WORK/$page-$width.shot.html"
    "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=$width,2600 \
      --screenshot="$SHOTS/$page-$width.png" "file://$WORK/$page-$width.shot.html" >/dev/null 2>&1 || true
    result="$(printf '%s\n' "$results" | grep "^RESULT $page@$width " | awk 'NR == 1' || true)"
    if [ -z "$result" ]; then echo "FAIL $page @ ${width}px: no measurement (page did not load)"; status=1; continue; fi
    case "$result" in
      *'"count":0'*) if [ "$page" = selftest ]; then echo "FAIL the overlap measurement missed the self-test's overlap"; status=1; else echo "ok   $page @ ${width}px"; fi;;
      *) if [ "$page" = selftest ]; then echo "ok   measurement self-test @ ${width}px (overlap caught)"; else echo "FAIL $page @ ${width}px: ${result#RESULT * }"; status=1; fi;;
    esac
    if [ "$page" = fail ] && [ "$width" = 1400 ]; then
      case "$result" in *'"order":"plot-first"'*) ;; *) echo "FAIL fail: the text report comes before the plot"; status=1;; esac
    fi
  done
done
# What a failing report must show.
for needle in 'golden events' 'actual events' 'finger (touch samples)' 'Residual: actual' 'Zoom around the first divergence'; do
  grep -q "$needle" "$WORK/fail.html" || { echo "FAIL fail: missing '$needle'"; status=1; }
done
# Byte-deterministic: the same report twice.
"$P" report "$TRACE" --golden "$WORK/nudged.golden.jsonl" -o "$WORK/fail2.html" 2>/dev/null || true
cmp -s "$WORK/fail.html" "$WORK/fail2.html" || { echo "FAIL fail: two renderings differ"; status=1; }
echo "screenshots: $SHOTS/"
[ $status = 0 ] && echo "report browser check passed" || echo "report browser check FAILED"
exit $status
