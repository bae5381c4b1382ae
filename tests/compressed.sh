#!/bin/sh
# compressed.sh: a dump compressed with gzip or zstd reads as the dump.
# Every report of the bundled samples and of generated dumps, from .gz and
# .zst files, from standard input, from concatenated gzip members and zstd
# frames, and with --jobs, is byte for byte the report of the uncompressed
# bytes; the summary line is that of the uncompressed run with the
# compressed size (wc -c) added. A compressed stream cut short is exit 8,
# with a message naming the file and the uncompressed offset that gzip -dc
# and zstd -dc themselves reach, and the report of what they decode. Bytes
# after the last member are a warning. Every chunk size of the memory
# input gives the same result. Built without zlib and libzstd, compressed
# input is refused, saying so, and the rest of this test is skipped.
. "${top_srcdir:-.}/tests/lib.sh"
FEED=${FEED:-$top_builddir/tests/feed_chunks}
data=$top_srcdir/data

# Which codecs pmimrpt decodes, and which programs are here to compress.
codecs=
for c in gzip zstd; do
	lib=zlib cat=zcat
	[ $c = zstd ] && lib=libzstd cat=zstdcat
	if ! command -v $c > /dev/null; then
		echo "# $c not installed: its cases are skipped"
		continue
	fi
	printf 'x' | $c -c > "$tmp/probe.$c"
	rpt -q "$tmp/probe.$c" > /dev/null 2> "$tmp/probe.err"
	if grep -q "built without $lib" "$tmp/probe.err"; then
		expect_rc 8 rpt -q "$tmp/probe.$c"
		has_line "$tmp/last.err" "probe.$c: offset 0 (0x0): error: .*looks $c-compressed, and this pmimrpt was built without $lib: use $cat file | pmimrpt -" \
			"built without $lib: $c input refused, saying what is missing"
	else
		codecs="$codecs $c"
	fi
done
if [ -z "$codecs" ]; then
	[ $failures -eq 0 ] || exit 1
	echo "SKIP: pmimrpt decodes neither gzip nor zstd (configured without them), or no gzip or zstd program"
	exit 77
fi
ext() { case $1 in gzip) echo gz ;; zstd) echo zst ;; esac; }

# summary_of ERR: the summary line, "pmimrpt: " and the file count cut
summary_of() { sed -n 's/^pmimrpt: [0-9]* files*, //p' "$1" | tail -n 1; }

# with_compressed SUMMARY SIZE: the summary with "(SIZE compressed)" put in
with_compressed() { [ -z "$1" ] || echo "$1" | sed "s/^\([0-9]*\) bytes: /\1 bytes ($2 compressed): /"; }

# same_as_plain NAME PLAIN OPTION...: every way of reading the compressed
# copies of PLAIN gives PLAIN's report, messages and exit code
same_as_plain() {
	name=$1 plain=$2
	shift 2
	rc=0
	rpt "$@" "$plain" > "$tmp/want.out" 2> "$tmp/want.err" || rc=$?
	for c in $codecs; do
		z=$tmp/$name.$(ext $c)
		$c -c < "$plain" > "$z"
		size=$(wc -c < "$z")
		# the messages name the compressed file; the summary adds its size
		sed "s|$plain|$z|g" "$tmp/want.err" | grep -v '^pmimrpt: [0-9]* files*, ' > "$tmp/want-z.err"
		with_compressed "$(summary_of "$tmp/want.err")" "$size" > "$tmp/want-z.sum"
		for how in file stdin jobs; do
			zrc=0
			case $how in
			file) rpt "$@" "$z" ;;
			stdin) rpt "$@" - < "$z" ;;
			jobs) rpt -j2 "$@" "$z" ;;
			esac > "$tmp/got.out" 2> "$tmp/got.err" || zrc=$?
			[ $how = stdin ] && sed -i "s|(stdin)|$z|g" "$tmp/got.err"
			summary_of "$tmp/got.err" > "$tmp/got.sum"
			grep -v '^pmimrpt: [0-9]* files*, ' "$tmp/got.err" > "$tmp/got-z.err"
			if [ $zrc -eq $rc ] && cmp -s "$tmp/want.out" "$tmp/got.out" &&
			   cmp -s "$tmp/want-z.err" "$tmp/got-z.err" && cmp -s "$tmp/want-z.sum" "$tmp/got.sum"; then
				pass "$name $*: $c, $how: the plain file's report, messages and exit $rc"
			else
				fail "$name $*: $c, $how: exit $zrc (plain $rc)"
				diff "$tmp/want.out" "$tmp/got.out" | head -5
				diff "$tmp/want-z.err" "$tmp/got-z.err" | head -5
				diff "$tmp/want-z.sum" "$tmp/got.sum" | head -5
			fi
		done
	done
}

