#!/bin/sh
# slurm_nodes.sh SRCDIR PCBENCH - scripts/slurm on two distinct nodes, against stand-in
# sbatch, srun and scontrol (this test's own scripts on PATH, which run each job at once
# and each srun task as a local process with SLURMD_NODENAME set as slurmd sets it; no
# daemon, no network). Checks the generated job lines (N nodes, one task per node, -S on
# the measuring job only, -M on the merge job only, the dependency), two node labels (n1,
# n2: names, no task ids) in the merged run with the merge job's per-node summary, a
# second task on one node refused, named in the summary, the merge job exiting 1, and
# submit's own exit statuses (its --help): 1 when sbatch refuses a job (a refused merge job
# names the queued measuring job), 2 on bad usage with nothing queued.
set -u
src=$1
pcbench=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
mkdir "$tmp/bin"
log=$tmp/jobs.log

# sbatch: log the line, run the script now in --chdir, its output in fake-JOB.out.
cat >"$tmp/bin/sbatch" <<'SB'
#!/bin/sh
echo "sbatch $*" >>"$FAKE_LOG"
case "$*" in *"${FAKE_REFUSE:-no such}"*) echo "sbatch: error: refused (stand-in)" >&2; exit 1 ;; esac
n=1 dir=. script=""
for a; do
	case $a in
	--nodes=*) n=${a#--nodes=} ;;
	--chdir=*) dir=${a#--chdir=} ;;
	*.sbatch) script=$a ;;
	esac
done
while [ "$1" != "$script" ]; do shift; done
shift
id=$(($(cat "$FAKE_LOG.id" 2>/dev/null || echo 100) + 1))
echo $id >"$FAKE_LOG.id"
(cd "$dir" && SLURM_JOB_ID=$id SLURM_JOB_NUM_NODES=$n SLURM_JOB_NODELIST=$FAKE_NODELIST \
	sh "$script" "$@" >"fake-$id.out" 2>&1; echo $? >"fake-$id.rc")
echo "$id;fake"
SB
# srun: log the line, run the command once per node of FAKE_TASK_NODES, concurrently.
cat >"$tmp/bin/srun" <<'SR'
#!/bin/sh
echo "srun $*" >>"$FAKE_LOG"
while [ $# -gt 0 ]; do case $1 in -*) shift ;; *) break ;; esac; done
i=0 pids=""
for node in $FAKE_TASK_NODES; do
	SLURMD_NODENAME=$node SLURM_PROCID=$i "$@" &
	pids="$pids $!"
	i=$((i + 1))
done
rc=0
for p in $pids; do wait $p || rc=$?; done
exit $rc
SR
chmod +x "$tmp/bin/sbatch" "$tmp/bin/srun"
export PATH="$tmp/bin:$PATH" FAKE_LOG="$log" PCBENCH="$pcbench"
# Three windows a node: under load a window whose thread never got its CPU is disturbed
# even with --noise-max off (starved); one such window of one left a node without an ok row.
opts="-s page_counter -p +A -w direct -t 1 -r 3 --time 0.01 --noise-max off"

# Two distinct nodes.
# shellcheck disable=SC2086
FAKE_NODELIST=n1,n2 FAKE_TASK_NODES="n1 n2" sh "$src/scripts/slurm/submit" -n 2 \
	-S "-p lab --nodelist=n1,n2" -M "-p short" -o "$tmp/r" -- $opts >"$tmp/submit.out" 2>&1 ||
	{ no "submit"; cat "$tmp/submit.out"; }
cat "$log"
m=$(grep 'pcbench.sbatch' "$log")
echo "$m" | grep -q -- '--nodes=2 --ntasks-per-node=1 .*-p lab --nodelist=n1,n2 .*pcbench.sbatch' ||
	no "measuring job line: $m"
echo "$m" | grep -q -- '-p short' && no "-M reached the measuring job"
g=$(grep 'merge.sbatch' "$log")
echo "$g" | grep -q -- '--dependency=afterany:101 .*-p short .*merge.sbatch' || no "merge job line: $g"
echo "$g" | grep -q -- 'nodelist' && no "-S reached the merge job"
grep -q '^srun --ntasks-per-node=1 --nodes=2 --ntasks=2' "$log" || no "srun: not one task per node"
[ "$(cat "$tmp/r/fake-102.rc")" = 0 ] || { no "merge job exit $(cat "$tmp/r/fake-102.rc")"; cat "$tmp/r/fake-102.out"; }
sed -n '1,/^$/p' "$tmp/r/fake-102.out"
for n in n1 n2; do
	grep -q "^  $n  *ok  *[1-3] " "$tmp/r/fake-102.out" || no "merge summary: no ok line for $n"
	grep -q ",$n," "$tmp/r/merged/results.csv" || no "merged: no label $n"
done
grep -q -- '-[0-9],' "$tmp/r/merged/results.csv" && grep -q 'n1-0\|n2-1' "$tmp/r/merged/results.csv" &&
	no "labels carry task ids"

# Two tasks on one node: the second is refused, the summary names it, the merge exits 1.
: >"$log"
# shellcheck disable=SC2086
FAKE_NODELIST=n1 FAKE_TASK_NODES="n1 n1" sh "$src/scripts/slurm/submit" -n 2 -o "$tmp/s" \
	-- $opts >"$tmp/submit.out" 2>&1 || { no "submit (one node)"; cat "$tmp/submit.out"; }
out=$tmp/s/fake-$(($(cat "$log.id")))
sed -n '1,/^$/p' "$out.out"
[ "$(cat "$out.rc")" = 1 ] || no "merge job with a refused task: exit $(cat "$out.rc"), want 1"
grep -q '^refused tasks:' "$out.out" && grep -q 'n1 task [01]: refused, a second task on this node' "$out.out" ||
	no "the refused task is not in the merge summary"
[ "$(ls -d "$tmp/s"/*/run 2>/dev/null | wc -l)" = 1 ] || no "two runs on one node"

# submit's exit statuses: sbatch refusing the measuring job, then the merge job; bad usage.
for refuse in pcbench.sbatch merge.sbatch; do
	: >"$log"
	# (the stand-in runs the measuring job at once: $opts, not pcbench's whole default suite)
	# shellcheck disable=SC2086
	FAKE_REFUSE=$refuse FAKE_NODELIST=n1 FAKE_TASK_NODES=n1 sh "$src/scripts/slurm/submit" -n 1 \
		-o "$tmp/x" -- $opts >"$tmp/submit.out" 2>&1
	rc=$?
	[ $rc = 1 ] || { no "sbatch refusing $refuse: submit exit $rc, want 1"; cat "$tmp/submit.out"; }
done
job=$(cat "$log.id")
grep -q "refused the merge job; job $job is queued" "$tmp/submit.out" ||
	{ no "a refused merge job does not name the queued job $job"; cat "$tmp/submit.out"; }
for args in "-n 0" "-n" "-n 1 -o"; do
	: >"$log"
	# shellcheck disable=SC2086
	sh "$src/scripts/slurm/submit" $args >"$tmp/submit.out" 2>&1
	rc=$?
	[ $rc = 2 ] || { no "submit $args: exit $rc, want 2"; cat "$tmp/submit.out"; }
	[ -s "$log" ] && no "submit $args: queued a job"
done
[ $fail = 0 ] && echo "ok: Slurm, one task per distinct node (stand-in sbatch/srun)"
exit $fail
