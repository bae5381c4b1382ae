#!/bin/sh
# regress.sh: hostile inputs, one file each in tests/fuzz/regress/, named
# after what they hold or the bug they found (made by
# tests/fuzz/make-regress.pl, or kept as a fuzzer or the corruption
# catalogue found them). Each is read with every framing and with several
# reports; every run must end in time, without a signal or a sanitizer
# report, with exit code 0, 4 or 8, and with its summary accounting for
# every byte: used + skipped + damaged = the file's size. Inputs that showed
# a bug must also give the complete intervals the fixed reader finds.
. "${top_srcdir:-.}/tests/lib.sh"
TIMEOUT=
command -v timeout > /dev/null && TIMEOUT="timeout 120"

# run FILE OPTION...: one run of pmimrpt, checked
run() {
	file=$1
	shift
	name="$(basename "$file" .bin) $*"
	rc=0
	# shellcheck disable=SC2086 # the wrapper is words, as in lib.sh
	$TIMEOUT $WRAP "$PMIMRPT" -o /dev/null "$@" "$file" 2> "$tmp/err" || rc=$?
	size=$(wc -c < "$file")
	sum=$(sed -n 's/^pmimrpt: 1 file, \([0-9]*\) bytes: \([0-9]*\) used, \([0-9]*\) skipped, \([0-9]*\) damaged;.*/\1 \2 \3 \4/p' "$tmp/err")
	# shellcheck disable=SC2086 # four numbers
	set -- $sum
	if [ $rc -ne 0 ] && [ $rc -ne 4 ] && [ $rc -ne 8 ]; then
		fail "$name: exit $rc"
	elif grep -q -E 'runtime error|Sanitizer' "$tmp/err"; then
		fail "$name: sanitizer report"
	elif [ $# -ne 4 ] || [ "$1" -ne "$size" ] || [ $(($2 + $3 + $4)) -ne "$size" ]; then
		fail "$name: $size bytes, but the summary says '$sum'"
	else
		pass "$name: exit $rc, $2 used + $3 skipped + $4 damaged = $size bytes"
		return
	fi
	head -3 "$tmp/err"
}

# complete_intervals NAME: what the reader must recover from an input that
# showed a bug: the catalogue's samples, damaged once (before the fix, the
# reader recovered what the comments say)
complete_intervals() {
	case $1 in
	bdw-damaged-first-segment-read-as-rdw) echo 3 ;; # was read as RDW: none
	bdw-extended-bit-flipped-rest-lost) echo 3 ;;    # rest of the file lost: 1
	bdw-length-plus-one-rest-lost) echo 2 ;;         # next BDW misread: none
	rdw-length-past-end-rest-lost) echo 3 ;;         # taken as cut short: none
	pm-length-plus-one-rest-lost) echo 3 ;;          # taken as cut short: none
	rdw-pm-damaged-first-rdw-unrecognised) echo 2 ;; # framing not found: none
	smf-cached-pm-offset-skips-first-records) echo 3 ;; # part 1s skipped: 1
	esac
}

