#!/bin/sh
# slurm.sh SRCDIR PCBENCH - the Slurm variant on one node: munged, slurmctld and slurmd
# started by hand (PID 1 is not systemd) with a scratch slurm.conf, inside a new network
# namespace (unshare -n: only lo, 127.0.0.1); scripts/slurm/submit queues pcbench.sbatch on
# the one node and the dependent merge.sbatch; waits (bounded) and checks the run is
# labelled with the node's name, its exit status was recorded, the merge job's per-node
# summary names it and compare printed it (two distinct nodes: slurm_nodes.sh). Without root,
# unshare, or when the daemons do not start: skipped (77) with the reason; a missing command fails. Also, always: bash -n
# of the scripts and their #SBATCH lines.
set -u
src=$1
pcbench=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
sd=$src/scripts/slurm
fail=0
for f in pcbench.sbatch merge.sbatch submit; do
	bash -n "$sd/$f" || { echo "FAIL: bash -n $f"; fail=1; }
done
for l in "--exclusive" "--ntasks-per-node=1" "--output=pcbench-%j.out"; do
	grep -q "^#SBATCH $l\$" "$sd/pcbench.sbatch" || { echo "FAIL: pcbench.sbatch lacks #SBATCH $l"; fail=1; }
done
grep -q -- "--dependency=afterany" "$sd/submit" || { echo "FAIL: submit: no afterany"; fail=1; }
[ $fail -eq 0 ] || exit 1

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "not root (slurmd and munged run as root here)"
for t in munged slurmctld slurmd sbatch squeue unshare ip; do
	command -v $t >/dev/null 2>&1 ||
		{ echo "FAIL: no $t (scripts/install-deps: slurm-wlm, munge, iproute2)"; exit 1; }
done
if [ -z "${PCBENCH_SLURM_NETNS:-}" ]; then
	# A new network namespace (only lo) and mount namespace (our own /etc/hosts naming
	# this node 127.0.0.1, so that no name lookup leaves the machine); at most 150 s.
	PCBENCH_SLURM_NETNS=1 exec timeout -k 5 150 unshare -n -m --propagation private \
		sh "$0" "$@" || skip "unshare -n -m failed"
fi
ip link set lo up || skip "cannot bring lo up in the new network namespace"
# Slurm's daemons resolve with AI_ADDRCONFIG, which ignores 127.0.0.1: give lo a second
# address in this namespace (it is still lo: nothing leaves the namespace).
ip addr add 10.254.254.1/32 dev lo || skip "cannot add an address to lo in the namespace"
hosts=$(mktemp)
printf '127.0.0.1 localhost %s\n' "$(hostname)" >"$hosts"
mount --bind "$hosts" /etc/hosts || skip "cannot bind-mount /etc/hosts in the namespace"

tmp=$(mktemp -d)
node=$(hostname -s)
cleanup() {
	for p in slurmd slurmctld munged; do
		[ -s "$tmp/$p.pid" ] && kill "$(cat "$tmp/$p.pid")" 2>/dev/null
	done
	sleep 0.5
	rm -rf "$tmp" "$hosts"
}
trap cleanup EXIT
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/results"
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge.key"
munged --force --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" \
	--pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munged.seed" ||
	skip "munged did not start: $(tail -n 3 "$tmp/munged.log" 2>/dev/null)"
cat >"$tmp/slurm.conf" <<EOC
ClusterName=pcbtest
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge.sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=10 State=UP
EOC
export SLURM_CONF="$tmp/slurm.conf"
slurmctld -f "$SLURM_CONF" || skip "slurmctld did not start: $(tail -n 3 "$tmp/slurmctld.log")"
slurmd -f "$SLURM_CONF" || skip "slurmd did not start: $(tail -n 3 "$tmp/slurmd.log")"
i=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
	i=$((i + 1))
	[ $i -lt 60 ] || skip "the node did not become idle in 30 s: $(sinfo 2>&1 | tail -n 2); $(tail -n 3 "$tmp/slurmd.log")"
	sleep 0.5
done

export PCBENCH="$pcbench"
"$sd/submit" -n 1 -o "$tmp/results" -- -s page_counter -p v6.0-rc1 -w direct -t 1 -r 2 \
	--time 0.01 --events none --noise-max off >"$tmp/submit.out" 2>&1 ||
	{ echo "FAIL: submit"; cat "$tmp/submit.out"; exit 1; }
cat "$tmp/submit.out"
i=0
while squeue -h 2>/dev/null | grep -q .; do
	i=$((i + 1))
	[ $i -lt 240 ] || { echo "FAIL: jobs still queued after 120 s"; squeue; fail=1; break; }
	sleep 0.5
done
l=${node%%.*}
[ -s "$tmp/results/$l/run/results.csv" ] || { echo "FAIL: no run of $l"; fail=1; }
[ "$(cat "$tmp/results/$l/exit" 2>/dev/null)" = 0 ] || { echo "FAIL: $l: exit not 0"; fail=1; }
grep -q "^  $l  *ok " "$tmp/results"/pcbench-merge-*.out ||
	{ echo "FAIL: the merge job's summary lacks $l"; fail=1; }
grep -q "$l" "$tmp/results/compare.txt" 2>/dev/null || { echo "FAIL: compare lacks $l"; fail=1; }
[ -s "$tmp/results/merged/results.csv" ] || { echo "FAIL: no merged results.csv"; fail=1; }
if [ $fail -ne 0 ]; then
	for f in "$tmp/results"/*.out "$tmp/slurmctld.log" "$tmp/slurmd.log"; do
		echo "--- $f"; tail -n 15 "$f"
	done
else
	sed -n '1,3p' "$tmp/results/compare.txt"
	echo "slurm: ok"
fi
exit $fail