for f in sample-smf-rdw sample-smf-bdw sample-faults; do
	for r in intervals waits cpu tasks summary inventory; do
		same_as_plain "$f" "$data/$f.dat" --report=$r
	done
	same_as_plain "$f" "$data/$f.dat" --report=waits --by=hour
done
same_as_plain sample-pm "$data/sample-pm.dat" --framing=pm --source=IDMSCV01 --report=intervals
for r in perf win-cpu win-disk inventory; do
	same_as_plain sample-perf "$data/sample-perf.bin" --report=$r
done

# generated dumps: a long BDW one, and two whose concatenation is read
gen --seed=3 --framing=bdw --sources=SYSA,SYSB --intervals=400 -o "$tmp/big.dat"
gen --seed=4 --framing=rdw --block-size=500 --sources=SYSC --intervals=50 --other-pm=0.2 \
	-o "$tmp/a.dat"
gen --seed=5 --framing=rdw --block-size=500 --sources=SYSD --intervals=50 \
	--drop-parts=10% -o "$tmp/b.dat"
for r in intervals waits summary inventory; do
	same_as_plain big "$tmp/big.dat" --report=$r
done

# members and frames back to back are one stream: the concatenation's report
cat "$tmp/a.dat" "$tmp/b.dat" > "$tmp/ab.dat"
for c in $codecs; do
	e=$(ext $c)
	$c -c < "$tmp/a.dat" > "$tmp/a.$e"
	$c -c < "$tmp/b.dat" > "$tmp/b.$e"
	cat "$tmp/a.$e" "$tmp/b.$e" > "$tmp/ab.$e"
	size=$(wc -c < "$tmp/ab.$e")
	for r in intervals waits inventory; do
		rc=0 zrc=0
		rpt --report=$r "$tmp/ab.dat" > "$tmp/want.out" 2> "$tmp/want.err" || rc=$?
		rpt --report=$r "$tmp/ab.$e" > "$tmp/got.out" 2> "$tmp/got.err" || zrc=$?
		with_compressed "$(summary_of "$tmp/want.err")" "$size" > "$tmp/want.sum"
		summary_of "$tmp/got.err" > "$tmp/got.sum"
		if [ $rc -eq $zrc ] && cmp -s "$tmp/want.out" "$tmp/got.out" &&
		   cmp -s "$tmp/want.sum" "$tmp/got.sum"; then
			pass "cat a.$e b.$e: --report=$r of cat a.dat b.dat"
		else
			fail "cat a.$e b.$e: --report=$r differs from cat a.dat b.dat"
			diff "$tmp/want.sum" "$tmp/got.sum"
		fi
	done
done
# a compressed file and a plain one: how many of the bytes were compressed
if [ -f "$tmp/a.gz" ]; then
	expect_rc 4 rpt -q --report=waits "$tmp/a.gz" "$tmp/b.dat"
	expect_rc 4 rpt --report=waits "$tmp/a.gz" "$tmp/b.dat"
	all=$(($(wc -c < "$tmp/a.dat") + $(wc -c < "$tmp/b.dat")))
	has_line "$tmp/last.err" "^pmimrpt: 2 files, $all bytes ($(wc -c < "$tmp/a.dat") of them from $(wc -c < "$tmp/a.gz") compressed): " \
		"a.gz and b.dat: the summary says which bytes were compressed"
	# and through partials: the merge's summary is the single run's
	rpt -q --partial --report=waits -o "$tmp/a.part" "$tmp/a.gz"
	rpt -q --partial --report=waits -o "$tmp/b.part" "$tmp/b.dat"
	rpt --merge --report=waits "$tmp/a.part" "$tmp/b.part" > "$tmp/merged.out" 2> "$tmp/merged.err"
	same "$tmp/last.out" "$tmp/merged.out" "a.gz and b.dat merged from partials: the single run's report"
	same "$(summary_of "$tmp/last.err" > "$tmp/s1"; echo "$tmp/s1")" \
		"$(summary_of "$tmp/merged.err" > "$tmp/s2"; echo "$tmp/s2")" \
		"a.gz and b.dat merged from partials: the single run's summary"
fi

