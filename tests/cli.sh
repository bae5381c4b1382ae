#!/bin/sh
# cli.sh: the command line as a scheduler sees it: usage errors, unreadable
# inputs and unwritable outputs give their documented exit codes and
# messages; -o never leaves a half-written file under its final name; a pipe
# reads like a file.
. "${top_srcdir:-.}/tests/lib.sh"
sample=$top_srcdir/data/sample-smf-rdw.dat

expect_rc 0 rpt --help
rpt --version > "$tmp/version"
grep -q '^pmimrpt [0-9]' "$tmp/version" && pass "--version" || fail "--version"

expect_rc 12 rpt --no-such-option
expect_rc 12 rpt --report=nonesuch "$sample"
expect_rc 12 rpt --framing=vb "$sample"
expect_rc 12 rpt --smf-type=300 "$sample"
expect_rc 12 rpt --cv-field=12 "$sample"
expect_rc 12 rpt --codepage=NO-SUCH-CODEPAGE "$sample"
rpt --report=nonesuch "$sample" 2> "$tmp/err" || true
grep -q "unknown report 'nonesuch'" "$tmp/err" && pass "unknown report message" || fail "unknown report message"

# --report-dir names a folder that must be there; FILE.rpt is read from the
# current directory, else from --report-dir
expect_rc 12 rpt --report-dir="$tmp/no-such-dir" "$sample"
has_line "$tmp/last.err" "^pmimrpt: --report-dir=$tmp/no-such-dir: No such file or directory\$" \
	"--report-dir that is not there: named"
expect_rc 12 rpt --report-dir="$sample" "$sample"
has_line "$tmp/last.err" "^pmimrpt: --report-dir=$sample: not a folder\$" "--report-dir that is a file: named"
mkdir "$tmp/defs" "$tmp/here"
printf 'title Mine\ncolumn intervals type=PERF_COUNTER_LARGE_DELTA aggregate=total N=@interval\n' \
	> "$tmp/defs/mine.rpt"
printf 'title Here\ncolumn n type=PERF_COUNTER_LARGE_DELTA aggregate=total N=@interval\n' \
	> "$tmp/here/here.rpt"
in_here() { (cd "$tmp/here" && rpt "$@"); }
expect_rc 0 in_here -q --report-dir="$tmp/defs" --report=mine.rpt "$sample"
has_line "$tmp/last.out" "^source,intervals\$" "--report=FILE.rpt found in --report-dir"
expect_rc 0 in_here -q --report-dir="$tmp/defs" --report=here.rpt "$sample"
has_line "$tmp/last.out" "^source,n\$" "--report=FILE.rpt found in the current directory first"
expect_rc 12 in_here -q --report-dir="$tmp/defs" --report=none.rpt "$sample"
has_line "$tmp/last.err" "^pmimrpt: none.rpt: no such file here nor in $tmp/defs\$" \
	"--report=FILE.rpt nowhere: both places named"

# what the manual says of times and formats: a T may stand for the blank in
# --from and --to; 24:00 is the end of a day, 24:30 no time at all
expect_rc 0 rpt -q --report=cpu --from="2025-03-03 06:00" --to="2025-03-03 24:00" "$sample"
mv "$tmp/last.out" "$tmp/blank.csv"
expect_rc 0 rpt -q --report=cpu --from=2025-03-03T06:00 --to=2025-03-03T24:00:00 "$sample"
same "$tmp/blank.csv" "$tmp/last.out" "--from and --to with a T: as with the blank"
expect_rc 12 rpt -q --report=cpu --from="2025-03-03 24:30" "$sample"
has_line "$tmp/last.err" "wants a local time YYYY-MM-DD\[ HH:MM\[:SS\]\] or YYYY-MM-DDTHH:MM\[:SS\], not '2025-03-03 24:30'" \
	"--from=24:30 refused, both forms named"
