#!/bin/sh
# chunking.sh: no read boundary may change a result. tests/feed_chunks reads
# each small file through the whole pipeline once per read size, 1 byte to
# the file's length, and compares intervals, inventory, accounting and
# diagnostics with reading it whole. Files of every framing, with spanned
# records, other record types and damaged reassembly.
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
# the bundled sample, read in chunks up to 4 KiB
if $WRAP "$FEED" --max-chunk=4096 "$top_srcdir/data/sample-smf-bdw.dat"; then
	pass "sample-smf-bdw.dat: chunk sizes 1..4096 give the same result"
else
	fail "sample-smf-bdw.dat: chunk sizes differ"
fi
finish
