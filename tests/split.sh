#!/bin/sh
# split.sh: --jobs on one file. A PM stream or an SMF dump is cut into
# ranges, a thread each (PMIMRPT_SPLIT_LEAST makes small ranges of small
# files); a run with
# --jobs=2, 3 and 4 writes byte for byte what --jobs=1 writes: the report,
# standard error whole (every message with its offset, in order, and the
# summary line) and the exit code, for generated and bundled files of every
# framing and the real dumps when they are there. Clean streams are merged
# from the ranges (PMIMRPT_JOBS_LOG says "apart", with the offsets of the
# cuts); damage at and around a cut (a bad INTLEN, BDW or SDW, garbage
# over the cut, a record or block cut short, bytes put in) is read again
# whole ("again") and said once. So is a file of PERF_DATA_BLOCKs, for
# the series reports. A pipe is read by one thread, and so is what is not
# cut.
. "${top_srcdir:-.}/tests/lib.sh"

export PMIMRPT_JOBS_LOG="$tmp/jobs.log" PMIMRPT_SPLIT_LEAST=4000

gen --framing=pm --seed=3 --size=400K --other-pm=0.05 -o "$tmp/clean.pm" ||
	fail "pmimgen clean.pm"
gen --framing=pm --seed=4 --size=200K --drop-parts=0.02 -o "$tmp/drop.pm" ||
	fail "pmimgen drop.pm"
gen --framing=pm --seed=5 --size=200K --duplicate-parts=0.01 -o "$tmp/dup.pm" ||
	fail "pmimgen dup.pm"
gen --framing=bdw --seed=6 --sparse --size=400K -o "$tmp/sparse.bdw" ||
	fail "pmimgen sparse.bdw"
gen --framing=bdw --seed=9 --extended-bdw=all --block-size=40000 --size=400K \
	-o "$tmp/extended.bdw" || fail "pmimgen extended.bdw"
gen --framing=bdw --seed=11 --sources=SYSA,SYSB --size=200K -o "$tmp/two.bdw" ||
	fail "pmimgen two.bdw"
gen --framing=rdw --seed=7 --size=400K -o "$tmp/dump.rdw" || fail "pmimgen dump.rdw"
gen --framing=perf --seed=8 --intervals=24 -o "$tmp/snap.perf" || fail "pmimgen snap.perf"

# run NAME JOBS OPTIONS... FILE: output, standard error and exit code in
# $tmp/NAME.out, .err, .rc; how it was read (the log's first words, or
# "one" for one thread) in $tmp/NAME.how, the cuts in $tmp/NAME.cuts
run() {
	local name=$1 jobs=$2 rc=0
	shift 2
	: > "$PMIMRPT_JOBS_LOG"
	rpt --run-time="2026-01-01 00:00" --jobs="$jobs" "$@" \
		> "$tmp/$name.out" 2> "$tmp/$name.err" || rc=$?
	echo "exit $rc" > "$tmp/$name.rc"
	if [ -s "$PMIMRPT_JOBS_LOG" ]; then
		cut -d' ' -f1 "$PMIMRPT_JOBS_LOG" > "$tmp/$name.how"
		cut -d' ' -f4- "$PMIMRPT_JOBS_LOG" > "$tmp/$name.cuts"
	else
		echo one > "$tmp/$name.how"
		: > "$tmp/$name.cuts"
	fi
}

# each WHAT HOW OPTIONS... FILE: jobs_alike for --jobs=2, 3 and 4
each() {
	local what=$1 how=$2
	shift 2
	run j1 1 "$@"
	for jobs in 2 3 4; do
		run j$jobs $jobs "$@"
		jobs_alike "$what" "$how" $jobs
	done
}