# CSV lines end with LF alone
expect_rc 0 rpt -q --report=cpu "$sample"
if od -An -c "$tmp/last.out" | grep -q '\\r'; then fail "CSV lines end with LF"; else pass "CSV lines end with LF"; fi
# --output-encoding implies the text format, as --asa does; the inventory is CSV only
expect_rc 0 rpt -q --report=cpu --run-time="2025-03-04 07:00" --output-encoding=IBM-1047 "$sample"
iconv -f IBM-1047 -t UTF-8 < "$tmp/last.out" > "$tmp/decoded.out"
expect_rc 0 rpt -q --report=cpu --run-time="2025-03-04 07:00" --format=text "$sample"
same "$tmp/last.out" "$tmp/decoded.out" "--output-encoding alone writes the text report"
expect_rc 12 rpt -q --format=csv --output-encoding=IBM-1047 "$sample"
has_line "$tmp/last.err" "^pmimrpt: --output-encoding needs --format=text\$" "--output-encoding with CSV refused"
expect_rc 12 rpt -q --report=inventory --format=text "$sample"
has_line "$tmp/last.err" "^pmimrpt: the inventory report is CSV only, not --format=text\$" "the inventory is CSV only"

# an input that cannot be opened: 8, with the file named
expect_rc 8 rpt "$tmp/missing.dat"
rpt "$tmp/missing.dat" 2> "$tmp/err" > /dev/null || true
grep -q "missing.dat: No such file" "$tmp/err" && pass "missing file named" || fail "missing file named"
expect_rc 8 rpt "$tmp"

# a run that selects nothing warns (exit 4) in one line naming what matched
# nothing, and writes the report's header
# nothing_selected WHY OPTION...: the run's one warning is WHY
nothing_selected() {
	why=$1
	shift
	expect_rc 4 rpt "$@"
	if [ "$(grep -c "nothing selected" "$tmp/last.err")" -eq 1 ] &&
		grep -q "^pmimrpt: warning: nothing selected: $why\$" "$tmp/last.err"; then
		pass "nothing selected: $why"
	else
		fail "nothing selected: $why"; head -3 "$tmp/last.err"
	fi
}
: > "$tmp/empty"
nothing_selected "the input is empty" -o "$tmp/empty.csv" "$tmp/empty"
[ "$(wc -l < "$tmp/empty.csv")" -eq 1 ] && pass "empty input: header only" || fail "empty input: header only"
nothing_selected "the input is empty" /dev/null
nothing_selected "the input is empty" --report=inventory /dev/null
nothing_selected "no SMF records of type 231 in the input" --report=cpu --smf-type=231 "$sample"
[ "$(wc -l < "$tmp/last.out")" -eq 1 ] && pass "nothing selected: header only" || fail "nothing selected: header only"
expect_rc 0 rpt --report=inventory --smf-type=231 "$sample"
nothing_selected "no SMF records of type 231 in the input" --smf-type=231 "$sample"
# PM records of other types only: the interval records (INTRTYPE 5, the
# third byte) of a generated stream left out
gen --framing=pm --other-pm=0.9 --intervals=3 -o "$tmp/other-pm.dat"
perl -e 'my $b = do { local $/; <STDIN> };
	while (length $b >= 4) { my $r = substr($b, 0, unpack("n", $b), ""); print $r if ord(substr($r, 2, 1)) != 5 }' \
	< "$tmp/other-pm.dat" > "$tmp/no-intervals.dat"
nothing_selected "no interval records in the input" --framing=pm "$tmp/no-intervals.dat"
nothing_selected "no interval of source SYSX" --report=waits --source=SYSX "$sample"
nothing_selected "no interval of sources SYSX, SYSY" --source=SYSX --source=SYSY "$sample"
nothing_selected "no interval starting at or after --from=2025-03-04 00:00:00" --from=2025-03-04 "$sample"
nothing_selected "no interval starting before --to=2025-03-03 00:00:00" --to=2025-03-03 "$sample"
nothing_selected "no interval starting between --from=2025-03-02 00:00:00 and --to=2025-03-03 00:01:00" \
	--report=summary --from=2025-03-02 --to="2025-03-03 00:01" "$sample"
