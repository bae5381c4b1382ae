# lib.sh: shared set-up for the shell tests (sourced). Fixes the locale and
# time zone, finds the programs, makes a scratch directory that is kept when
# a test fails, and gives small assertion helpers. Tests print one line per
# check and exit 0 (pass), 1 (fail) or 77 (skip).
set -u
export LC_ALL=C TZ=UTC
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
PMIMRPT=${PMIMRPT:-$top_builddir/pmimrpt}
PMIMGEN=${PMIMGEN:-$top_builddir/pmimgen}
# Every run of the programs goes through rpt and gen, so that one setting
# runs them all under valgrind (VALGRIND=1: memory errors and leaks fail the
# test with exit code 99) or under an emulator (EXEC_WRAPPER=qemu-s390x for
# the big-endian cross build).
WRAP=${EXEC_WRAPPER:-}
if [ "${VALGRIND:-0}" = 1 ]; then
	WRAP="$WRAP valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
fi
# LeakSanitizer (the sanitizer build) leaves out what fontconfig keeps
export LSAN_OPTIONS="suppressions=$top_srcdir/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
rpt() { $WRAP "$PMIMRPT" "$@"; }
gen() { $WRAP "$PMIMGEN" "$@"; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmimrpt-test.XXXXXX")
failures=0
checks=0
trap 'if [ $failures -eq 0 ]; then rm -rf "$tmp"; else echo "scratch files kept in $tmp"; fi' EXIT

pass() { checks=$((checks + 1)); echo "ok - $*"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL - $*"; }

# expect_rc WANT CMD...: run CMD, check its exit code; its output is kept
# in $tmp/last.out and $tmp/last.err.
expect_rc() {
	local want=$1 rc=0
	shift
	"$@" > "$tmp/last.out" 2> "$tmp/last.err" || rc=$?
	if [ "$rc" -eq "$want" ]; then pass "exit $want: $*"; else fail "exit $rc, wanted $want: $*"; fi
}

# has_line FILE PATTERN WHAT: a line of FILE matches
has_line() {
	if grep -q -- "$2" "$1"; then pass "$3"; else fail "$3"; head -3 "$1"; fi
}

# same FILE1 FILE2 WHAT
same() {
	if cmp -s "$1" "$2"; then pass "$3"; else fail "$3"; diff -u "$1" "$2" | head -20; fi
}

# jobs_alike WHAT HOW JOBS: run "j$JOBS" wrote what "j1" wrote (its
# .out, .err and .rc in $tmp), and read the inputs as HOW says, the
# first word of the run's PMIMRPT_JOBS_LOG line in $tmp/j$JOBS.how (-:
# any way). For the tests of --jobs (jobs.sh, split.sh).
jobs_alike() {
	if cmp -s "$tmp/j1.out" "$tmp/j$3.out" && cmp -s "$tmp/j1.err" "$tmp/j$3.err" &&
	   cmp -s "$tmp/j1.rc" "$tmp/j$3.rc"; then
		pass "$1 --jobs=$3: as --jobs=1 ($(cat "$tmp/j1.rc"))"
	else
		fail "$1 --jobs=$3: differs from --jobs=1"
		diff "$tmp/j1.err" "$tmp/j$3.err" | head -5
		diff "$tmp/j1.out" "$tmp/j$3.out" | head -5
		diff "$tmp/j1.rc" "$tmp/j$3.rc"
	fi
	if [ "$2" = - ]; then
		:
	elif [ "$(cat "$tmp/j$3.how")" = "$2" ]; then
		pass "$1 --jobs=$3: read $2"
	else
		fail "$1 --jobs=$3: read '$(cat "$tmp/j$3.how")', not $2"
	fi
}

# peak_rss_kb CMD...: the command's peak resident set in KiB (GNU time),
# reading standard input; nothing where it cannot be measured
peak_rss_kb() {
	if [ -z "$WRAP" ] && /usr/bin/time -v true > /dev/null 2>&1; then
		/usr/bin/time -v "$@" 2>&1 > /dev/null |
			sed -n 's/.*Maximum resident set size (kbytes): //p'
	fi
}

finish() {
	echo "$((checks - failures)) passed, $failures failed"
	[ $checks -gt 0 ] || exit 1
	[ $failures -eq 0 ]
}

# golden_case LIST NAME [OPTION]...: run the case NAME of a golden-file
# list (tests/golden.sh) as its line says, with OPTIONs added in front. A
# line is NAME DIR INPUT [OPTION]...: pmimrpt starts in DIR (from the top
# of the source tree, so that messages and title blocks name INPUT as the
# list does) and reads INPUT; the options are shell words, quotes and all.
golden_case() {
	local list=$1 name=$2 dir input opts
	shift 2
	read -r _ dir input opts <<EOF
$(awk -v n="$name" '$1 == n' "$list")
EOF
	(cd "$top_srcdir/$dir" && eval "rpt \"\$@\" $opts \"\$input\"")
}

# golden_all [OPTION]...: every case of both golden-file lists
# (tests/golden/LIST, tests/report-golden/LIST), with OPTIONs added in
# front, compared with its NAME.out, NAME.err and NAME.rc; with no OPTION
# and UPDATE_GOLDEN=1, those files are replaced first.
golden_all() {
	local list dir where name rc ext
	for list in "$top_srcdir/tests/golden/LIST" "$top_srcdir/tests/report-golden/LIST"; do
		dir=$(dirname "$list")
		where=tests/$(basename "$dir")
		while read -r name _; do
			case $name in ''|'#'*) continue ;; esac
			rc=0
			golden_case "$list" "$name" "$@" > "$tmp/$name.out" 2> "$tmp/$name.err" \
				< /dev/null || rc=$?
			echo "$rc" > "$tmp/$name.rc"
			for ext in out err rc; do
				if [ "${UPDATE_GOLDEN:-0}" = 1 ] && [ $# -eq 0 ]; then
					cp "$tmp/$name.$ext" "$dir/$name.$ext"
				fi
				same "$dir/$name.$ext" "$tmp/$name.$ext" "$where/$name.$ext${*:+ with $*}"
			done
		done < "$list"
	done
}

# pm_patch IN OUT N FIELD=VALUE...: a copy of the PM stream IN in which the
# records of its N-th interval (1: the first; parts of one interval share
# their four stamp fields) have FIELD set, in the parts that hold it.
# Offsets and lengths come from pmimrpt --describe, never from here. VALUE
# is a number, x'HEX' (the field's bytes), or OTHER+N or OTHER-N: another
# field of the same record as it was, plus or minus N.
pm_patch() {
	rpt --describe > "$tmp/describe.txt"
	perl -e '
		my ($desc, $in, $out, $nth, @set) = @ARGV;
		my %f;
		open my $d, "<", $desc or die "$desc: $!";
		while (<$d>) {
			last if /^$/;
			$f{$1} = [$2, hex $3, $4] if /^(\S+)\s+(\d+)\s+X.([0-9A-F]+).\s+(\d+)/;
		}
		open my $i, "<:raw", $in or die "$in: $!";
		my $buf = do { local $/; <$i> };
		sub get { my ($pos, $name) = @_; my (undef, $o, $l) = @{$f{$name} or die "no field $name"};
			my $v = 0; $v = $v * 256 + ord for split //, substr($buf, $pos + $o, $l); $v }
		my ($pos, $n, %seen) = (0, 0);
		while ($pos + 4 <= length $buf) {
			my $len = get($pos, "INTLEN");
			last if $len < 4;
			my $key = join ",", map { get($pos, $_) } qw(INTSDATE INTSTIME INTEDATE INTETIME);
			$seen{$key} //= ++$n;
			if ($seen{$key} == $nth) {
				my $seq = get($pos, "INTSEQ#");
				my @put;
				for (@set) {
					my ($name, $value) = /^([^=]+)=(.*)$/ or die "not FIELD=VALUE: $_";
					my ($part, $o, $l) = @{$f{$name} or die "no field $name"};
					next if $part && $part != $seq;
					my $bytes;
					if ($value =~ /^x.([0-9A-Fa-f]+).$/) { $bytes = pack "H*", $1 }
					else {
						$value = get($pos, $1) + ($2 eq "+" ? $3 : -$3) if $value =~ /^(\S+?)([+-])(\d+)$/;
						$bytes = ""; for (1 .. $l) { $bytes = chr($value % 256) . $bytes; $value = int($value / 256) }
					}
					length $bytes == $l or die "$name: $l bytes, not " . length $bytes;
					push @put, [$o, $bytes];
				}
				substr($buf, $pos + $_->[0], length $_->[1]) = $_->[1] for @put;
			}
			$pos += $len;
		}
		open my $o, ">:raw", $out or die "$out: $!";
		print $o $buf;' "$tmp/describe.txt" "$@"
}
