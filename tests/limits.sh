#!/bin/sh
# limits.sh: outputs and resources under stress. A write error fails the
# run with exit code 16 and a message, and leaves no partial file under the
# final name; a kill during -o FILE leaves the previous FILE as it was, and
# nothing beside it: the report is written to an unnamed temporary file
# (O_TMPFILE), or, where the file system has none, to a named one that
# pmimrpt removes on the signals it catches; the hard limits
# on memory (--max-record, --max-pending, --max-sources, --max-groups) each
# stop a crafted file with a message naming the option, and hold: a
# logical record far larger than --max-record costs no more memory than the
# limit.
. "${top_srcdir:-.}/tests/lib.sh"
sample=$top_srcdir/data/sample-smf-rdw.dat
regress=$top_srcdir/tests/fuzz/regress

# has_temporary DIR: something like .NAME.tmpXXXXXX is in DIR
has_temporary() {
	for f in "$1"/.*.tmp*; do
		[ -e "$f" ] && return 0
	done
	return 1
}

# no_temporary DIR WHAT: nothing like that is left in DIR
no_temporary() {
	if has_temporary "$1"; then fail "$2: temporary left in $1"; else pass "$2: no temporary left"; fi
}

# ---- write errors ----
expect_rc 16 rpt -q -o /dev/full "$sample"
grep -q "write error: /dev/full: No space left on device" "$tmp/last.err" &&
	pass "/dev/full: message names the output and the error" ||
	fail "/dev/full: message"

# A file that may not grow past 1 KiB: the write fails (EFBIG, with SIGXFSZ
# ignored) on a regular file, whose old contents must survive.
mkdir "$tmp/fsize"
echo "previous report" > "$tmp/fsize/report.csv"
rc=0
(trap '' XFSZ; ulimit -f 2 && exec $WRAP "$PMIMRPT" -q -o "$tmp/fsize/report.csv" "$sample") \
	2> "$tmp/fsize.err" || rc=$?
if [ $rc -eq 16 ]; then pass "file size limit: exit 16"; else fail "file size limit: exit $rc, wanted 16"; fi
grep -q "write error: $tmp/fsize/report.csv: File too large" "$tmp/fsize.err" &&
	pass "file size limit: message names the output" || fail "file size limit: message"
[ "$(cat "$tmp/fsize/report.csv")" = "previous report" ] &&
	pass "file size limit: previous report intact" || fail "file size limit: previous report changed"
no_temporary "$tmp/fsize" "file size limit"

# A directory pmimrpt may not write in: read-only for others, immutable for
# root (where chattr works).
mkdir "$tmp/ro"
echo "previous report" > "$tmp/ro/report.csv"
if [ "$(id -u)" -ne 0 ]; then
	chmod 555 "$tmp/ro"
	locked="chmod"
elif command -v chattr > /dev/null && chattr +i "$tmp/ro" 2> /dev/null; then
	locked=chattr
else
	locked=
	echo "# read-only directory: running as root without chattr +i; skipped"
fi
if [ -n "$locked" ]; then
	expect_rc 16 rpt -q -o "$tmp/ro/report.csv" "$sample"
	grep -q "$tmp/ro/report.csv" "$tmp/last.err" &&
		pass "read-only directory: message names the output" ||
		fail "read-only directory: message"
	[ "$(cat "$tmp/ro/report.csv")" = "previous report" ] &&
		pass "read-only directory: previous report intact" ||
		fail "read-only directory: previous report changed"
	no_temporary "$tmp/ro" "read-only directory"
	if [ "$locked" = chattr ]; then chattr -i "$tmp/ro"; else chmod 755 "$tmp/ro"; fi
fi

# ---- killed during -o FILE ----
# pmimrpt reads a FIFO fed a part of the sample and then nothing; it is
# killed while it waits for more.

# writing_in DIR PID: PID has its report open in DIR: a named temporary, or
# an unnamed one (its descriptor's link reads DIR/#INODE (deleted))
writing_in() {
	has_temporary "$1" || ls -l "/proc/$2/fd" 2> /dev/null | grep -q " $1/#[0-9]* (deleted)\$"
}

kill_during_output() {
	sig=$1
	dir=$tmp/kill-$sig
	mkdir "$dir"
	echo "previous report" > "$dir/report.csv"
	mkfifo "$dir/input"
	# through the emulator when there is one: qemu-user hands the signals
	# to pmimrpt and dies of the same signal
	# shellcheck disable=SC2086
	$WRAP "$PMIMRPT" -q -o "$dir/report.csv" "$dir/input" 2> "$dir/err" &
	pid=$!
	exec 3> "$dir/input"
	head -c 20000 "$sample" >&3
	# wait until the report's temporary file is open: pmimrpt is writing
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		writing_in "$dir" $pid && break
		sleep 0.25
	done
	named=no
	has_temporary "$dir" && named=yes
	if writing_in "$dir" $pid; then pass "kill -$sig: came while the report was written"; else fail "kill -$sig: pmimrpt was not writing"; fi
	kill -"$sig" $pid
	rc=0
	wait $pid || rc=$?
	exec 3>&-
	if [ $rc -gt 128 ]; then pass "kill -$sig: ended by the signal (exit $rc)"; else fail "kill -$sig: exit $rc"; fi
	[ "$(cat "$dir/report.csv")" = "previous report" ] &&
		pass "kill -$sig: previous report intact" ||
		fail "kill -$sig: previous report changed"
	left=$(cd "$dir" && ls -A | grep -v -x -e report.csv -e input -e err)
	if [ -z "$left" ]; then
		pass "kill -$sig: nothing left beside the report"
	elif [ $sig = KILL ] && [ $named = yes ]; then
		# a named temporary, where the file system has no O_TMPFILE:
		# nothing can remove it after a kill -9
		echo "# kill -KILL: no O_TMPFILE here: the named temporary $left is left"
	else
		fail "kill -$sig: left beside the report: $left"
	fi
}
for sig in TERM INT HUP KILL; do kill_during_output $sig; done