nothing_selected "no interval of source SYSB starting before --to=2025-03-03 00:01:40" \
	--source=SYSB --to="2025-03-03 00:01:40" "$sample"
nothing_selected "no complete interval" --complete-only --framing=pm "$top_srcdir/tests/fuzz/regress/pending-past-limit.bin"
expect_rc 0 rpt --source=SYSA --to="2025-03-03 00:01:40" "$sample"

# a pipe reads like the file
rpt "$sample" > "$tmp/file.csv" 2> "$tmp/file.err"
cat "$sample" | rpt - > "$tmp/pipe.csv" 2> "$tmp/pipe.err"
same "$tmp/file.csv" "$tmp/pipe.csv" "cat file | pmimrpt - gives the same report"
sed 's/(stdin)/FILE/' "$tmp/pipe.err" > "$tmp/pipe.err2"
sed "s|$sample|FILE|" "$tmp/file.err" > "$tmp/file.err2"
same "$tmp/file.err2" "$tmp/pipe.err2" "cat file | pmimrpt - gives the same summary"
# standard input from a file is read from where it stands, not from the
# file's start: 100 bytes before the sample, read off first
{ head -c 100 /dev/zero; cat "$sample"; } > "$tmp/after100.dat"
{ dd bs=100 count=1 of=/dev/null 2> /dev/null; $WRAP "$PMIMRPT" -; } < "$tmp/after100.dat" \
	> "$tmp/stdin.csv" 2> "$tmp/stdin.err" || true
same "$tmp/file.csv" "$tmp/stdin.csv" "pmimrpt - < file, 100 bytes read off: the same report"
sed 's/(stdin)/FILE/' "$tmp/stdin.err" > "$tmp/stdin.err2"
same "$tmp/file.err2" "$tmp/stdin.err2" "pmimrpt - < file, 100 bytes read off: the same summary"

# -o: written whole or not at all
rpt -q -o "$tmp/out.csv" "$sample"
same "$tmp/file.csv" "$tmp/out.csv" "-o FILE holds the report"
# a failed run (8, 12, 16) never replaces a report; a run with warnings
# (4) or none (0) does
# kept WHAT: $tmp/keep.csv holds the previous report still (and again)
kept() {
	if [ "$(cat "$tmp/keep.csv")" = "previous report" ]; then pass "$1: previous report kept"; else fail "$1: previous report replaced"; fi
	echo "previous report" > "$tmp/keep.csv"
}
echo "previous report" > "$tmp/keep.csv"
expect_rc 8 rpt -q -o "$tmp/keep.csv" "$tmp/missing.dat"
kept "exit 8, no input"
expect_rc 8 rpt -q -o "$tmp/keep.csv" "$sample" "$tmp/missing.dat"
kept "exit 8, one input missing"
expect_rc 8 rpt -q --report=summary --by=hour --max-groups=10 -o "$tmp/keep.csv" "$sample"
kept "exit 8, too many groups"
expect_rc 12 rpt -q --report=nonesuch -o "$tmp/keep.csv" "$sample"
kept "exit 12"
expect_rc 4 rpt -q --source=SYSX -o "$tmp/keep.csv" "$sample"
[ "$(wc -l < "$tmp/keep.csv")" -eq 1 ] && pass "exit 4: report replaced" || fail "exit 4: report not replaced"
echo "previous report" > "$tmp/keep.csv"
expect_rc 0 rpt -q -o "$tmp/keep.csv" "$sample"
same "$tmp/file.csv" "$tmp/keep.csv" "exit 0: report replaced"
# standard output gets what was read, whatever the exit code
expect_rc 8 rpt -q "$sample" "$tmp/missing.dat"
same "$tmp/file.csv" "$tmp/last.out" "exit 8: standard output written"

