#!/bin/sh
# slurm.sh: contrib/slurm on a real, one-node Slurm cluster that the test
# starts itself under its scratch folder (munged with its own key and
# socket, slurmctld and slurmd as root, as ../shared/docs/SLURM.md found
# works) and stops from its exit trap. Job arrays of pmimrpt-array.sh over
# the bundled samples and generated dumps (two lists of nine and ten files,
# four reports, three --by values), each followed by pmimrpt-merge.sh with
# --dependency=afterok: the merged report, CSV and text, its summary line
# and exit code are byte for byte the single run's. Then an array with one
# entry that does not exist: that task fails with exit 8, the merge job ends
# CANCELLED (DependencyNeverSatisfied) and writes nothing; the failed index
# rerun alone, and the merge after it, give the single run's report.
# Skipped (77) unless root with slurmctld, slurmd, munged and the Slurm
# clients installed, and under an emulator (EXEC_WRAPPER).
. "${top_srcdir:-.}/tests/lib.sh"

if [ -n "${EXEC_WRAPPER:-}" ]; then
	echo "SKIP: under $EXEC_WRAPPER the cluster's tasks would run an emulated pmimrpt; the s390x run checks partials across hosts itself (.ci/run)"
	exit 77
fi
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: the Slurm test runs its daemons as root; not root"
	exit 77
fi
for p in munged slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
	if ! command -v $p > /dev/null 2>&1; then
		echo "SKIP: $p not found (apt-get install --no-install-recommends slurmctld slurmd slurm-client munge)"
		exit 77
	fi
done

contrib=$top_srcdir/contrib/slurm
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
t_all=$(now)

# --- the cluster ------------------------------------------------------------
s=$tmp/slurm
mkdir -p "$s/key" "$s/sock" "$s/state" "$s/spool" "$s/out"
chmod 0700 "$s/key"
# munged wants every folder above its socket open to all (execute)
chmod 0755 "$tmp" "$s" "$s/sock"