for report in waits cpu summary; do
	for by in total day; do
		each "clean PM stream, --report=$report --by=$by" apart \
			--report=$report --by=$by "$tmp/clean.pm"
		each "clean PM stream, --framing=pm --report=$report --by=$by" apart \
			--framing=pm --report=$report --by=$by "$tmp/clean.pm"
	done
	each "bundled PM stream, --report=$report" apart --report=$report \
		"$top_srcdir/data/sample-pm.dat"
	# intervals left waiting for parts at a range's end
	each "PM stream with parts left out, --report=$report" again \
		--report=$report "$tmp/drop.pm"
	# parts said twice
	each "PM stream with parts twice, --report=$report" again \
		--report=$report "$tmp/dup.pm"
	for f in "$tmp/sparse.bdw" "$tmp/extended.bdw" "$tmp/dump.rdw"; do
		each "$(basename "$f"), --report=$report" apart --report=$report "$f"
	done
	# two systems' parts on both sides of the cuts; the samples'
	# systems too, and their faults
	for f in "$tmp/two.bdw" "$top_srcdir/data/sample-smf-bdw.dat" \
	         "$top_srcdir/data/sample-smf-rdw.dat" "$top_srcdir/data/sample-faults.dat"; do
		each "$(basename "$f"), --report=$report" again --report=$report "$f"
	done
done
# reports --jobs does not split
for report in intervals inventory; do
	each "clean PM stream, --report=$report" one --report=$report "$tmp/clean.pm"
done
each "PERF_DATA_BLOCKs, --report=inventory" one --report=inventory "$tmp/snap.perf"
each "PERF_DATA_BLOCKs, --by=interval" one --report=perf --by=interval "$tmp/snap.perf"

# A time zone: its repeated hour is told apart by what came before; a
# partial: its time covered as one run's.
each "clean PM stream, --timezone" one --report=waits --timezone=Europe/Berlin \
	"$tmp/clean.pm"
each "clean PM stream, --partial" one --report=waits --partial "$tmp/clean.pm"

# A pipe is read by one thread.
run j1 1 --report=waits "$tmp/clean.pm"
rc=0
: > "$PMIMRPT_JOBS_LOG"
cat "$tmp/clean.pm" | rpt --run-time="2026-01-01 00:00" --jobs=2 --report=waits - \
	> "$tmp/pipe.out" 2> "$tmp/pipe.err" || rc=$?
same "$tmp/j1.out" "$tmp/pipe.out" "a pipe with --jobs=2: the report of --jobs=1"
if [ $rc = 0 ] && [ ! -s "$PMIMRPT_JOBS_LOG" ]; then
	pass "a pipe with --jobs=2: read by one thread"
else
	fail "a pipe with --jobs=2: exit $rc, $(cat "$PMIMRPT_JOBS_LOG")"
fi

# short_of FILE AT N OUT: FILE without the N bytes before AT, in OUT;
# put_in FILE AT TEXT OUT: FILE with TEXT put in at AT
short_of() {
	head -c $(($2 - $3)) "$1" > "$4"
	tail -c +$(($2 + 1)) "$1" >> "$4"
}
put_in() {
	head -c "$2" "$1" > "$4"
	printf '%s' "$3" >> "$4"
	tail -c +$(($2 + 1)) "$1" >> "$4"
}

# cuts_of OPTIONS... FILE: where FILE is cut with 2, 3 and 4 threads, in
# $cuts (one run each, c2 to c4)
cuts_of() {
	local f
	cuts=
	for jobs in 2 3 4; do
		run c$jobs $jobs "$@"
		cuts="$cuts $(cat "$tmp/c$jobs.cuts")"
	done
	cuts=$(echo $cuts | tr ' ' '\n' | sort -un)
	for f; do :; done
	[ -n "$cuts" ] || fail "no cuts of $(basename "$f")"
}

# Where the clean stream is cut with 2, 3 and 4 threads.
cuts_of --report=waits "$tmp/clean.pm"

