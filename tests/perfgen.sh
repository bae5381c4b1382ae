#!/bin/sh
# perfgen.sh: pmimgen --framing=perf writes PERF_DATA_BLOCKs as Windows
# does, the same bytes for a seed on every host, and a truth that holds a
# row for every counter and window, the wrap taken modulo 2^32 and the
# reboot's window empty. A small walker of our own (python3, below) checks
# the blocks by their lengths and offsets, knowing nothing of pmimrpt or
# of pmimgen's code; a few truth values are worked by hand from the bytes.
. "${top_srcdir:-.}/tests/lib.sh"

run="--framing=perf --sources=WINA,WINB --intervals=4 --interval=60 --seed=7"
gen $run -o "$tmp/a.perf" --truth="$tmp/a.truth" --perf-names="$tmp/a.names" ||
	fail "pmimgen $run"
gen $run -o "$tmp/b.perf" --truth="$tmp/b.truth" --perf-names="$tmp/b.names"
same "$tmp/a.perf" "$tmp/b.perf" "same seed, same blocks"
same "$tmp/a.truth" "$tmp/b.truth" "same seed, same truth"
same "$tmp/a.names" "$tmp/b.names" "same seed, same title table"
gen --framing=perf --sources=WINA,WINB --intervals=4 --interval=60 --seed=8 -o "$tmp/c.perf"
if cmp -s "$tmp/a.perf" "$tmp/c.perf"; then fail "another seed, other blocks"; else pass "another seed, other blocks"; fi
# The bytes are built by put_le, byte by byte: the s390x build (run with
# EXEC_WRAPPER) must write these very bytes.
set -- $(cksum < "$tmp/a.perf")
if [ "$1 $2" = "4080970063 36992" ]; then pass "seed 7: the golden bytes (cksum $1, $2 bytes)"; else fail "seed 7: cksum $1, $2 bytes"; fi

expect_rc 12 gen --framing=perf --shuffle -o "$tmp/x"
expect_rc 12 gen --framing=perf --startup-delay=5 -o "$tmp/x"
expect_rc 12 gen --framing=perf --sources=WINA/CV01 -o "$tmp/x"
expect_rc 12 gen --framing=rdw --perf-names="$tmp/x.names" -o "$tmp/x"

if ! command -v python3 > /dev/null 2>&1; then
	echo "python3 not found: the block walker's checks are skipped"
	finish
	exit $?
fi

# The walker: every length and offset the blocks give, each checked to end
# where the next thing starts; then facts, one a line, for the shell.
cat > "$tmp/walk.py" << 'EOF'
import struct, sys
data = open(sys.argv[1], 'rb').read()
def u(fmt, off): return struct.unpack_from('<' + fmt, data, off)[0]
def fact(*a): print(*a)
pos, blocks = 0, []
while pos < len(data):
    assert data[pos:pos + 8] == 'PERF'.encode('utf-16-le'), pos
    assert (u('I', pos + 8), u('I', pos + 12), u('I', pos + 16)) == (1, 1, 1)
    total, hlen, nobj = u('I', pos + 20), u('I', pos + 24), u('I', pos + 28)
    nlen, noff = u('I', pos + 80), u('I', pos + 84)
    name = data[pos + noff:pos + noff + nlen].decode('utf-16-le')
    assert name.endswith('\0') and noff + nlen <= hlen
    b = dict(name=name[:-1], hlen=hlen, noff=noff, st=struct.unpack_from('<8H', data, pos + 36),
             pt=u('Q', pos + 56), pf=u('Q', pos + 64), t100=u('Q', pos + 72), obj={})
    obj = pos + hlen
    for _ in range(nobj):
        otot, odef, ohdr = u('I', obj), u('I', obj + 4), u('I', obj + 8)
        title, nctr, ninst, cp = u('I', obj + 12), u('I', obj + 32), u('i', obj + 40), u('I', obj + 44)
        o = dict(ninst=ninst, cp=cp, time=u('Q', obj + 48), freq=u('Q', obj + 56), ctr=[], inst=[])
        d = obj + ohdr
        for _ in range(nctr):
            o['ctr'].append((u('I', d + 4), u('I', d + 28), u('I', d + 32), u('I', d + 36)))
            d += u('I', d)
        assert d <= obj + odef
        def values(blk):
            n = u('I', blk)
            for (_, _, size, off) in o['ctr']:
                assert off + size <= n
            return [int.from_bytes(data[blk + off:blk + off + size], 'little') for (_, _, size, off) in o['ctr']], blk + n
        if ninst == -1:
            v, end = values(obj + odef)
            o['inst'].append(('', v))
        else:
            end = obj + odef
            for _ in range(ninst):
                bl, ptitle, pinst, nof, nl = (u('I', end), u('I', end + 4), u('I', end + 8),
                                              u('I', end + 16), u('I', end + 20))
                assert nof + nl <= bl
                nm = data[end + nof:end + nof + nl].decode('cp1252' if cp else 'utf-16-le')
                assert nm.endswith('\0')
                nm = nm[:-1]
                if ptitle:
                    nm = b['obj'][ptitle]['inst'][pinst][0] + '/' + nm
                v, end = values(end + bl)
                o['inst'].append((nm, v))
        assert end == obj + otot, (title, end - obj, otot)
        b['obj'][title] = o
        obj += otot
    assert obj == pos + total
    blocks.append(b)
    pos += total
