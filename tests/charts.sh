#!/bin/sh
# charts.sh: the chart formats (--format=svg, png, pdf): golden SVG files of
# the built-in charts of the bundled samples (compared only where DejaVu
# Sans is the font fontconfig gives, as the goldens were drawn with it),
# every SVG valid XML (xmllint), the same bytes on every run, the sizes of
# --chart-size, a page a chart in PDF, gaps and incomplete periods as the
# generator and the truth files say they are, and the usage errors. Skipped
# when pmimrpt was built without Cairo. To accept new goldens after a
# deliberate change: UPDATE_GOLDEN=1 make check TESTS=tests/charts.sh.
. "${top_srcdir:-.}/tests/lib.sh"

golden=$top_srcdir/tests/chart-golden
data=$top_srcdir/data
if rpt -q --report=cpu --by=hour --format=svg -o "$tmp/probe.svg" "$data/sample-pm.dat" \
	2> "$tmp/probe.err"; [ $? -eq 12 ] && grep -q 'without Cairo' "$tmp/probe.err"; then
	echo "SKIP: pmimrpt was built without Cairo and Pango (configure --without-cairo)"
	exit 77
fi
if ! command -v xmllint > /dev/null; then
	echo "SKIP: xmllint (Debian's libxml2-utils) is needed to check the SVG"
	exit 77
fi
fonts_match=no
case $(fc-match -f '%{file}' 'DejaVu Sans' 2> /dev/null) in
*/DejaVuSans.ttf) fonts_match=yes ;;
*) echo "note: DejaVu Sans is not the font fontconfig gives: golden files not compared" ;;
esac

