#!/bin/sh
# generated.sh: pmimgen knows what it wrote; pmimrpt must agree with it to
# the last digit. For several seeds and every framing, with other SMF and PM
# record types, spanned records, CV names, shuffled, dropped and duplicated
# parts, the intervals report must match the figures computed from the
# generator's truth (tests/truth2intervals.awk), and the inventory must
# match the generator's count of what it wrote.
. "${top_srcdir:-.}/tests/lib.sh"

# compare_inventory TRUTH-INVENTORY REPORT: smf and pm rows, records and bytes
compare_inventory() {
	grep -E '^(smf|pm),' "$1" | sort > "$tmp/inv.want"
	grep -E '^(smf|pm),' "$2" | sort > "$tmp/inv.got"
	cmp -s "$tmp/inv.want" "$tmp/inv.got"
}

check() {
	name=$1
	shift
	gen "$@" -o "$tmp/$name.dat" --truth="$tmp/$name.truth" \
		--truth-inventory="$tmp/$name.inv" || { fail "$name: pmimgen $*"; return; }
	awk -F, -f "$top_srcdir/tests/truth2intervals.awk" "$tmp/$name.truth" > "$tmp/$name.want"
	rpt -q $rpt_opts "$tmp/$name.dat" > "$tmp/$name.csv" 2> "$tmp/$name.err"
	rc=$?
	if [ $rc -ne "$want_rc" ]; then
		fail "$name: exit $rc, wanted $want_rc"; head -3 "$tmp/$name.err"; return
	fi
	if awk -F, -f "$top_srcdir/tests/csvcompare.awk" "$tmp/$name.want" "$tmp/$name.csv" > "$tmp/$name.diff"; then
		pass "$name: $(($(wc -l < "$tmp/$name.want") - 1)) intervals as generated"
	else
		fail "$name: intervals differ from the truth"; head -5 "$tmp/$name.diff"
	fi
	rpt -q $rpt_opts --report=inventory "$tmp/$name.dat" > "$tmp/$name.invrpt" 2>/dev/null
	if compare_inventory "$tmp/$name.inv" "$tmp/$name.invrpt"; then
		pass "$name: inventory as generated"
	else
		fail "$name: inventory differs"; diff "$tmp/inv.want" "$tmp/inv.got" | head -6
	fi
}

for seed in 1 2 3; do
	rpt_opts= want_rc=0
	check "rdw-$seed" --seed=$seed --framing=rdw --sources=SYSA,SYSB,SYSC \
		--intervals=20 --other-smf=0.3 --other-pm=0.2 --pm-per-smf=1-12
	check "bdw-$seed" --seed=$seed --framing=bdw --block-size=$((4000 + seed * 3000)) \
		--sources=SYSA,SYSB --intervals=20 --other-smf=0.5 --other-pm=0.1 \
		--product-header=12-200
	check "bdw-large-$seed" --seed=$seed --framing=bdw --extended-bdw \
		--block-size=65536 --sources=SYSA --intervals=30 --other-smf=0.6
	check "shuffled-$seed" --seed=$seed --framing=rdw --sources=SYSA,SYSB \
		--intervals=25 --shuffle=10 --pm-per-smf=1-3
	rpt_opts="--cv-field=22,8"
	check "cv-$seed" --seed=$seed --framing=bdw --block-size=8192 \
		--sources=SYSA/IDMSCV01,SYSA/IDMSCV02,SYSB/IDMSCV01 --intervals=15
	rpt_opts="--framing=pm --source=CV$seed"
	check "pm-$seed" --seed=$seed --framing=pm --source-label=CV$seed \
		--intervals=30 --other-pm=0.3
	rpt_opts="--source=CV$seed"
	check "rdw-pm-$seed" --seed=$seed --framing=rdw-pm --source-label=CV$seed \
		--intervals=30 --other-pm=0.3
	rpt_opts= want_rc=4
	check "faults-$seed" --seed=$seed --framing=rdw --sources=SYSA,SYSB \
		--intervals=30 --drop-parts=10% --duplicate-parts=10% --shuffle=6 \
		--extreme=20%
	# a single wait near 2**31-1 (2.5 days) in a 10-minute interval is
	# plausible (it began intervals before): kept, no warning, exit code 0
	want_rc=0
	check "midnight-$seed" --seed=$seed --framing=rdw --start="2024-12-31 22:00" \
		--interval=600 --intervals=30 --extreme=50%
	# every figure over its whole range (the benchmark's dense stress)
	rpt_opts="--framing=pm"
	check "full-range-$seed" --seed=$seed --framing=pm --interval=60 --intervals=60 \
		--full-range
	rpt_opts=
done
finish