fact('bytes', pos, len(data))
fact('blocks', len(blocks))
for s in sorted(set(b['name'] for b in blocks)):
    fact('system', s, sum(1 for b in blocks if b['name'] == s))
fact('header', *sorted(set((b['hlen'], b['noff']) for b in blocks)))
for t, o in blocks[0]['obj'].items():
    fact('object', t, 'instances', o['ninst'], 'codepage', o['cp'],
         'names', '|'.join(n for n, _ in o['inst']))
fact('types', *sorted(set('%#010x' % c[1] for o in blocks[0]['obj'].values() for c in o['ctr'])))
fact('titles', *sorted(set([t for t in blocks[0]['obj']] +
                           [c[0] for o in blocks[0]['obj'].values() for c in o['ctr']])))
# The figures the hand-worked values below take: WINA's first two blocks.
def ctr(b, title, inst, counter):
    o = b['obj'][title]
    names = [n for n, _ in o['inst']]
    i = [c[0] for c in o['ctr']].index(counter)
    return o['inst'][names.index(inst)][1][i:i + 2]
a = [b for b in blocks if b['name'] == 'WINA']
for k in (0, 1):
    fact('WINA', k, 'time', '%04d-%02d-%02d' % (a[k]['st'][0], a[k]['st'][1], a[k]['st'][3]), '%02d:%02d:%02d.%03d' % a[k]['st'][4:8],
         'PerfTime', a[k]['pt'], 'PerfFreq', a[k]['pf'], 'PerfTime100nSec', a[k]['t100'],
         'System', a[k]['obj'][2]['time'], a[k]['obj'][2]['freq'])
    fact('WINA', k, '2//146', *ctr(a[k], 2, '', 146)[:1])
    fact('WINA', k, '2//674', *ctr(a[k], 2, '', 674)[:1])
    fact('WINA', k, '2//1350', *ctr(a[k], 2, '', 1350))
    fact('WINA', k, '238/_Total/6', *ctr(a[k], 238, '_Total', 6)[:1])
    fact('WINA', k, '234/0 C:/10072', *ctr(a[k], 234, '0 C:', 10072))
    fact('WINA', k, '234/0 C:/10048', *ctr(a[k], 234, '0 C:', 10048))
