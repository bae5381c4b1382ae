#!/bin/sh
# chunking.sh: no read boundary may change a result. tests/feed_chunks reads
# each small file through the whole pipeline once per read size, 1 byte to
# the file's length, and compares intervals, inventory, accounting and
# diagnostics with reading it whole. Files of every framing, with spanned
# records, other record types and damaged reassembly; PERF_DATA_BLOCKs with
# the bytes of their series reports (perf, win-cpu, win-disk) compared too.
. "${top_srcdir:-.}/tests/lib.sh"
FEED=${FEED:-$top_builddir/tests/feed_chunks}

make_and_feed() {
	name=$1
	feed_opts=$2
	shift 2
	gen "$@" -o "$tmp/$name.dat" || { fail "$name: pmimgen $*"; return; }
	if $WRAP "$FEED" $feed_opts "$tmp/$name.dat"; then
		pass "$name: every chunk size gives the same result"
	else
		fail "$name: chunk sizes differ"
	fi
}

make_and_feed rdw "" --seed=5 --framing=rdw --block-size=400 --sources=SYSA,SYSB \
	--intervals=2 --other-pm=0.2 --pm-per-smf=1-4
make_and_feed bdw "" --seed=6 --framing=bdw --block-size=600 --sources=SYSA \
	--intervals=3 --other-pm=0.2 --pm-per-smf=2-5
make_and_feed bdw-extended "--max-chunk=2048" --seed=7 --framing=bdw --extended-bdw --block-size=40000 \
	--sources=SYSB --intervals=60 --no-dump-records
make_and_feed pm "--source=CV1" --seed=8 --framing=pm --source-label=CV1 --intervals=4 \
	--other-pm=0.3
make_and_feed rdw-pm "--source=CV1" --seed=9 --framing=rdw-pm --source-label=CV1 \
	--intervals=4 --other-pm=0.3
make_and_feed faults "" --seed=10 --framing=rdw --block-size=500 --sources=SYSA,SYSB \
	--intervals=3 --drop-parts=20% --duplicate-parts=20% --shuffle=4
# a dump of one block, cut inside it: detected as BDW at every chunk size
gen --seed=6 --framing=bdw --sources=SYSA,SYSB --intervals=20 -o "$tmp/one-block.dat"
head -c 3000 "$tmp/one-block.dat" > "$tmp/cut-block.dat"
if $WRAP "$FEED" "$tmp/cut-block.dat"; then
	pass "cut-block: every chunk size gives the same result"
else
	fail "cut-block: chunk sizes differ"
fi
# a BDW dump followed by an RDW dump: the change found at every chunk size
gen --seed=3 --framing=rdw --block-size=500 --sources=SYSA --intervals=2 -o "$tmp/rdw2.dat"
gen --seed=6 --framing=bdw --block-size=600 --sources=SYSB --intervals=2 -o "$tmp/bdw2.dat"
cat "$tmp/bdw2.dat" "$tmp/rdw2.dat" > "$tmp/bdw-rdw.dat"
cat "$tmp/rdw2.dat" "$tmp/bdw2.dat" > "$tmp/rdw-bdw.dat"
for f in bdw-rdw rdw-bdw; do
	if $WRAP "$FEED" "$tmp/$f.dat"; then
		pass "$f: every chunk size gives the same result"
	else
		fail "$f: chunk sizes differ"
	fi
done
# PERF_DATA_BLOCKs into series reports: the CSV bytes, the accounting and
# the census alike at every read size (feed_chunks adds 64 KiB, 1 MiB, the
# length less one and more than the length). Two systems interleaved, a
# row set per snapshot, every size up to a block's length and a little
# less (4 KiB); one system, every size up to the whole file.
make_and_feed perf-interval "--report=perf --by=interval --max-chunk=4096" --seed=4 \
	--framing=perf --sources=SYSA,SYSB --intervals=2
make_and_feed perf-cpu "--report=win-cpu" --seed=5 --framing=perf --sources=WINA \
	--intervals=2 --interval=60
make_and_feed perf-hour "--report=perf --by=hour --max-chunk=2048" --seed=6 \
	--framing=perf --sources=WINA,WINB --intervals=3 --interval=60
# the real Windows blocks, back to back, where ../shared has them
real=${REAL_PERF_DIR:-$top_srcdir/../shared/data/real-perf}
if [ -f "$real/sample_system_perf_data_block.bin" ]; then
	cat "$real/sample_system_perf_data_block.bin" \
		"$real/sample_processor_perf_data_block.bin" > "$tmp/real.perf"
	for by in interval total; do
		if $WRAP "$FEED" --report=perf --by=$by "$tmp/real.perf"; then
			pass "real blocks, report perf by $by: every chunk size gives the same result"
		else
			fail "real blocks, report perf by $by: chunk sizes differ"
		fi
	done
fi
# files past the first window the framer asks of a file it is lent (256
# KiB, to detect its framing): lent a page at a time, their records and
# damage fall across many windows; 37 bytes cut out (a resynchronisation)
# and 8 overwritten with zeros
for framing in bdw rdw pm; do
	case $framing in
	pm) who=--source-label=CV1 ;;
	*) who="--sources=SYSA,SYSB --block-size=3000" ;;
	esac
	gen --seed=12 --framing=$framing $who --size=1000000 -o "$tmp/whole.dat" ||
		fail "big-$framing: pmimgen"
	{ head -c 300001 "$tmp/whole.dat"; tail -c +300039 "$tmp/whole.dat"; } > "$tmp/big-$framing.dat"
	printf '\000\000\000\000\000\000\000\000' | dd of="$tmp/big-$framing.dat" bs=1 \
		seek=704093 conv=notrunc 2>/dev/null
	if $WRAP "$FEED" --source=CV1 --max-chunk=64 "$tmp/big-$framing.dat"; then
		pass "big-$framing, damaged: lent and read in chunks, the same result"
	else
		fail "big-$framing, damaged: lent or chunks differ"
	fi
done
# the bundled sample, read in chunks up to 4 KiB
if $WRAP "$FEED" --max-chunk=4096 "$top_srcdir/data/sample-smf-bdw.dat"; then
	pass "sample-smf-bdw.dat: chunk sizes 1..4096 give the same result"
else
	fail "sample-smf-bdw.dat: chunk sizes differ"
fi
finish