# damage NAME CUT: the clean stream with damage at CUT, in $tmp/NAME.pm;
# where it begins in $tmp/NAME.at
damage() {
	local f="$tmp/$1.pm" at=$2
	case $1 in
	intlen)   # INTLEN of the record at the cut below 4
		cp "$tmp/clean.pm" "$f"
		printf '\000\001' | dd of="$f" bs=1 seek="$at" conv=notrunc 2>/dev/null ;;
	over)     # garbage over the end of one record and the next's INTLEN
		cp "$tmp/clean.pm" "$f"
		at=$((at - 3))
		printf 'XXXXXX' | dd of="$f" bs=1 seek="$at" conv=notrunc 2>/dev/null ;;
	short)    # the record before the cut cut short by 20 bytes
		short_of "$tmp/clean.pm" "$at" 20 "$f"
		at=$((at - 20)) ;;
	inserted) # bytes put in at the cut
		put_in "$tmp/clean.pm" "$at" 'not a record' "$f" ;;
	esac
	echo "$at" > "$tmp/$1.at"
}

for at in $cuts; do
	for kind in intlen over short inserted; do
		damage $kind "$at"
		each "$kind at cut $at" again --report=waits "$tmp/$kind.pm"
		# one bad descriptor, one resynchronisation, said where
		# the damage is (within a record of it)
		n=$(grep -c 'descriptor word' "$tmp/j4.err")
		m=$(grep -c 'bytes skipped while looking' "$tmp/j4.err")
		said=$(sed -n 's/^[^ ]* [^ ]* offset \([0-9]*\) .*descriptor word.*/\1/p' "$tmp/j4.err")
		from=$(($(cat "$tmp/$kind.at") - 512))
		if [ "$n" = 1 ] && [ "$m" = 1 ] && [ "$said" -ge $from ] &&
		   [ "$said" -lt $((from + 1024)) ]; then
			pass "$kind at cut $at: said once, at $said"
		else
			fail "$kind at cut $at: said $n and $m times, at '$said'"
			cat "$tmp/j4.err"
		fi
	done
done

# Cuts of a dump are at its blocks' starts, walked from the first BDW on
# (plain BDWs: the length in the first two bytes), never inside a block:
# not at a BDW found in a block's data (seed 10 has an extended one there
# whose length runs past the end of the file, a walk of one block).
gen --framing=bdw --seed=10 --sources=SYSA,SYSB --size=200K -o "$tmp/false.bdw" ||
	fail "pmimgen false.bdw"
for f in false sparse; do
	python3 -c '
import sys
b = open(sys.argv[1], "rb").read()
o = 0
while o + 4 <= len(b):
    print(o)
    o += int.from_bytes(b[o:o + 2], "big")
' "$tmp/$f.bdw" > "$tmp/$f.starts"
	for jobs in 2 3 4; do
		run b$jobs $jobs --report=waits "$tmp/$f.bdw"
		for at in $(cat "$tmp/b$jobs.cuts"); do
			if grep -qx "$at" "$tmp/$f.starts"; then
				pass "$f.bdw --jobs=$jobs: cut at $at, a block's start"
			else
				fail "$f.bdw --jobs=$jobs: cut at $at, inside a block"
			fi
		done
	done
done

# said_once WHAT: the run of --jobs=4 warned, and said nothing twice
said_once() {
	local said twice
	said=$(grep -c 'warning' "$tmp/j4.err")
	twice=$(sort "$tmp/j4.err" | uniq -d | wc -l)
	if [ "$said" -gt 0 ] && [ "$twice" = 0 ]; then
		pass "$1: said once ($said warnings)"
	else
		fail "$1: $said warnings, $twice twice"
		cat "$tmp/j4.err"
	fi
}