# The reboot: WINB's PerfTime and 64-bit counts go back at one block.
bb = [b for b in blocks if b['name'] == 'WINB']
back = [k for k in range(1, len(bb)) if bb[k]['pt'] < bb[k - 1]['pt']]
fact('WINB PerfTime back at', *back)
fact('WINB 100ns timer back at', *[k for k in range(1, len(bb))
     if ctr(bb[k], 238, '0', 142)[0] < ctr(bb[k - 1], 238, '0', 142)[0]])
EOF
if python3 "$tmp/walk.py" "$tmp/a.perf" > "$tmp/facts" 2> "$tmp/walk.err"; then
	pass "the walker follows every length and offset to the end of the file"
else
	fail "the walker: $(tail -1 "$tmp/walk.err")"
fi
fact() {
	if grep -qxF "$1" "$tmp/facts"; then pass "blocks: $1"; else fail "blocks: no '$1'"; grep "^${1%% *}" "$tmp/facts"; fi
}
fact "bytes 36992 36992"
fact "blocks 8"
fact "system WINA 4"
fact "system WINB 4"
# HeaderLength 104: the 88-byte header, then the name, as real Windows has it
fact "header (104, 88)"
fact "object 238 instances 5 codepage 0 names 0|1|2|3|_Total"
fact "object 2 instances -1 codepage 0 names "
fact "object 230 instances 3 codepage 0 names Idle|svchost|svchost"
fact "object 232 instances 4 codepage 0 names Idle/0|svchost/0|svchost/1|svchost/0"
fact "object 234 instances 3 codepage 1252 names 0 C:|1 D:|_Total"
fact "object 10000 instances -1 codepage 0 names "
fact "object 1450 instances 0 codepage 0 names "
fact "WINB PerfTime back at 3"
fact "WINB 100ns timer back at 3"

# Every type the engine knows (but its own MAX extension) is in the blocks,
# and one more it does not know.
engine_types=$(sed -n 's/^CT([A-Z_0-9]*, *0x\([0-9A-F]*\)u.*/\1/p' "$top_srcdir/src/engine/counter_types.h" |
	grep -v '^0000F000$' | tr 'A-F' 'a-f' | sort -u)
block_types=$(sed -n 's/^types //p' "$tmp/facts" | tr ' ' '\n' | sed 's/^0x//')
missing=$(for t in $engine_types; do echo "$block_types" | grep -qx "$t" || echo "$t"; done)
if [ -z "$missing" ]; then pass "blocks: every engine type ($(echo $engine_types | wc -w) values)"; else fail "blocks: types missing: $missing"; fi
extra=$(for t in $block_types; do echo "$engine_types" | grep -qx "$t" || echo "$t"; done)
if [ "$extra" = 20c20500 ]; then pass "blocks: one unknown type, 0x20c20500"; else fail "blocks: unknown types: $extra"; fi

# The title table names every object and counter, index and name lines.
missing=
for t in $(sed -n 's/^titles //p' "$tmp/facts"); do
	awk -v t="$t" 'NR % 2 == 1 && $0 == t { found = 1 } END { exit !found }' "$tmp/a.names" || missing="$missing $t"
done
if [ -z "$missing" ]; then pass "names: every title index has a name"; else fail "names: none for$missing"; fi

