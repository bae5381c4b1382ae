#!/bin/bash
# pmimrpt-array.sh: one task of a Slurm job array that writes pmimrpt
# partials. Task $SLURM_ARRAY_TASK_ID takes its slice of a file list (one
# path a line; blank lines and lines starting with # are not counted) and
# writes PARTDIR/part-<index>.part with pmimrpt --partial and the report
# options given. Then pmimrpt-merge.sh, run after the whole array
# (--dependency=afterok), merges the parts into the report.
#
#   n=$(grep -cv '^[[:space:]]*\(#\|$\)' files.txt)    # files in the list
#   tasks=$(( (n + 50 - 1) / 50 ))                    # 50 files a task
#   id=$(sbatch --parsable --array=0-$((tasks - 1)) pmimrpt-array.sh \
#        files.txt 50 parts --report=waits --by=hour)
#   sbatch --dependency=afterok:$id --kill-on-invalid-dep=yes \
#        pmimrpt-merge.sh files.txt 50 parts waits.csv --report=waits --by=hour
#
# Exit status: 0 when pmimrpt finished clean or with warnings (exit 0 or 4;
# the warnings are in the task's output file and the merge counts them
# again); pmimrpt's own status when it is more (8: an input could not be
# read, 12: bad options), and then no part is left behind; 2 for a bad call
# or an index past the end of the list. PMIMRPT names the program (default:
# pmimrpt on the PATH).
#
#SBATCH --job-name=pmimrpt-part
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=pmimrpt-part-%A_%a.out
set -u
prog=pmimrpt-array.sh
die() { echo "$prog: $*" >&2; exit 2; }

[ $# -ge 3 ] || die "usage: $prog LIST SLICE PARTDIR [PMIMRPT OPTION]..."
list=$1 slice=$2 partdir=$3
shift 3
index=${SLURM_ARRAY_TASK_ID:-}
[ -n "$index" ] || die "SLURM_ARRAY_TASK_ID is not set: submit with sbatch --array=0-N"
case $index in *[!0-9]*) die "not an array index: $index" ;; esac
case $slice in '' | *[!0-9]* | 0) die "not a slice size: $slice" ;; esac
[ -r "$list" ] || die "$list: cannot read the file list"
[ -d "$partdir" ] || mkdir -p "$partdir" || die "$partdir: cannot make the folder"
for opt; do
	case $opt in
	--partial | --merge | -o | -o* | --output | --output=*)
		die "$opt: the script gives --partial and the output itself" ;;
	esac
done

# The slice: entries index*slice+1 to (index+1)*slice of the list.
first=$((index * slice + 1))
last=$((first + slice - 1))
files=()
while IFS= read -r f; do
	files+=("$f")
done < <(grep -v '^[[:space:]]*\(#\|$\)' "$list" | sed -n "${first},${last}p")
[ ${#files[@]} -gt 0 ] || die "task $index: no entries $first to $last in $list"

part=$partdir/part-$index.part
echo "$prog: task $index: ${#files[@]} files (entries $first to $((first + ${#files[@]} - 1))) to $part" >&2
rc=0
"${PMIMRPT:-pmimrpt}" --partial "$@" -o "$part" -- "${files[@]}" || rc=$?
echo "$prog: task $index: pmimrpt exit $rc" >&2
if [ $rc -gt 4 ]; then
	rm -f "$part"
	exit $rc
fi
exit 0