stop_cluster() {
	t=$(now)
	if [ -f "$s/slurmctld.pid" ] && kill -0 "$(cat "$s/slurmctld.pid")" 2> /dev/null; then
		timeout 5 scancel --user=root > /dev/null 2>&1
	fi
	for d in slurmd slurmctld munged; do
		[ -f "$s/$d.pid" ] || continue
		pid=$(cat "$s/$d.pid")
		kill -TERM "$pid" 2> /dev/null || continue
		n=0
		while kill -0 "$pid" 2> /dev/null && [ $n -lt 100 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		kill -0 "$pid" 2> /dev/null && kill -KILL "$pid" 2> /dev/null
	done
	echo "timing: cluster stopped in $(since "$t") s; whole test $(since "$t_all") s"
}
on_exit() {
	stop_cluster
	if [ $failures -eq 0 ]; then
		rm -rf "$tmp"
	else
		for f in "$s"/*.log; do
			[ -f "$f" ] && { echo "--- $f"; tail -15 "$f"; }
		done
		echo "scratch files kept in $tmp"
	fi
}
trap on_exit EXIT
trap 'exit 1' INT TERM HUP

t=$(now)
dd if=/dev/urandom of="$s/key/munge.key" bs=1024 count=1 2> /dev/null
chmod 0400 "$s/key/munge.key"
munged --key-file="$s/key/munge.key" --socket="$s/sock/munge.socket" \
	--pid-file="$s/munged.pid" --log-file="$s/munged.log" --seed-file="$s/munged.seed" ||
	{ fail "munged does not start"; exit 1; }

# Ports of our own, so that another cluster on this machine is no matter.
port=$((20000 + ($$ % 2000) * 2))
host=$(hostname -s)
export SLURM_CONF="$s/slurm.conf"
cat > "$SLURM_CONF" <<EOF
ClusterName=pmimrpt
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$s/sock/munge.socket
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/slurmctld.log
SlurmdLogFile=$s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
$(slurmd -C | head -1) NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF" || { fail "slurmctld does not start"; exit 1; }
slurmd -f "$SLURM_CONF" -N "$host" || { fail "slurmd does not start"; exit 1; }
n=0
until [ "$(sinfo -h -o %T 2> /dev/null)" = idle ]; do
	n=$((n + 1))
	if [ $n -gt 300 ]; then
		fail "the node is not idle after 30 s: $(sinfo -h -o %T 2>&1)"
		exit 1
	fi
	sleep 0.1
done
pass "a one-node cluster is up and idle ($(sinfo -h -o '%N %c CPUs'))"
echo "timing: cluster up in $(since "$t") s"

# --- the data ---------------------------------------------------------------
# List a: both SMF samples (--cv-field=22,8: the BDW sample's CV names; the
# RDW sample has none) and eight dumps of other systems with CV names, one
# day each. List b: the sample with faults (exit 4) and eight dumps with
# parts left out. No two files of a list share a system's time.
t=$(now)
mkdir -p "$tmp/a" "$tmp/b"
cp "$top_srcdir/data/sample-smf-rdw.dat" "$tmp/a/smf-rdw.dat"
cp "$top_srcdir/data/sample-smf-bdw.dat" "$tmp/a/smf-bdw.dat"
cp "$top_srcdir/data/sample-faults.dat" "$tmp/b/faults.dat"
for i in 1 2 3 4 5 6 7 8; do
	gen --framing=rdw --sources=A${i}X/CVA$i,A${i}Y/CVB$i --intervals=24 --seed=$i \
		--start="2025-04-0$i 00:00" -o "$tmp/a/gen$i.dat" || fail "pmimgen a$i"
	gen --framing=bdw --sources=B${i}X,B${i}Y --intervals=16 --seed=$((i + 10)) \
		--start="2025-05-0$i 06:00" --drop-parts=0.05 -o "$tmp/b/gen$i.dat" || fail "pmimgen b$i"
done
ls "$tmp"/a/*.dat > "$tmp/a.list"
ls "$tmp"/b/*.dat > "$tmp/b.list"
echo "timing: data written in $(since "$t") s"

export PMIMRPT
# A program the jobs run: pmimrpt through the tests' wrapper, if any
if [ -n "$WRAP" ]; then
	printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$WRAP" "$PMIMRPT" > "$tmp/pmimrpt-wrap"
	chmod +x "$tmp/pmimrpt-wrap"
	PMIMRPT=$tmp/pmimrpt-wrap
fi
run_time="--run-time=2026-01-01 00:00"

# wait_jobs ID...: poll squeue every 0.1 s until none of the jobs is left
# (at most 60 s)
wait_jobs() {
	n=0
	while [ -n "$(squeue -h -j "$(echo "$@" | tr ' ' ,)" -o %i 2> /dev/null)" ]; do
		n=$((n + 1))
		[ $n -le 600 ] || { fail "jobs $* still there after 60 s"; squeue; return 1; }
		sleep 0.1
	done
}
# job_state ID: the JobState (and Reason) of job ID, each task of an array
job_state() {
	scontrol show job "$1" | tr ' ' '\n' | grep -E '^(JobState|Reason|ExitCode)=' | tr '\n' ' '
}

# submit NAME LIST SLICE REPORT-OPTIONS: an array over LIST in slices of
# SLICE into $tmp/NAME.parts, then its merge into $tmp/NAME.csv and
# $tmp/NAME.txt; the job ids are in $array_id and $merge_id
submit() {
	name=$1 list=$2 slice=$3 opts=$4
	count=$(wc -l < "$list")
	# shellcheck disable=SC2086
	array_id=$(sbatch --parsable --chdir="$tmp" --array=0-$(( (count + slice - 1) / slice - 1 )) \
		--output="$s/out/$name-%a.out" "$contrib/pmimrpt-array.sh" \
		"$list" "$slice" "$tmp/$name.parts" $opts) || { fail "$name: sbatch of the array"; return 1; }
	# shellcheck disable=SC2086
	merge_id=$(sbatch --parsable --chdir="$tmp" --dependency=afterok:"$array_id" \
		--kill-on-invalid-dep=yes --output="$s/out/$name-merge.out" "$contrib/pmimrpt-merge.sh" \
		"$list" "$slice" "$tmp/$name.parts" "$tmp/$name.csv,$tmp/$name.txt" $opts "$run_time") ||
		{ fail "$name: sbatch of the merge"; return 1; }
	eval "ids_$name='$array_id $merge_id'"
}

# compare NAME LIST OPTIONS: the merge job completed, and its reports,
# summary line and exit code are the single run's
compare() {
	name=$1 list=$2 opts=$3
	# shellcheck disable=SC2046,SC2086
	set -- $(eval echo "\$ids_$name")
	state=$(job_state "$2")
	case $state in
	*JobState=COMPLETED*) pass "$name: the array and the merge job completed" ;;
	*) fail "$name: merge job $2: $state"; cat "$s/out/$name-merge.out"; return ;;
	esac
	for format in csv text; do
		ext=$format
		[ $format = text ] && ext=txt
		rc=0
		# shellcheck disable=SC2046,SC2086
		rpt $opts "$run_time" --format=$format $(sort "$list") \
			> "$tmp/$name.single.$ext" 2> "$tmp/$name.single.err" || rc=$?
		{ tail -1 "$tmp/$name.single.err"; echo "exit $rc"; } > "$tmp/$name.single.sum"
		awk -v out="pmimrpt-merge.sh: $tmp/$name.$ext: pmimrpt exit " '
			index($0, out) == 1 { print prev; print "exit " substr($0, length(out) + 1) }
			{ prev = $0 }' "$s/out/$name-merge.out" > "$tmp/$name.merged.sum"
		same "$tmp/$name.single.$ext" "$tmp/$name.$ext" \
			"$name: $opts --format=$format: the merged report is the single run's"
		same "$tmp/$name.single.sum" "$tmp/$name.merged.sum" \
			"$name: $opts --format=$format: the summary line and exit code ($(tail -1 "$tmp/$name.single.sum")) are the single run's"
	done
}

t=$(now)
submit waits "$tmp/a.list" 1 "--cv-field=22,8 --report=waits --by=hour"
submit cpu "$tmp/a.list" 3 "--cv-field=22,8 --report=cpu --by=day"
submit summary "$tmp/b.list" 1 "--report=summary --by=total"
submit tasks "$tmp/b.list" 2 "--report=tasks --by=hour"
# shellcheck disable=SC2154
wait_jobs $ids_waits $ids_cpu $ids_summary $ids_tasks
echo "timing: 4 arrays (10 + 4 + 9 + 5 tasks) and 4 merge jobs in $(since "$t") s"
compare waits "$tmp/a.list" "--cv-field=22,8 --report=waits --by=hour"
compare cpu "$tmp/a.list" "--cv-field=22,8 --report=cpu --by=day"
compare summary "$tmp/b.list" "--report=summary --by=total"
compare tasks "$tmp/b.list" "--report=tasks --by=hour"

# --- a task that fails --------------------------------------------------------
# The fifth entry does not exist: task 4 exits 8, the merge never runs.
t=$(now)
mkdir -p "$tmp/c"
cp "$tmp"/b/*.dat "$tmp/c/"
ls "$tmp"/c/*.dat | sed "4a\\
$tmp/c/gen3b.dat" > "$tmp/c.list"
opts="--report=waits --by=day"
submit broken "$tmp/c.list" 1 "$opts"
# shellcheck disable=SC2154
wait_jobs $ids_broken
echo "timing: an array of 10 tasks with one failing, and its merge job, in $(since "$t") s"
# shellcheck disable=SC2086
set -- $ids_broken
task=$(scontrol show job "${1}_4" | tr ' ' '\n' | grep -E '^(JobState|ExitCode)=' | tr '\n' ' ')
case $task in
*JobState=FAILED*ExitCode=8:0*) pass "the task of the missing entry failed with exit 8: $task" ;;
*) fail "the task of the missing entry: $task" ;;
esac
has_line "$s/out/broken-4.out" "cannot open input: .*gen3b.dat" "its output file names the input"
others=$(scontrol show job "$1" | grep -c 'JobState=COMPLETED')
[ "$others" -eq 9 ] && pass "the 9 other tasks completed" || fail "$others of the 9 other tasks completed"
state=$(job_state "$2")
case $state in
*JobState=CANCELLED*Reason=DependencyNeverSatisfied*) pass "the merge job: $state" ;;
*) fail "the merge job: $state" ;;
esac
if [ -e "$tmp/broken.csv" ] || [ -e "$tmp/broken.txt" ] || [ -s "$s/out/broken-merge.out" ]; then
	fail "the cancelled merge wrote something"
else
	pass "the cancelled merge wrote nothing"
fi
[ ! -e "$tmp/broken.parts/part-4.part" ] && [ -e "$tmp/broken.parts/part-5.part" ] &&
	pass "the failed task left no part, the others theirs" || fail "the parts left: $(ls "$tmp/broken.parts")"

# The input made, only index 4 is rerun, then the merge after it.
t=$(now)
gen --framing=rdw --sources=C4X --intervals=8 --seed=44 --start="2025-06-03 00:00" \
	-o "$tmp/c/gen3b.dat" || fail "pmimgen c4b"
ids_broken=
rerun=$(sbatch --parsable --chdir="$tmp" --array=4 --output="$s/out/broken-%a.out" \
	"$contrib/pmimrpt-array.sh" "$tmp/c.list" 1 "$tmp/broken.parts" $opts)
merge=$(sbatch --parsable --chdir="$tmp" --dependency=afterok:"$rerun" --kill-on-invalid-dep=yes \
	--output="$s/out/broken-merge.out" "$contrib/pmimrpt-merge.sh" "$tmp/c.list" 1 \
	"$tmp/broken.parts" "$tmp/broken.csv,$tmp/broken.txt" $opts "$run_time")
ids_broken="$rerun $merge"
wait_jobs $ids_broken
echo "timing: the failed index rerun alone, and the merge, in $(since "$t") s"
compare broken "$tmp/c.list" "$opts"

finish