# Cut short: exit 8, the file and the uncompressed offset its own program
# reaches, and the report of the bytes decoded before, counted as the
# framer counts a file cut there.
for c in $codecs; do
	e=$(ext $c)
	$c -c < "$tmp/big.dat" > "$tmp/big.$e"
	size=$(wc -c < "$tmp/big.$e")
	for cut in 5 1000 40000 $((size / 2)) $((size - 9)) $((size - 1)); do
		head -c $cut "$tmp/big.$e" > "$tmp/cut.$e"
		if [ $c = zstd ] && [ $cut -ge $((size - 4)) ]; then
			# zstd -dc holds back the last block it decoded when the
			# frame ends short; pmimrpt has the bytes (the frame's
			# last block is whole, its checksum is not)
			cp "$tmp/big.dat" "$tmp/cut.dat"
		else
			$c -dc < "$tmp/cut.$e" > "$tmp/cut.dat" 2> /dev/null
		fi
		k=$(wc -c < "$tmp/cut.dat")
		rc=0
		rpt --report=intervals "$tmp/cut.dat" > "$tmp/want.out" 2> "$tmp/want.err" || rc=$?
		expect_rc 8 rpt --report=intervals "$tmp/cut.$e"
		has_line "$tmp/last.err" "^pmimrpt: $tmp/cut.$e: offset $k (0x[0-9a-f]*): error: compressed input damaged; what was decoded before is kept: $c: stream truncated inside a \(member\|frame\), at compressed byte $cut (the offset counts uncompressed bytes)$" \
			"$c cut at $cut: said with the file and offset $k, where $c -dc stops"
		# an input not read to its end says why, not that nothing was selected
		sed "s|$tmp/cut.dat|$tmp/cut.$e|g" "$tmp/want.err" |
			grep -v '^pmimrpt: [0-9]* files*, \|warning: nothing selected' > "$tmp/want-z.err"
		grep -v '^pmimrpt: [0-9]* files*, \|error: compressed input damaged' "$tmp/last.err" > "$tmp/got-z.err"
		with_compressed "$(summary_of "$tmp/want.err")" "$cut" > "$tmp/want.sum"
		summary_of "$tmp/last.err" > "$tmp/got.sum"
		if cmp -s "$tmp/want.out" "$tmp/last.out" && cmp -s "$tmp/want-z.err" "$tmp/got-z.err" &&
		   cmp -s "$tmp/want.sum" "$tmp/got.sum"; then
			pass "$c cut at $cut: the report, messages and accounting of its $k decoded bytes"
		else
			fail "$c cut at $cut: not the report of its $k decoded bytes"
			diff "$tmp/want-z.err" "$tmp/got-z.err" | head -5
			diff "$tmp/want.sum" "$tmp/got.sum"
		fi
	done
	# damaged bytes inside: exit 8, said with the file and an offset, and
	# every byte decoded accounted for
	for at in 300 $((size / 3)) $((size - 6)); do
		cp "$tmp/big.$e" "$tmp/bad.$e"
		printf '\125\252\125\252' | dd of="$tmp/bad.$e" bs=1 seek=$at conv=notrunc 2> /dev/null
		expect_rc 8 rpt -q --report=inventory "$tmp/bad.$e"
		has_line "$tmp/last.err" "^pmimrpt: $tmp/bad.$e: offset [0-9]* (0x[0-9a-f]*): error: compressed input damaged; what was decoded before is kept: $c: .*, at compressed byte [0-9]* (the offset counts uncompressed bytes)$" \
			"$c damaged at byte $at: said with the file and offset"
		read_b=$(grep '^bytes,read,' "$tmp/last.out" | cut -d, -f4)
		sum_b=$(grep -E '^bytes,(used|skipped|damaged),' "$tmp/last.out" |
			awk -F, '{ s += $4 } END { print s }')
		if [ -n "$read_b" ] && [ "$read_b" = "$sum_b" ]; then
			pass "$c damaged at byte $at: $read_b decoded bytes, all accounted for"
		else
			fail "$c damaged at byte $at: read $read_b, accounted $sum_b"
		fi
	done
	# bytes after the last member or frame: a warning, and ignored
	for tail in garbage zeros; do
		cp "$tmp/big.$e" "$tmp/tail.$e"
		if [ $tail = zeros ]; then head -c 512 /dev/zero; else printf 'garbage'; fi >> "$tmp/tail.$e"
		extra=$(($(wc -c < "$tmp/tail.$e") - size))
		rpt -q --report=waits "$tmp/big.dat" > "$tmp/want.out"
		expect_rc 4 rpt -q --report=waits "$tmp/tail.$e"
		same "$tmp/want.out" "$tmp/last.out" "$c and $tail after it: the report of the dump"
		has_line "$tmp/last.err" "^pmimrpt: $tmp/tail.$e: offset $(wc -c < "$tmp/big.dat") (0x[0-9a-f]*): warning: bytes after the end of the compressed data; ignored: $extra bytes after the last $c \(member\|frame\), at compressed byte $size$" \
			"$c and $tail after it: a warning naming the $extra bytes"
	done
	# every read size of the memory input: the same result
	gen --seed=6 --framing=bdw --block-size=600 --sources=SYSA --intervals=3 -o "$tmp/small.dat"
	$c -c < "$tmp/small.dat" > "$tmp/small.$e"
	cat "$tmp/small.$e" "$tmp/small.$e" > "$tmp/small2.$e"
	for f in small small2; do
		if $WRAP "$FEED" "$tmp/$f.$e"; then
			pass "$f.$e: every chunk size gives the same result"
		else
			fail "$f.$e: chunk sizes differ"
		fi
	done
done
finish