# an output that is one of the inputs is refused before anything is read
# or written: by name, or as the same file under another name
cp "$sample" "$tmp/victim.dat"
ln "$tmp/victim.dat" "$tmp/victim-link.dat"
ln -s victim.dat "$tmp/victim-symlink.dat"
for out in victim.dat ./victim.dat victim-link.dat victim-symlink.dat; do
	expect_rc 12 rpt -o "$tmp/$out" "$sample" "$tmp/victim.dat"
	grep -q "^pmimrpt: the output $tmp/$out is the input $tmp/victim.dat" "$tmp/last.err" &&
		pass "-o $out: refused, the input named" || fail "-o $out: message"
	[ ! -s "$tmp/last.out" ] && ! grep -q "^pmimrpt: [0-9]* file" "$tmp/last.err" &&
		pass "-o $out: nothing read" || fail "-o $out: read"
done
expect_rc 12 rpt -o "$tmp/victim.dat" - < "$tmp/victim.dat"
expect_rc 12 rpt -o "$tmp/victim.dat" < "$tmp/victim.dat"
grep -q "^pmimrpt: the output $tmp/victim.dat is the input standard input" "$tmp/last.err" &&
	pass "-o FILE < FILE: refused" || fail "-o FILE < FILE: message"
same "$sample" "$tmp/victim.dat" "the input is left as it was"
expect_rc 12 rpt -o "$tmp/new.dat" "$tmp/new.dat"
[ ! -e "$tmp/new.dat" ] && pass "-o NEW NEW: refused, nothing made" || fail "-o NEW NEW: made"
expect_rc 0 rpt -q -o "$tmp/other.csv" - < "$sample"
expect_rc 16 rpt -q -o /dev/full "$sample"
mkdir "$tmp/ro" && echo "old" > "$tmp/ro/report.csv" && chmod 555 "$tmp/ro"
if [ "$(id -u)" -ne 0 ]; then
	expect_rc 16 rpt -q -o "$tmp/ro/report.csv" "$sample"
	[ "$(cat "$tmp/ro/report.csv")" = old ] && pass "read-only dir: old file intact" || fail "read-only dir: old file intact"
fi
chmod 755 "$tmp/ro"
expect_rc 16 rpt -q -o "$tmp/no/such/dir/report.csv" "$sample"
[ ! -e "$tmp/no" ] && pass "no file left behind" || fail "no file left behind"
# /dev/null is written, never replaced
expect_rc 0 rpt -q -o /dev/null "$sample"
[ -c /dev/null ] && pass "/dev/null is still a device" || fail "/dev/null replaced"
ls -a "$tmp" | grep -q '\.tmp' && fail "temporary files left in $tmp" || pass "no temporary files left"

# progress: only on a terminal or with --progress, only on stderr, and
# erased before messages and the summary
gen --seed=3 --framing=pm --intervals=4000 -o "$tmp/big.dat"
{ head -c 100000 "$tmp/big.dat"; sleep 1; tail -c +100001 "$tmp/big.dat"; } |
	rpt --progress --framing=pm --report=cpu - > "$tmp/progress.out" 2> "$tmp/progress.err"
tr '\r' '\n' < "$tmp/progress.err" | grep -q '^pmimrpt: [0-9.]* MB at [0-9]* MB/s, [0-9]* records' &&
	pass "--progress draws a line while reading" || fail "--progress draws a line while reading"
tr '\r' '\n' < "$tmp/progress.err" | tail -1 | grep -q '^.\[Kpmimrpt: 1 file, ' &&
	pass "progress erased before the summary" || fail "progress erased before the summary"
rpt --framing=pm --report=cpu "$tmp/big.dat" > "$tmp/noprogress.out" 2> "$tmp/noprogress.err"
grep -q "$(printf '\r')" "$tmp/noprogress.err" && fail "no progress when stderr is a file" ||
	pass "no progress when stderr is a file"