# ---- the truth: rows per type for 2 systems of 4 snapshots. Two-sample
# types have 3 windows a system, one-sample types 4 snapshots; times in
# the columns are as period_start == period_end for one-sample rows.
awk -F, 'NR > 1 { n[$7]++ } END { for (t in n) print t, n[t] }' "$tmp/a.truth" | sort > "$tmp/counts"
sort > "$tmp/counts.want" << 'EOF'
PERF_100NSEC_MULTI_TIMER 18
PERF_100NSEC_MULTI_TIMER_INV 18
PERF_100NSEC_TIMER 72
PERF_100NSEC_TIMER_INV 30
PERF_AVERAGE_BULK 18
PERF_AVERAGE_TIMER 18
PERF_COUNTER_100NS_QUEUELEN_TYPE 18
PERF_COUNTER_BULK_COUNT 24
PERF_COUNTER_COUNTER 60
PERF_COUNTER_DELTA 6
PERF_COUNTER_LARGE_DELTA 6
PERF_COUNTER_LARGE_QUEUELEN_TYPE 18
PERF_COUNTER_LARGE_RAWCOUNT 32
PERF_COUNTER_LARGE_RAWCOUNT_HEX 8
PERF_COUNTER_MULTI_TIMER 18
PERF_COUNTER_MULTI_TIMER_INV 18
PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE 6
PERF_COUNTER_QUEUELEN_TYPE 6
PERF_COUNTER_RAWCOUNT 48
PERF_COUNTER_RAWCOUNT_HEX 8
PERF_COUNTER_TIMER 30
PERF_COUNTER_TIMER_INV 30
PERF_ELAPSED_TIME 40
PERF_LARGE_RAW_FRACTION 24
PERF_OBJ_TIME_TIMER 6
PERF_PRECISION_100NS_TIMER 30
PERF_PRECISION_OBJECT_TIMER 6
PERF_PRECISION_SYSTEM_TIMER 30
PERF_RAW_FRACTION 8
PERF_SAMPLE_COUNTER 6
PERF_SAMPLE_FRACTION 18
EOF
same "$tmp/counts.want" "$tmp/counts" "truth: rows per counter type"
# Bases, TEXT, NODATA, HISTOGRAM and the unknown type have no rows.
if grep -qE 'BASE|TEXT|NODATA|HISTOGRAM|TIMESTAMP|,10038,' "$tmp/a.truth"; then fail "truth: rows of types without a value"; else pass "truth: no rows of types without a value"; fi
# Instances as perfmon names them: parent/instance, #1 for a duplicate.
for i in 'svchost#1' 'Idle/0' 'svchost/0#1' '0 C:'; do
	if grep -q ",$i," "$tmp/a.truth"; then pass "truth: instance $i"; else fail "truth: no instance $i"; fi
done

# The reboot: WINB's window into its snapshot 3 has no two-sample value,
# and that window's rows are the only empty ones (a 1/60 of the 2-sample
# rows: 2 systems x 3 windows, here as row counts).
reboot_end=$(awk -F, '$1 == "WINB" && $2 != $3 { print $3 }' "$tmp/a.truth" | sort -u | tail -1)
two=$(awk -F, 'NR > 1 && $2 != $3' "$tmp/a.truth" | wc -l)
in_reboot=$(awk -F, -v e="$reboot_end" '$1 == "WINB" && $2 != $3 && $3 == e' "$tmp/a.truth" | wc -l)
empty=$(awk -F, 'NR > 1 && $9 == ""' "$tmp/a.truth" | wc -l)
empty_reboot=$(awk -F, -v e="$reboot_end" '$1 == "WINB" && $2 != $3 && $3 == e && $9 == "" && $8 == 0' "$tmp/a.truth" | wc -l)
if [ "$in_reboot" -eq $((two / 6)) ] && [ "$empty" -eq "$in_reboot" ] && [ "$empty_reboot" -eq "$in_reboot" ]; then
	pass "truth: the reboot window's $in_reboot two-sample rows are empty, and only they"
else
	fail "truth: reboot window $in_reboot rows of $two two-sample, $empty empty, $empty_reboot empty in it"
fi