# ---- hard limits ----
rpt --help > "$tmp/help"
for opt in --max-record --max-pending --max-sources --max-groups; do
	grep -q -- "$opt=" "$tmp/help" && pass "--help documents $opt" || fail "--help lacks $opt"
done

# An SMF record of type 230 of MIB MiB, in SDW segments of 32,756 bytes
big_record() {
	perl -e '
		my $seg = 32756; my $n = int($ARGV[0] * 1048576 / $seg);
		my $zeros = "\0" x $seg;
		for my $i (0 .. $n - 1) {
			my $code = $i == 0 ? 1 : $i == $n - 1 ? 2 : 3;
			my $data = $i == 0 ? pack("CCNN", 0x1e, 230, 360000, 0x0125062f) . "\xe2\xe8\xe2\xc1" .
			                     ("\x40" x ($seg - 14)) : $zeros;
			print pack("nCC", $seg + 4, $code, 0), $data;
		}' "$1"
}
big_record 4 > "$tmp/big.dat"
expect_rc 4 rpt -q --max-record=1048576 "$tmp/big.dat"
grep -q "logical record longer than --max-record allows" "$tmp/last.err" &&
	pass "--max-record: message names the option" || fail "--max-record: message"
grep -q "offset 0 (0x0)" "$tmp/last.err" &&
	pass "--max-record: message names the record's offset" || fail "--max-record: offset"
rm -f "$tmp/big.dat"
# A record of 128 MiB, streamed: memory grows to the limit, not the record
# (twice the limit, and 16 MiB, of slack for sanitizer builds).
base=$(peak_rss_kb "$PMIMRPT" -q - < "$sample")
if [ -n "$base" ]; then
	for limit in 1048576 16777216; do
		peak=$(big_record 128 | peak_rss_kb "$PMIMRPT" -q --max-record=$limit -)
		bound=$((base + 2 * limit / 1024 + 16384))
		if [ -n "$peak" ] && [ "$peak" -le $bound ]; then
			pass "--max-record=$limit: a 128 MiB record in $peak KiB (bound $bound KiB)"
		else
			fail "--max-record=$limit: a 128 MiB record took '$peak' KiB, bound $bound KiB"
		fi
	done
else
	echo "# no GNU time, or a wrapper: peak memory not measured"
fi

# 3,000 intervals, each with its first part only
expect_rc 4 rpt -q --max-pending=10 "$regress/pending-past-limit.bin"
grep -q "too many pending intervals; oldest emitted incomplete (see --max-pending)" "$tmp/last.err" &&
	pass "--max-pending: message names the option" || fail "--max-pending: message"
[ "$(tail -n +2 "$tmp/last.out" | wc -l)" -eq 3000 ] &&
	pass "--max-pending: every interval still reported" || fail "--max-pending: intervals lost"
# more than memory allows: the option and the limit are named, not "out of
# memory"
expect_rc 12 rpt -q --max-pending=600000000 "$sample"
grep -q -- "--max-pending=600000000 needs [0-9]* MiB" "$tmp/last.err" && ! grep -q "out of memory" "$tmp/last.err" &&
	pass "--max-pending too large: message names the option" || fail "--max-pending too large: message"

# 5,000 system ids
expect_rc 8 rpt -q "$regress/sources-past-limit.bin"
grep -q "too many distinct sources (see --max-sources)" "$tmp/last.err" &&
	pass "--max-sources: message names the option" || fail "--max-sources: message"
# --max-sources=N admits N SMF sources: the name of PM streams takes no
# place unless a PM stream is read
expect_rc 4 rpt -q --max-sources=5000 "$regress/sources-past-limit.bin"
expect_rc 8 rpt -q --max-sources=4999 "$regress/sources-past-limit.bin"
expect_rc 0 rpt -q --max-sources=2 "$sample"
expect_rc 8 rpt -q --max-sources=1 "$sample"
gen --framing=pm --sources=SYSA --intervals=3 --seed=1 -o "$tmp/stream.pm"
expect_rc 0 rpt -q --max-sources=1 "$tmp/stream.pm"

# groups: two sources over a day, by hour, are 48 groups
expect_rc 8 rpt -q --report=summary --by=hour --max-groups=10 "$sample"
grep -q "too many report groups (see --max-groups)" "$tmp/last.err" &&
	pass "--max-groups: message names the option" || fail "--max-groups: message"
expect_rc 0 rpt -q --report=summary --by=hour --max-groups=48 "$sample"
finish