# Where the sparse dump is cut, and damage there: a BDW, the first SDW
# after it, the block before it cut short, bytes put in. Said as --jobs=1
# says it: once, never twice, and not left unsaid.
cuts_of --report=waits "$tmp/sparse.bdw"
for at in $cuts; do
	for kind in bdw sdw short inserted; do
		f="$tmp/$kind.bdw"
		case $kind in
		bdw|sdw)
			cp "$tmp/sparse.bdw" "$f"
			pos=$at
			[ $kind = bdw ] || pos=$((at + 4))
			printf '\377\377\377\377' | dd of="$f" bs=1 seek="$pos" conv=notrunc 2>/dev/null ;;
		short)
			short_of "$tmp/sparse.bdw" "$at" 100 "$f" ;;
		inserted)
			put_in "$tmp/sparse.bdw" "$at" 'not a block' "$f" ;;
		esac
		each "$kind at cut $at of the dump" again --report=waits "$f"
		said_once "$kind at cut $at of the dump"
	done
done

# Windows data, one file of PERF_DATA_BLOCKs cut at blocks: a snapshot
# is paired with its system's previous one, which the thread of a range
# reads first (the snapshots just before the cut, back to a system's
# second). The bundled sample; three systems, one wrapping a counter, one
# rebooting; a system that comes later (W3); one that is away for a while
# (W2): a range whose first W2 would be paired with none, where one run
# pairs it with the W2 of a range before, is read again.
gen --framing=perf --seed=12 --sources=W1,W2,W3 --interval=60 --intervals=60 \
	-o "$tmp/three.perf" || fail "pmimgen three.perf"
gen --framing=perf --seed=13 --sources=W1,W2 --interval=60 --intervals=30 \
	-o "$tmp/first.perf" || fail "pmimgen first.perf"
gen --framing=perf --seed=14 --sources=W1,W2,W3 --interval=60 --intervals=30 \
	--start="2025-03-03 06:30" -o "$tmp/second.perf" || fail "pmimgen second.perf"
cat "$tmp/first.perf" "$tmp/second.perf" > "$tmp/later.perf"
gen --framing=perf --seed=15 --sources=W1,W2 --interval=60 --intervals=20 \
	-o "$tmp/away1.perf" || fail "pmimgen away1.perf"
gen --framing=perf --seed=16 --sources=W1 --interval=60 --intervals=20 \
	--start="2025-03-03 06:20" -o "$tmp/away2.perf" || fail "pmimgen away2.perf"
gen --framing=perf --seed=17 --sources=W1,W2 --interval=60 --intervals=20 \
	--start="2025-03-03 06:40" -o "$tmp/away3.perf" || fail "pmimgen away3.perf"
cat "$tmp/away1.perf" "$tmp/away2.perf" "$tmp/away3.perf" > "$tmp/away.perf"
for report in perf win-cpu win-disk; do
	for by in hour day total; do
		each "three systems, --report=$report --by=$by" apart \
			--report=$report --by=$by "$tmp/three.perf"
	done
	each "one system, --report=$report" apart --report=$report "$tmp/snap.perf"
	each "bundled snapshots, --report=$report" apart --report=$report \
		--perf-names="$top_srcdir/data/sample-perf.names.txt" "$top_srcdir/data/sample-perf.bin"
	each "a system later, --report=$report" apart --report=$report "$tmp/later.perf"
	each "--framing=perf, --report=$report" apart --framing=perf --report=$report \
		"$tmp/later.perf"
done
# several files: a system's snapshot may be paired with one in the file
# before, so they are read by one thread
each "two files of snapshots" one --report=perf --by=hour "$tmp/first.perf" \
	"$tmp/second.perf"
each "a system away for a while" - --report=perf --by=hour "$tmp/away.perf"
# cut in the middle of its absence (2), and where each side holds it (3)
if [ "$(cat "$tmp/j2.how")" = again ] && [ "$(cat "$tmp/j3.how")" = apart ]; then
	pass "a system away for a while: read again where a range lacks its pair"
else
	fail "a system away for a while: read $(cat "$tmp/j2.how") and $(cat "$tmp/j3.how")"
fi

# sigs FILE: the offsets of the PERF signatures in FILE
sigs() {
	LC_ALL=C grep -obUaP 'P\x00E\x00R\x00F\x00' "$1" | cut -d: -f1
}
# le32 N: N as 4 bytes, little-endian
le32() {
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $((($1 >> 8) & 255)) \
		$((($1 >> 16) & 255)) $((($1 >> 24) & 255)))"
}

