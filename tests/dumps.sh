#!/bin/sh
# dumps.sh: whole dumps as a nightly job gets them, cut, joined, or with
# damage that must not pass for data: each case gives the exit code, the
# message naming file and offset, and the byte accounting it calls for.
. "${top_srcdir:-.}/tests/lib.sh"

# summary FILE: "used skipped damaged" from the summary line in FILE
summary() {
	sed -n 's/^pmimrpt: [0-9]* files*, [0-9]* bytes: \([0-9]*\) used, \([0-9]*\) skipped, \([0-9]*\) damaged;.*/\1 \2 \3/p' "$1"
}

# accounted ERRFILE BYTES WHAT: the summary accounts for BYTES
accounted() {
	# shellcheck disable=SC2046 # three numbers
	set -- "$1" "$2" "$3" $(summary "$1")
	if [ $# -eq 6 ] && [ $(($4 + $5 + $6)) -eq "$2" ]; then
		pass "$3: $4 used + $5 skipped + $6 damaged = $2 bytes"
	else
		fail "$3: $2 bytes, summary '$(summary "$1")'"
	fi
}

# has ERRFILE PATTERN WHAT
has() {
	if grep -q -- "$2" "$1"; then pass "$3"; else fail "$3"; head -5 "$1"; fi
}

# A dump cut at a record boundary: its header (SMF type 2) is there, its
# trailer (type 3) is not.
gen --framing=rdw --size=200K --sources=SYSA,SYSB --interval=300 --seed=4 \
	-o "$tmp/t.bin"
head -c 65793 "$tmp/t.bin" > "$tmp/cut.bin"
gen --framing=rdw --size=200K --sources=SYSA,SYSB --interval=300 --seed=5 \
	--start=2025-03-10 -o "$tmp/u.bin"
expect_rc 0 rpt -o /dev/null "$tmp/t.bin"
expect_rc 4 rpt -o /dev/null "$tmp/cut.bin"
has "$tmp/last.err" "cut.bin: offset 65793 (0x10101): warning: no dump trailer: the dump may be truncated: the dump from offset 0 " \
	"cut dump: no trailer, said at the cut"
accounted "$tmp/last.err" 65793 "cut dump"
head -c 65793 "$tmp/t.bin" | rpt -o /dev/null - 2> "$tmp/pipe.err"
has "$tmp/pipe.err" "(stdin): offset 65793 .*no dump trailer" "cut dump through a pipe"
# several files are one stream, but each dump has its own header and
# trailer: the cut one is named, wherever it is
expect_rc 0 rpt -o /dev/null "$tmp/t.bin" "$tmp/u.bin"
expect_rc 4 rpt -o /dev/null "$tmp/cut.bin" "$tmp/u.bin"
has "$tmp/last.err" "cut.bin: offset 65793 .*no dump trailer" "cut dump first of two: named"
[ "$(grep -c 'no dump trailer' "$tmp/last.err")" -eq 1 ] &&
	pass "cut dump first of two: the whole one is clean" ||
	fail "cut dump first of two: the whole one is clean"
expect_rc 4 rpt -o /dev/null "$tmp/u.bin" "$tmp/cut.bin"
has "$tmp/last.err" "cut.bin: offset 65793 .*no dump trailer" "cut dump second of two: named"
# two dumps in one file, the first cut: said where the second begins
cat "$tmp/cut.bin" "$tmp/u.bin" > "$tmp/two.bin"
expect_rc 4 rpt -o /dev/null "$tmp/two.bin"
has "$tmp/last.err" "two.bin: offset 65793 .*no dump trailer" "two dumps in a file, the first cut"
# no dump records at all: nothing to miss
gen --framing=rdw --sources=SYSA --intervals=4 --no-dump-records -o "$tmp/nodump.bin"
expect_rc 0 rpt -o /dev/null "$tmp/nodump.bin"

# A BDW dump shorter than one block, cut inside it: BDW blocks of SMF
# records, sources and all, never a PM stream
gen --seed=3 --framing=bdw --sources=SYSA,SYSB --intervals=10 -o "$tmp/q.bin"
head -c 3000 "$tmp/q.bin" > "$tmp/short.bin"
expect_rc 4 rpt --report=inventory -o "$tmp/short.csv" "$tmp/short.bin"
grep -q '^smf,230,' "$tmp/short.csv" && pass "short BDW dump: SMF records" ||
	fail "short BDW dump: SMF records"
rpt --report=cpu "$tmp/short.bin" 2> /dev/null | awk -F, 'NR > 1 { print $1 }' > "$tmp/short.src"
[ "$(cat "$tmp/short.src")" = SYSA ] && pass "short BDW dump: its source kept" ||
	fail "short BDW dump: sources '$(cat "$tmp/short.src")'"

# A BDW dump and an RDW dump in one stream, either way round: the second
# framing is detected where the first stops walking, and nothing is lost.
gen --framing=bdw --sources=SYSA,SYSB --intervals=100 --seed=1 -o "$tmp/b.bin" \
	--truth="$tmp/b.truth"
gen --framing=rdw --sources=SYSA,SYSB --intervals=100 --seed=2 --start=2025-03-10 \
	-o "$tmp/r.bin" --truth="$tmp/r.truth"
want=$(($(grep -c . "$tmp/b.truth") + $(grep -c . "$tmp/r.truth") - 2))
for order in "b r" "r b"; do
	# shellcheck disable=SC2086 # two names
	set -- $order
	cat "$tmp/$1.bin" "$tmp/$2.bin" > "$tmp/$1$2.bin"
	size=$(wc -c < "$tmp/$1$2.bin")
	first=$(wc -c < "$tmp/$1.bin")
	new=$( [ "$2" = b ] && echo bdw || echo rdw)
	expect_rc 4 rpt -o "$tmp/$1$2.csv" "$tmp/$1$2.bin"
	has "$tmp/last.err" "$1$2.bin: offset $first (.*): warning: the input's framing changes part-way: .* framing up to here, $new from here on" \
		"$1 then $2: the change named with its offset"
	[ "$(summary "$tmp/last.err" | cut -d' ' -f3)" = 0 ] &&
		pass "$1 then $2: nothing damaged" || fail "$1 then $2: $(summary "$tmp/last.err")"
	accounted "$tmp/last.err" "$size" "$1 then $2"
	got=$(awk -F, 'NR > 1 && $5 == "123"' "$tmp/$1$2.csv" | wc -l)
	[ "$got" -eq "$want" ] && pass "$1 then $2: $got complete intervals" ||
		fail "$1 then $2: $got complete intervals, wanted $want"
done
# through a pipe, as two files read as one stream arrive
cat "$tmp/b.bin" "$tmp/r.bin" | rpt -o /dev/null - 2> "$tmp/pipe.err"
has "$tmp/pipe.err" "framing changes part-way: bdw framing up to here, rdw from here on" \
	"b then r through a pipe"
# a framing asked for is kept: the rest is damage
expect_rc 4 rpt --framing=bdw -o /dev/null "$tmp/br.bin"
has "$tmp/last.err" "bytes skipped while looking for the next valid record" \
	"b then r with --framing=bdw: damage"

# Bytes that never walk as records: exit 8 whether the framing is
# detected or forced, and every byte damaged.
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "%c", 128 + i % 97 }' > "$tmp/junk.bin"
for framing in auto pm rdw bdw; do
	expect_rc 8 rpt --framing=$framing -o /dev/null "$tmp/junk.bin"
	has "$tmp/last.err" "junk.bin: offset 0 (0x0): error: cannot recognise the input's framing" \
		"nothing readable, --framing=$framing: said"
	[ "$(summary "$tmp/last.err")" = "0 0 3000" ] &&
		pass "nothing readable, --framing=$framing: all damaged" ||
		fail "nothing readable, --framing=$framing: $(summary "$tmp/last.err")"
done
# one readable record is enough to go on: warnings only
{ head -c 100 "$tmp/junk.bin"; cat "$tmp/nodump.bin"; } > "$tmp/junk-then-dump.bin"
expect_rc 4 rpt --framing=rdw -o /dev/null "$tmp/junk-then-dump.bin"
finish
