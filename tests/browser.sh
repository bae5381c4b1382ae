#!/bin/sh
# browser.sh: the HTML page and the SVG charts as a browser shows them:
# headless Chromium renders them to screenshots, which must not be blank,
# must hold the colours of the first series of the chart (checked in the
# PNG's pixels, read by tests/png_colours with Cairo), and Chromium must
# log no console error. Skipped with a message where Chromium or the chart
# formats (Cairo) are absent.
. "${top_srcdir:-.}/tests/lib.sh"

data=$top_srcdir/data
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
	echo "SKIP: no chromium (Debian's chromium package) to render the HTML page"
	exit 77
fi
if rpt -q --report=cpu --by=hour --format=html -o "$tmp/probe.html" "$data/sample-pm.dat" \
	2> "$tmp/probe.err"; [ $? -eq 12 ] && grep -q 'without Cairo' "$tmp/probe.err"; then
	echo "SKIP: pmimrpt was built without Cairo and Pango (configure --without-cairo)"
	exit 77
fi

# shot FILE PNG W H: Chromium's screenshot of FILE; its log kept in PNG.log
shot() {
	HOME=$tmp timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$tmp/chromium" --enable-logging=stderr --v=0 \
		--window-size="$3,$4" --screenshot="$2" "file://$1" > "$2.log" 2>&1
}

# colours PNG R,G,B...: for each colour, the pixels within 8 of it in
# every channel; then "distinct N" (colours) and "ink N" (non-white pixels)
colours() { "$top_builddir/tests/png_colours" "$@"; }

# judge PNG WHAT COLOUR...: not blank, each colour shown, no console error
judge() {
	png=$1 what=$2
	shift 2
	if [ ! -s "$png" ]; then
		fail "$what: no screenshot"; tail -5 "$png.log"; return
	fi
	colours "$png" "$@" > "$png.colours" 2>&1 || { fail "$what: unreadable PNG"; cat "$png.colours"; return; }
	ink=$(awk '$1 == "ink" { print $2 }' "$png.colours")
	distinct=$(awk '$1 == "distinct" { print $2 }' "$png.colours")
	if [ "${ink:-0}" -gt 20000 ] && [ "${distinct:-0}" -gt 16 ]; then
		pass "$what: not blank ($ink pixels of ink, $distinct colours)"
	else
		fail "$what: blank ($ink pixels of ink, $distinct colours)"
	fi
	for c in "$@"; do
		n=$(awk -v c="$c" '$1 == c { print $2 }' "$png.colours")
		if [ "${n:-0}" -gt 200 ]; then pass "$what: colour $c shown ($n pixels)"
		else fail "$what: colour $c not shown (${n:-0} pixels)"; fi
	done
	if grep -E 'Uncaught|ERROR:CONSOLE|CONSOLE\(' "$png.log" > "$png.console"; then
		fail "$what: console errors"; head -5 "$png.console"
	else
		pass "$what: no console error"
	fi
}

# the first three series: TCB, SRB on CP, SRB on zIIP (chartdraw.c's palette)
blue=0,114,178 orange=230,159,0 yellow=240,228,66
expect_rc 0 rpt -q --report=cpu --by=hour -o "$tmp/cpu.html" --format=html "$data/sample-smf-rdw.dat"
if xmllint --noout "$tmp/cpu.html" 2> "$tmp/xmllint.err"; then pass "xmllint: the HTML page"
else fail "xmllint: the HTML page"; head -3 "$tmp/xmllint.err"; fi
has_line "$tmp/cpu.html" '<svg ' "the page holds its charts inline as SVG"
if grep -E '<script|<link|src="http|url\(http' "$tmp/cpu.html" > /dev/null; then
	fail "the page names nothing outside it"
else
	pass "the page names nothing outside it (no script, link or network address)"
fi
shot "$tmp/cpu.html" "$tmp/cpu-html.png" 1100 1600
judge "$tmp/cpu-html.png" "the cpu page" $blue $orange $yellow
expect_rc 0 rpt -q --report=waits --by=day -o "$tmp/waits.html" --format=html "$data/sample-smf-bdw.dat"
shot "$tmp/waits.html" "$tmp/waits-html.png" 1100 1600
judge "$tmp/waits-html.png" "the waits page" $blue $orange
expect_rc 0 rpt -q --report=cpu --by=hour --source=SYSB --format=svg -o "$tmp/cpu.svg" \
	"$data/sample-smf-rdw.dat"
shot "$tmp/cpu.svg" "$tmp/cpu-svg.png" 960 576
judge "$tmp/cpu-svg.png" "the cpu SVG" $blue $orange $yellow
# and the check can fail: the eighth series' purple is in no cpu chart
purple=106,61,154
colours "$tmp/cpu-svg.png" $purple > "$tmp/purple.txt"
echo "$purple 0" > "$tmp/purple.want"
head -1 "$tmp/purple.txt" > "$tmp/purple.got"
same "$tmp/purple.want" "$tmp/purple.got" "a colour the chart does not use is not found"
finish