same "$tmp/noprogress.out" "$tmp/progress.out" "progress never writes to stdout"
rpt -q --progress --framing=pm --report=cpu "$tmp/big.dat" > /dev/null 2> "$tmp/quiet.err"
[ ! -s "$tmp/quiet.err" ] && pass "--quiet turns progress off" || fail "--quiet turns progress off"
# on by default when standard error is a terminal: script(1) gives it one
if command -v script > /dev/null 2>&1; then
	slow="{ head -c 100000 '$tmp/big.dat'; sleep 1; tail -c +100001 '$tmp/big.dat'; }"
	script -qec "sh -c \"$slow | $WRAP '$PMIMRPT' --framing=pm --report=cpu - > '$tmp/tty.out'\"" \
		"$tmp/tty.log" > /dev/null 2>&1
	tr '\r' '\n' < "$tmp/tty.log" | grep -q '^pmimrpt: [0-9.]* MB at [0-9]* MB/s, [0-9]* records' &&
		pass "progress on a terminal without --progress" ||
		fail "progress on a terminal without --progress"
	same "$tmp/tty.out" "$tmp/progress.out" "progress on a terminal never writes to stdout"
else
	echo "# no script(1): the terminal check is skipped"
fi

# --describe prints the layout
rpt --describe > "$tmp/describe"
grep -q "^INTDBIRT     1  X'30'   4    F 10\*\*-4 s" "$tmp/describe" && pass "--describe shows INTDBIRT" || fail "--describe shows INTDBIRT"
grep -q "^INTZPTI      3  X'30'   8    D TOD" "$tmp/describe" && pass "--describe shows INTZPTI" || fail "--describe shows INTZPTI"
# and which fields each report column reads, as the definitions say
has_line "$tmp/describe" "^cpu  *ziip_share_pct  *PERF_SAMPLE_FRACTION  *N=INTZPTI B=INTTTTI+INTCPTI+INTZPTI\$" \
	"--describe: a column of cpu and its fields"
has_line "$tmp/describe" "^intervals  *INTDBIR_avg_ms  *PERF_AVERAGE_TIMER  *N=INTDBIRT B=INTDBIR#\$" \
	"--describe: a bucket column of intervals by its fields"
has_line "$tmp/describe" "^summary  *topN_avg_wait_ms  *PERF_AVERAGE_TIMER  *N=%T B=%#\$" \
	"--describe: a column of the summary's top buckets"
has_line "$tmp/describe" "^intervals  *source  *text=source\$" "--describe: a text column"
grep -q "^win-cpu " "$tmp/describe" && fail "--describe: no Windows report" || pass "--describe: no Windows report"
# from the definitions --report finds: one in --report-dir replaces the built-in
printf 'column tasks type=PERF_COUNTER_LARGE_DELTA aggregate=total N=INT#TSTR+INT#TEND\n' > "$tmp/defs/tasks.rpt"
rpt --report-dir="$tmp/defs" --describe > "$tmp/describe"
has_line "$tmp/describe" "^tasks  *tasks  *PERF_COUNTER_LARGE_DELTA  *N=INT#TSTR+INT#TEND\$" \
	"--describe: a definition of --report-dir"
# A named pipe is opened once: a run that opened it to look at its first
# bytes and closed it again ended its writer (SIGPIPE) and then waited for
# another that never came. The report is the file's.
mkfifo "$tmp/named.pipe"
(cat "$sample" > "$tmp/named.pipe" 2>/dev/null &)
rc=0
timeout 60 $WRAP "$PMIMRPT" -q --report=waits "$tmp/named.pipe" > "$tmp/pipe.csv" 2>/dev/null || rc=$?
rpt -q --report=waits "$sample" > "$tmp/pipe.want" 2>/dev/null
if [ $rc -eq 0 ] && cmp -s "$tmp/pipe.want" "$tmp/pipe.csv"; then
	pass "a named pipe read once: the file's report"
else
	fail "a named pipe: exit $rc (124: it waited for a writer that was gone)"
fi

finish