# Damage at and around the cuts: the TotalByteLength of the block at the
# cut too large, of the block before it too small, garbage over the cut,
# the block before it cut short, bytes put in. Said as --jobs=1 says it:
# once, never twice, and not left unsaid.
cuts_of --report=perf "$tmp/three.perf"
sigs "$tmp/three.perf" > "$tmp/three.sigs"
for at in $cuts; do
	prev=$(awk -v c="$at" '$1 < c { p = $1 } END { print p }' "$tmp/three.sigs")
	for kind in total before over short inserted; do
		f="$tmp/$kind.perf"
		case $kind in
		total)
			cp "$tmp/three.perf" "$f"
			le32 4294967295 | dd of="$f" bs=1 seek=$((at + 20)) conv=notrunc 2>/dev/null ;;
		before)
			cp "$tmp/three.perf" "$f"
			le32 1 | dd of="$f" bs=1 seek=$((prev + 20)) conv=notrunc 2>/dev/null ;;
		over)
			cp "$tmp/three.perf" "$f"
			printf 'XXXXXX' | dd of="$f" bs=1 seek=$((at - 3)) conv=notrunc 2>/dev/null ;;
		short)
			short_of "$tmp/three.perf" "$at" 20 "$f" ;;
		inserted)
			put_in "$tmp/three.perf" "$at" 'not a block' "$f" ;;
		esac
		each "$kind at cut $at of the snapshots" again --report=perf --by=hour "$f"
		said_once "$kind at cut $at of the snapshots"
	done
done
# The block before the cut swallowing the one at it (its TotalByteLength
# the two's): nothing a reader says, but the block at the cut is no
# snapshot of one run's, and the range after it cannot be primed with it.
at=$(cat "$tmp/c2.cuts")
prev=$(awk -v c="$at" '$1 < c { p = $1 } END { print p }' "$tmp/three.sigs")
next=$(awk -v c="$at" '$1 > c { print $1; exit }' "$tmp/three.sigs")
cp "$tmp/three.perf" "$tmp/swallow.perf"
le32 $((next - prev)) | dd of="$tmp/swallow.perf" bs=1 seek=$((prev + 20)) conv=notrunc 2>/dev/null
each "a block swallowing the one at cut $at" - --report=perf --by=hour "$tmp/swallow.perf"
if [ "$(cat "$tmp/j2.how")" = again ] && ! grep -q warning "$tmp/j2.err"; then
	pass "a block swallowing the one at cut $at: read again, nothing said"
else
	fail "a block swallowing the one at cut $at: read $(cat "$tmp/j2.how")"
	cat "$tmp/j2.err"
fi

# Dumps without their trailers (an 18-byte record at the end): one at
# the end of the file, and one joined to the next dump. Said at the end,
# and at the next dump's header, once.
head -c -18 "$tmp/dump.rdw" > "$tmp/untrailed.rdw"
gen --framing=rdw --seed=11 --start="2026-01-01 00:00" --size=400K -o "$tmp/later.rdw" ||
	fail "pmimgen later.rdw"
cat "$tmp/untrailed.rdw" "$tmp/later.rdw" > "$tmp/joined.rdw"
for f in untrailed joined; do
	each "$f.rdw" again --report=waits "$tmp/$f.rdw"
	n=$(grep -c 'without an SMF type 3 trailer' "$tmp/j4.err")
	if [ "$n" = 1 ]; then
		pass "$f.rdw: no trailer said once"
	else
		fail "$f.rdw: no trailer said $n times"
	fi
done

# Real SMF dumps, when they are there.
real=/work/shared/data/real-smf
if [ -d "$real" ]; then
	for f in "$real"/*.dat; do
		[ -f "$f" ] || continue
		each "$(basename "$f")" - --report=waits "$f"
	done
else
	echo "# no $real: real dumps not compared"
fi

finish