# ---- values worked by hand from the bytes (the walker's facts above).
# WINA snapshot 0 at 06:00:00.187, 1 at 06:01:00.882; PerfFreq 2929687;
# PerfTime 1019251797004 -> 1019429612307, dD = 177815303 ticks;
# PerfTime100nSec 133854552001874356 -> 133854552608828524, 606954168.
fact "WINA 0 time 2025-03-03 06:00:00.187 PerfTime 1019251797004 PerfFreq 2929687 PerfTime100nSec 133854552001874356 System 133854552001874356 10000000"
fact "WINA 1 time 2025-03-03 06:01:00.882 PerfTime 1019429612307 PerfFreq 2929687 PerfTime100nSec 133854552608828524 System 133854552608828524 10000000"
row() { # SOURCE,START,END,OBJECT,INSTANCE,COUNTER,TYPE,SAMPLES,VALUE
	if grep -qxF "$1" "$tmp/a.truth"; then pass "truth: $1"; else fail "truth: no row $1"; grep -F "$(echo "$1" | cut -d, -f1-6)," "$tmp/a.truth" | head -3; fi
}
# The wrap: System\Context Switches/sec (COUNTER_COUNTER, 4 bytes) goes
# 4294467296 -> 1052819; modulo 2^32 dN = 1052819 + 2^32 - 4294467296 =
# 1552819; dN / (dD / F) = 1552819 * 2929687 / 177815303 = 25584.2639013...
fact "WINA 0 2//146 4294467296"
fact "WINA 1 2//146 1052819"
row "WINA,2025-03-03 06:00:00.187,2025-03-03 06:01:00.882,2,,146,PERF_COUNTER_COUNTER,1,25584.263901"
# Processor(_Total)\% Processor Time (100NSEC_TIMER_INV): N 90359381 ->
# 506450133, dN = 416090752; 100 * (1 - dN / 606954168) =
# 100 * 190863416 / 606954168 = 31.4461000... (31.44610003)
fact "WINA 0 238/_Total/6 90359381"
fact "WINA 1 238/_Total/6 506450133"
row "WINA,2025-03-03 06:00:00.187,2025-03-03 06:01:00.882,238,_Total,6,PERF_100NSEC_TIMER_INV,1,31.446100"
# PhysicalDisk(0 C:)\% Tick Multi Idle (COUNTER_MULTI_TIMER_INV, then its
# MULTI_BASE B): N 83878381 -> 380186078, dN = 296307697, B1 = 4;
# 100 * (B1 - dN / dD) = 100 * (711261212 - 296307697) / 177815303 =
# 41495351500 / 177815303 = 233.3620942...
fact "WINA 0 234/0 C:/10072 83878381 4"
fact "WINA 1 234/0 C:/10072 380186078 4"
row "WINA,2025-03-03 06:00:00.187,2025-03-03 06:01:00.882,234,0 C:,10072,PERF_COUNTER_MULTI_TIMER_INV,1,233.362094"
# PhysicalDisk(0 C:)\Avg. Disk sec/Transfer (AVERAGE_TIMER, then its
# AVERAGE_BASE): N 50600180 -> 51913805, dN = 1313625; B 66988654 ->
# 66988747, dB = 93; (dN / F) / dB = 1313625 / 272460891 = 0.00482133...
fact "WINA 0 234/0 C:/10048 50600180 66988654"
fact "WINA 1 234/0 C:/10048 51913805 66988747"
row "WINA,2025-03-03 06:00:00.187,2025-03-03 06:01:00.882,234,0 C:,10048,PERF_AVERAGE_TIMER,1,0.004821"
# One-sample, snapshot 0. System\System Up Time (ELAPSED_TIME, the System
# object's PerfTime 133854552001874356 and PerfFreq 10^7): N (boot) =
# 133851072965150000; (D - N) / F = 3479036724356 / 10^7 = 347903.6724356,
# rounded half up at the 6th place: 347903.672436.
fact "WINA 0 2//674 133851072965150000"
row "WINA,2025-03-03 06:00:00.187,2025-03-03 06:00:00.187,2,,674,PERF_ELAPSED_TIME,1,347903.672436"
# System\% Registry Quota In Use (RAW_FRACTION, then RAW_BASE): 100 *
# 208376 / 738564 = 28.21366868...
fact "WINA 0 2//1350 208376 738564"
row "WINA,2025-03-03 06:00:00.187,2025-03-03 06:00:00.187,2,,1350,PERF_RAW_FRACTION,1,28.213669"
finish