found=0
for file in "$top_srcdir"/tests/fuzz/regress/*.bin; do
	[ -f "$file" ] || continue
	found=1
	for report in intervals inventory summary waits; do
		run "$file" --report=$report
	done
	want=$(complete_intervals "$(basename "$file" .bin)")
	if [ -n "$want" ]; then
		got=$(rpt -q "$file" 2> /dev/null | awk -F, 'NR > 1 && $5 == "123"' | wc -l)
		if [ "$got" -eq "$want" ]; then
			pass "$(basename "$file" .bin): $got complete intervals"
		else
			fail "$(basename "$file" .bin): $got complete intervals, wanted $want"
		fi
	fi
	for framing in pm rdw bdw; do
		run "$file" --framing=$framing
	done
done
[ $found -eq 1 ] || fail "no inputs in tests/fuzz/regress"

# ---- figures that look wrong and are right, and intervals that cannot be ----
# Four 5-minute intervals from 2026-01-15 06:00, 676 bytes each (parts are
# of fixed length: 2,704 bytes in all).
gen --framing=pm --start="2026-01-15 06:00" --startup-delay=0 --interval=300 \
	--intervals=4 --seed=1 -o "$tmp/four.bin"

# A short first interval (8 s) whose INTDBIR holds 2,268 waits totalling
# 1,105.7829 s, the highest 18.3287 s: many tasks waited at once, and one
# wait began before the interval. Legitimate: no warning.
pm_patch "$tmp/four.bin" "$tmp/short-first.bin" 1 INTSTIME=INTETIME-80000 \
	INTDBIRT=11057829 INTDBIRH=183287 'INTDBIR#=2268'
expect_rc 0 rpt --report=waits "$tmp/short-first.bin"
has_line "$tmp/last.err" '^pmimrpt: 1 file, 2704 bytes: 2704 used, 0 skipped, 0 damaged; .* 4 intervals (4 complete, 0 incomplete)$' \
	"waits longer than a short interval: no warning"
# What is implausible, one rule at a time, in the third interval (at 1352)
for rule in "INTDBIRH=5001:highest wait 5001 exceeds the sum 5000" \
	"INTDBIR#=0:wait time 5000 with no waits" \
	"INTDBIR#=2:2 waits of 5000 in all, highest 2499, more than the highest on average"; do
	set -- INTDBIRT=5000 INTDBIRH=2499 "${rule%%:*}"
	pm_patch "$tmp/four.bin" "$tmp/implausible.bin" 3 "$@"
	# the inventory reads no figures, but checks them alike
	for report in intervals inventory; do
		expect_rc 4 rpt --report=$report "$tmp/implausible.bin"
		has_line "$tmp/last.err" "offset 1352 (0x548): warning: implausible figures in an interval record: INTDBIR: ${rule#*:}" \
			"implausible ($report): ${rule#*:}"
		has_line "$tmp/last.err" '; 4 intervals (4 complete, 0 incomplete); 1 records with implausible figures$' \
			"implausible ($report): ${rule%%:*} counted once on the summary line"
	done
done

# An end date of 2099 on a start of 2026: 26,663 days and 300 s (18 leap
# days from 2028 to 2096), longer than --max-interval (24 hours): damaged,
# its three parts reported at their offsets and left out.
pm_patch "$tmp/four.bin" "$tmp/2099.bin" 2 "INTEDATE=x'0199015F'"
expect_rc 4 rpt --report=cpu "$tmp/2099.bin"
has_line "$tmp/last.err" "offset 676 (0x2a4): warning: interval longer than --max-interval: 2303683500 s; at most 86400 s" \
	"too long: reported at its first part"
has_line "$tmp/last.err" '^pmimrpt: 1 file, 2704 bytes: 2028 used, 0 skipped, 676 damaged; .* 3 intervals (3 complete, 0 incomplete); left out: 3 interval records too long$' \
	"too long: its bytes damaged, its records counted, left out"
has_line "$tmp/last.out" '^,3,900.000000,' "too long: left out of the report"
# Admitted, the 73-year interval covers the time of the two after it,
# which are then left out as overlapping: 2303683500 s + the 300 s before.
expect_rc 4 rpt --report=cpu --max-interval=30000d "$tmp/2099.bin"
has_line "$tmp/last.out" '^,2,2303683800.000000,' "--max-interval=30000d admits 73 years"
has_line "$tmp/last.err" '; left out: 2 overlapping$' "--max-interval=30000d: what it covers overlaps"
expect_rc 0 rpt --max-interval=5m "$tmp/four.bin"
expect_rc 0 rpt --max-interval=300 "$tmp/four.bin"
expect_rc 4 rpt --report=cpu --max-interval=299 "$tmp/four.bin"
has_line "$tmp/last.err" '0 used, 0 skipped, 2704 damaged; .* left out: 12 interval records too long$' \
	"--max-interval=299: every 300 s interval too long"
for bad in 0 1.5 5x 1h30m -1 99999999999999999999; do
	expect_rc 12 rpt --max-interval=$bad "$tmp/four.bin"
done
finish