# every SVG in folder $1 valid, and those of the goldens the same bytes
check_svgs() {
	for f in "$1"/*.svg; do
		if xmllint --noout "$f" 2> "$tmp/xmllint.err"; then
			pass "xmllint: $(basename "$f")"
		else
			fail "xmllint: $(basename "$f")"; head -3 "$tmp/xmllint.err"
		fi
	done
}
compare_golden() { # NAME FILE
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then cp "$2" "$golden/$1"; fi
	if [ $fonts_match = yes ]; then same "$golden/$1" "$2" "golden $1"; fi
}

# the built-in charts of the samples, a file each in a folder
mkdir "$tmp/rdw" "$tmp/perf"
for report in cpu waits tasks; do
	expect_rc 0 rpt -q --report=$report --by=hour --format=svg -o "$tmp/rdw/" \
		"$data/sample-smf-rdw.dat"
done
ls "$tmp/rdw" > "$tmp/rdw.list"
printf '%s\n' avg_wait-SYSA.svg avg_wait-SYSB.svg cpu-SYSA.svg cpu-SYSB.svg tasks-SYSA.svg \
	tasks-SYSB.svg waits-SYSA.svg waits-SYSB.svg > "$tmp/rdw.want"
same "$tmp/rdw.want" "$tmp/rdw.list" "-o DIR/: a file per chart and source, CHART-SOURCE.svg"
check_svgs "$tmp/rdw"
for f in cpu-SYSA.svg waits-SYSA.svg avg_wait-SYSA.svg tasks-SYSA.svg; do
	compare_golden "$f" "$tmp/rdw/$f"
done
expect_rc 0 rpt -q --report=perf --by=hour --perf-names="$data/sample-perf.names.txt" \
	--format=svg -o "$tmp/perf" "$data/sample-perf.bin"
# a chart per system, object and counter: as many as the CSV has
rpt -q --report=perf --by=hour "$data/sample-perf.bin" |
	awk -F, 'NR > 1 { print $1 "," $4 "," $6 }' | sort -u | wc -l | tr -d ' ' > "$tmp/perf.want"
ls "$tmp/perf" | wc -l | tr -d ' ' > "$tmp/perf.got"
same "$tmp/perf.want" "$tmp/perf.got" "perf: a chart per system, object and counter"
check_svgs "$tmp/perf"
compare_golden perf-WINA_Processor___Processor_Time.svg \
	"$tmp/perf/perf-WINA_Processor___Processor_Time.svg"

# the same bytes on every run: no time, no random id
rpt -q --report=cpu --by=hour --format=svg --source=SYSA -o "$tmp/again.svg" \
	"$data/sample-smf-rdw.dat"
same "$tmp/rdw/cpu-SYSA.svg" "$tmp/again.svg" "the same SVG on a second run"

# PNG: two pixels a point; --chart-size
expect_rc 0 rpt -q --report=cpu --by=hour --format=png --source=SYSB --chart-size=400x300 \
	-o "$tmp/small.png" "$data/sample-smf-rdw.dat"
od -An -tx1 -j0 -N24 "$tmp/small.png" | tr -d ' \n' > "$tmp/png.head"
# the signature, IHDR, then the width 800 and the height 600
echo 89504e470d0a1a0a0000000d494844520000032000000258 > "$tmp/png.want"
echo "$(cat "$tmp/png.head")" > "$tmp/png.got"
same "$tmp/png.want" "$tmp/png.got" "--chart-size=400x300: a PNG of 800 x 600 pixels"
rpt -q --report=cpu --by=hour --format=svg --source=SYSB --chart-size=400x300 \
	-o "$tmp/small.svg" "$data/sample-smf-rdw.dat"
has_line "$tmp/small.svg" 'width="400pt" height="300pt"' "--chart-size=400x300: an SVG of 400 x 300 points"

# PDF: a page a chart, the run time as its dates, the same bytes again
for i in 1 2; do
	SOURCE_DATE_EPOCH=1741000000 rpt -q --report=waits --by=hour --format=pdf \
		-o "$tmp/waits$i.pdf" "$data/sample-smf-rdw.dat"
done
echo 4 > "$tmp/pages.want"
grep -a -c '/Type /Page\( \|$\)' "$tmp/waits1.pdf" > "$tmp/pages.got" || true
same "$tmp/pages.want" "$tmp/pages.got" "PDF: a page for each of the 4 charts (2 sources x waits, avg_wait)"
has_line "$tmp/waits1.pdf" 'CreationDate (20250303110640' "PDF: created at SOURCE_DATE_EPOCH"
same "$tmp/waits1.pdf" "$tmp/waits2.pdf" "the same PDF on a second run"

# gaps: two days of intervals a day apart; the tasks started line of a
# source is drawn in two pieces, not across the missing day
gen --sources=SYSA --start="2025-03-03 00:00" --intervals=96 --seed=3 -o "$tmp/day1.dat"
gen --sources=SYSA --start="2025-03-05 00:00" --intervals=96 --seed=4 -o "$tmp/day3.dat"
cat "$tmp/day1.dat" "$tmp/day3.dat" > "$tmp/gap.dat"
expect_rc 0 rpt -q --report=tasks --by=hour --format=svg -o "$tmp/gap.svg" "$tmp/gap.dat"
# series 1's colour (0, 0.447, 0.698); the longest path is the line, the
# legend's is one stroke
grep 'stroke:rgb(0%,44.7%,69.8%)' "$tmp/gap.svg" | awk '{ print length($0), gsub(/ M /, "") + gsub(/"M /, "") }' |
	sort -n | tail -1 | cut -d' ' -f2 > "$tmp/gap.got"
echo 2 > "$tmp/gap.want"
same "$tmp/gap.want" "$tmp/gap.got" "a missing day: the line is broken there (two pieces)"

# incomplete periods: a mark under each hour of SYSA the truth says has an
# interval lacking parts, and one in the legend
awk -F, '$1 == "SYSA" && $5 != "123" { print substr($2, 1, 13) }' \
	"$data/sample-faults.truth.csv" | sort -u | wc -l | awk '{ print $1 + 1 }' > "$tmp/marks.want"
expect_rc 4 rpt -q --report=tasks --by=hour --format=svg --source=SYSA -o "$tmp/faults.svg" \
	"$data/sample-faults.dat"
grep -c 'fill:rgb(30%,30%,30%)' "$tmp/faults.svg" > "$tmp/marks.got" || true
same "$tmp/marks.want" "$tmp/marks.got" "incomplete periods marked under the axis, and in the legend"

# the HTML page: the run's summary, the charts inline with ids of their
# own, the table, every text escaped
mkdir "$tmp/defs"
cat > "$tmp/defs/esc.rpt" <<'RPT'
title       Tasks <started> & "ended"
description a < b
column tasks_started type=PERF_COUNTER_LARGE_DELTA aggregate=total N=INT#TSTR
chart t line series=tasks_started
RPT
expect_rc 0 rpt --report-dir="$tmp/defs" --report=esc --by=hour --format=html -o "$tmp/esc.html" \
	"$data/sample-smf-rdw.dat"
sed 's/^pmimrpt: //' "$tmp/last.err" > "$tmp/summary.txt"
if xmllint --noout "$tmp/esc.html" 2> "$tmp/xmllint.err"; then pass "xmllint: the HTML page"
else fail "xmllint: the HTML page"; head -3 "$tmp/xmllint.err"; fi
has_line "$tmp/esc.html" '^<h1>Tasks &lt;started&gt; &amp; &quot;ended&quot;</h1>$' "HTML: the title escaped"
has_line "$tmp/esc.html" "^<p>$(cat "$tmp/summary.txt")</p>$" "HTML: the run's summary line, as standard error has it"
echo 2 > "$tmp/svgs.want"
grep -c '^<svg ' "$tmp/esc.html" > "$tmp/svgs.got"
same "$tmp/svgs.want" "$tmp/svgs.got" "HTML: a chart for each of the 2 sources, inline"
grep -o ' id="[^"]*"' "$tmp/esc.html" | sort | uniq -d > "$tmp/ids.twice"
same /dev/null "$tmp/ids.twice" "HTML: no id twice in the page"
rpt -q --report-dir="$tmp/defs" --report=esc --by=hour "$data/sample-smf-rdw.dat" |
	awk 'END { print NR - 1 }' > "$tmp/rows.want"
grep -c '^<tr><td>' "$tmp/esc.html" > "$tmp/rows.got"
same "$tmp/rows.want" "$tmp/rows.got" "HTML: a table row for each CSV row"
expect_rc 4 rpt -q --report=tasks --format=html -o "$tmp/faults.html" "$data/sample-faults.dat"
awk -F, 'NR > 1 && $5 != "123"' "$data/sample-faults.truth.csv" | wc -l |
	awk '{ print "<li>" $1 " \\&#215; interval is missing parts</li>" }' > "$tmp/missing.want"
has_line "$tmp/faults.html" "^$(cat "$tmp/missing.want")$" "HTML: the warnings by kind, as many as the truth has incomplete intervals"
if grep -q '<svg' "$tmp/faults.html"; then fail "HTML --by=total: the table alone"
else pass "HTML --by=total: the table alone"; fi

# Several reports, one page: the run's summary once, then a section each in
# the order given, their rows the CSV's, every id once
expect_rc 0 rpt --report=cpu,waits,summary --by=hour --format=html -o "$tmp/run.html" \
	"$data/sample-smf-bdw.dat"
sed -n 's/^pmimrpt: \([0-9]* files*, .*\)/\1/p' "$tmp/last.err" > "$tmp/run-summary.txt"
if xmllint --noout "$tmp/run.html" 2> "$tmp/xmllint.err"; then pass "xmllint: the page of three reports"
else fail "xmllint: the page of three reports"; head -3 "$tmp/xmllint.err"; fi
grep -o '<h2>[^<]*</h2>' "$tmp/run.html" > "$tmp/h2.got"
printf '<h2>The run</h2>\n<h2>CPU</h2>\n<h2>Wait buckets</h2>\n<h2>Summary</h2>\n' > "$tmp/h2.want"
same "$tmp/h2.want" "$tmp/h2.got" "one page: the run, then cpu, waits and summary in that order"
has_line "$tmp/run.html" "^<p>$(cat "$tmp/run-summary.txt")</p>\$" "one page: the run's summary line"
rows=0
for r in cpu waits summary; do
	rpt -q --report=$r --by=hour "$data/sample-smf-bdw.dat" > "$tmp/$r.csv"
	rows=$((rows + $(wc -l < "$tmp/$r.csv") - 1))
done
[ "$(grep -c '^<tr[ >]' "$tmp/run.html")" -eq $((rows + 3)) ] &&
	pass "one page: a table row for each CSV row, a heading row each ($rows rows)" ||
	fail "one page: $(grep -c '^<tr[ >]' "$tmp/run.html") table rows, wanted $((rows + 3))"
grep -o ' id="[^"]*"' "$tmp/run.html" | sort | uniq -d > "$tmp/ids.twice"
[ -s "$tmp/ids.twice" ] && fail "one page: ids given twice: $(head -3 "$tmp/ids.twice")" ||
	pass "one page: no id twice among the charts of the reports"
expect_rc 12 rpt --report=cpu,waits --by=hour --format=html -o "$tmp/pages/" "$data/sample-smf-bdw.dat"
has_line "$tmp/last.err" "writes one page" "--format=html into a directory: refused"

# usage errors, before anything is read
expect_rc 12 rpt --report=cpu --format=svg "$data/sample-smf-rdw.dat"
has_line "$tmp/last.err" "^pmimrpt: --format=svg draws a report over time: give --by=interval, hour or day" \
	"--by=total: a chart format says it needs time"
expect_rc 12 rpt --report=intervals --format=png "$data/sample-smf-rdw.dat"
has_line "$tmp/last.err" "report 'intervals' defines no chart" "a report without charts"
expect_rc 12 rpt --report=cpu --by=hour --format=svg --chart-size=50x50 "$data/sample-smf-rdw.dat"
has_line "$tmp/last.err" "--chart-size wants WxH, each 100 to 10000 points, not '50x50'" "--chart-size too small"
expect_rc 12 rpt --report=cpu --by=hour --format=svg --chart-size=wide "$data/sample-smf-rdw.dat"
# several charts for one SVG: said, and the file there is left as it was
echo previous > "$tmp/two.svg"
expect_rc 12 rpt -q --report=cpu --by=hour --format=svg -o "$tmp/two.svg" "$data/sample-smf-rdw.dat"
has_line "$tmp/last.err" "report 'cpu' draws 2 charts and a file of SVG holds one: write them to a folder (-o DIR/)" \
	"two charts for one SVG file: how many, and what to do"
echo previous > "$tmp/prev.want"
same "$tmp/prev.want" "$tmp/two.svg" "the refused run left the output as it was"
expect_rc 12 rpt --report=inventory --format=pdf "$data/sample-smf-rdw.dat"

# the chart module (pmimrpt-charts.so) is looked for next to the program,
# then in $(pkglibdir): a copy of pmimrpt alone in a folder refuses charts
# (as a pmimrpt built without Cairo does) naming both files, leaves the
# output as it was, and writes a page without charts
pkglibdir=${pkglibdir:-}
if [ -z "$pkglibdir" ] || [ -e "$pkglibdir/pmimrpt-charts.so" ]; then
	echo "note: \$pkglibdir (make check gives it) unknown or holding a chart module: not tested without one"
else
	mkdir "$tmp/alone"
	cp "$PMIMRPT" "$tmp/alone/pmimrpt"
	echo previous > "$tmp/alone/cpu.svg"
	expect_rc 12 $WRAP "$tmp/alone/pmimrpt" -q --report=cpu --by=hour --format=svg \
		--source=SYSA -o "$tmp/alone/cpu.svg" "$data/sample-smf-rdw.dat"
	has_line "$tmp/last.err" "^pmimrpt: the charts are drawn by pmimrpt-charts.so, which could not be loaded: $tmp/alone/pmimrpt-charts.so: .*; $pkglibdir/pmimrpt-charts.so: " \
		"no chart module: refused, naming the files tried"
	same "$tmp/prev.want" "$tmp/alone/cpu.svg" "no chart module: the output left as it was"
	expect_rc 12 $WRAP "$tmp/alone/pmimrpt" -q --report=cpu --by=hour --format=html \
		"$data/sample-smf-rdw.dat"
	has_line "$tmp/last.err" "which could not be loaded" "no chart module: a page with charts refused"
	expect_rc 0 $WRAP "$tmp/alone/pmimrpt" -q --report=cpu --format=html "$data/sample-smf-rdw.dat"
	has_line "$tmp/last.out" "^<table" "no chart module: a page without charts written"
fi
finish
