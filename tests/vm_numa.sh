#!/bin/sh
# vm_numa.sh PCBENCH SRCDIR - one guest of scripts/numa-vm with the qemu-2s4n topology (2
# packages, 4 NUMA nodes, 2 PUs per core; Debian's kernel under QEMU TCG), several checks
# in it. Label "vm". Nothing is timed; only the guest's own cgroups and mounts are written.
# - Placement: the guest's real hwloc topology (lstopo XML from its sysfs) gives every
#   policy the plan the fixture gives, in the guest (--topology host) and here (--topology
#   guest.xml); sysfs has 4 nodes with distances 10/12/21.
# - Homes: --home node:3, each and interleave: every row ok (pcbench checks where the pages
#   are with move_pages and makes a row an error when they are elsewhere), its home column
#   node:3, each of node:0..3, nodes of the guest; the dry run says the same.
# - The seeds' cgroup hierarchy: the kernel scenario's tcp with --cgroup under a guest-owned
#   cgroup2 directory: three levels, memory.min and memory.low on the top one, removed at
#   the end; v2 accounts socket memory, so pcbench profile gives tcp a non-zero memcg share,
#   and compare shows it beside the emulated page_counter socket.
# - Threads that cannot start (issue 35): oom_row.sh's -t 3 and -t 4, which its 2-PU host
#   skips, here where the plan has them: oom_common.sh's limits and command in the guest
#   (--add puts the file there), its checks here on the guest's output: exit 1 (never 134),
#   a status=error row naming the thread in results.csv and results.jsonl, context.json's
#   end time.
set -u
. "${0%/*}/preamble.sh"
. "${0%/*}/oom_common.sh"
policies="compact scatter cores smt same-l3 cross-l3 cross-socket core:0-3"
fixture=$src/tests/topologies/qemu-2s4n.synthetic
desc=$(grep -v '^#' "$fixture")

# The plan of a policy from the first "placement" line on (the topology line names the
# topology, which differs).
plan() {
	"$pcbench" --dry-run -P "$1" -t 1,2,4,max -s page_counter -p v6.0-rc1 -w direct \
		--topology "$2" 2>&1
	echo "exit $?"
}
body() { sed -n '/^placement/,$p' "$1"; }

mkdir -p "$tmp/out"
cat >"$tmp/guest.sh" <<EOG
set -u
o=\$NUMA_VM_OUT
export PCBENCH_NOISE_MAX=off
ph() { echo "\$1 \$(cut -d' ' -f1 /proc/uptime)" >>\$o/phases; } # guest seconds since boot
ph start
lstopo-no-graphics --of xml >\$o/guest.xml
cp /sys/devices/system/node/node*/distance \$o/ 2>/dev/null
for n in /sys/devices/system/node/node[0-9]*; do
	echo "\${n##*/} \$(cat \$n/cpulist) \$(cat \$n/distance)"
done >\$o/nodes.txt
# One process plans the seven policies (host-all.txt, split here by split_plans.awk), a
# second the location core:0-3 (not in a list): 2 processes under TCG, not 8.
for p in all:$(echo ${policies% core:0-3} | tr ' ' ,) core_0-3:core:0-3; do
	{ \$PCBENCH --dry-run -P \${p#*:} -t 1,2,4,max -s page_counter -p v6.0-rc1 -w direct 2>&1
	  echo "exit \$?"; } >\$o/host-\${p%%:*}.txt
done
ph placement
pc() { \$PCBENCH -s page_counter -p v6.0-rc1 -w direct -t 2 -P cross-socket "\$@"; }
for h in node:3 each interleave; do
	f=\$(echo \$h | tr : _)
	pc --dry-run --home \$h >\$o/dry-\$f.txt 2>&1
	pc --home \$h --design independent -r 1 --time 0.02 --noise-retries 10 -o \$o/home-\$f >\$o/home-\$f.out 2>&1
	echo "exit \$?" >>\$o/home-\$f.out
done
ph homes
mkdir /sys/fs/cgroup/bench && echo +memory >/sys/fs/cgroup/cgroup.subtree_control &&
	echo +memory >/sys/fs/cgroup/bench/cgroup.subtree_control
\$PCBENCH -s kernel -w tcp -t 1 --design independent -r 2 --time 0.2 --noise-retries 10 --profile \\
	--cgroup /sys/fs/cgroup/bench -o \$o/real >\$o/real.out 2>&1
echo "exit \$?" >>\$o/real.out
ph kernel
ls /sys/fs/cgroup/bench >\$o/cgroup-after.txt
\$PCBENCH -s page_counter -w socket -p v6.0-rc1 -t 1 --design independent -r 1 --time 0.02 --noise-retries 10 \\
	--layout btf: -o \$o/emu >\$o/emu.out 2>&1
\$PCBENCH profile \$o/real >\$o/profile.txt 2>&1
\$PCBENCH merge \$o/real \$o/emu -o \$o/both >\$o/merge.out 2>&1
\$PCBENCH compare \$o/both -m ns_per_op >\$o/compare.txt 2>&1
ph compare
. $src/tests/oom_common.sh
pcbench=\$PCBENCH
for t in 3 4; do
	oom_threads \$t \$o/threads-\$t 2>\$o/threads-\$t.err
	echo \$? >\$o/threads-\$t.rc
done
ph end
EOG
PCBENCH=$pcbench "$src/scripts/numa-vm" --topology 2s4n --timeout 400 -o "$tmp/out" \
	--add "$src/tests/oom_common.sh" --shell "$tmp/guest.sh" >"$tmp/console" 2>&1
rc=$?
[ $rc -eq 0 ] || { no "the guest: exit $rc"; cat "$tmp/console"; exit 1; }
o=$tmp/out
echo "vm_numa: the guest's phases (seconds since its boot): $(tr '\n' ' ' <"$o/phases")"
[ -s "$o/guest.xml" ] || { no "no lstopo XML from the guest"; cat "$tmp/console"; exit 1; }

# The real kernel's nodes: 4 of them, 2 PUs each, distances 10 local, 12 in the package,
# 21 across.
want="node0 0-1 10 12 21 21
node1 2-3 12 10 21 21
node2 4-5 21 21 10 12
node3 6-7 21 21 12 10"
[ "$(cat "$o/nodes.txt")" = "$want" ] || no "the guest's nodes: $(cat "$o/nodes.txt")"

# The guest's plan of each of the seven policies as -P P prints it, host-P.txt.
awk -v out="$o/host-" -v suffix=.txt -v policies="${policies% core:0-3}" \
	-f "$src/tests/split_plans.awk" "$o/host-all.txt"
for p in $policies; do
	f=$(echo "$p" | tr : _)
	plan "$p" "synthetic:$desc" >"$tmp/fix-$f.txt"
	plan "$p" "$o/guest.xml" >"$tmp/xml-$f.txt"
	body "$tmp/fix-$f.txt" >"$tmp/a"
	body "$tmp/xml-$f.txt" >"$tmp/b"
	diff -u "$tmp/a" "$tmp/b" >"$tmp/d" || { no "$p: the guest's XML plans differently from the fixture"; cat "$tmp/d"; }
	body "$o/host-$f.txt" >"$tmp/c"
	diff -u "$tmp/a" "$tmp/c" >"$tmp/d" || { no "$p: the guest (--topology host) plans differently from the fixture"; cat "$tmp/d"; }
	grep -q '^threads=' "$tmp/a" || no "$p: no plan at all: $(cat "$tmp/a")"
done

# Homes: every row ok, with the home it was given (pcbench asked the kernel where the pages
# are with move_pages, and a row whose pages are elsewhere is an error). The home column is
# what the kernel said: interleave's is the node(s) that got the pages, never "interleave"
# (the plan, written only when the kernel cannot tell).
homes() { python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])): print(r["home"], r["status"], r["reason"])' "$1"; }
for h in node:3 each interleave; do
	f=$(echo "$h" | tr : _)
	tail -n 1 "$o/home-$f.out" | grep -qx 'exit 0' || { no "--home $h: $(tail -n 3 "$o/home-$f.out")"; continue; }
	homes "$o/home-$f/results.csv" >"$tmp/homes" || { no "--home $h: no results.csv"; continue; }
	# (a window where no operation completed stays disturbed under TCG, noise judged or not:
	# its pages were checked all the same, before the window)
	awk '$2 != "ok" && $2 != "disturbed"' "$tmp/homes" | grep -q . &&
		no "--home $h: a row neither ok nor disturbed: $(awk '$2 != "ok"' "$tmp/homes")"
	case $h in
	node:3) want=node:3 ;;
	each) want="node:0 node:1 node:2 node:3" ;;
	interleave) want=any ;;
	esac
	got=$(cut -d' ' -f1 "$tmp/homes" | sort -u | tr '\n' ' ' | sed 's/ $//')
	if [ "$want" = any ]; then
		echo "$got" | grep -Eqx 'node:[0-3](;node:[0-3])*' || no "--home interleave: home $got"
		grep -q 'memory home: interleaved over every NUMA node' "$o/dry-$f.txt" ||
			no "--home interleave: the dry run says $(grep 'memory home' "$o/dry-$f.txt")"
	else
		[ "$got" = "$want" ] || no "--home $h: home column $got, want $want"
	fi
done
grep -q 'threads=2 home=node:3$' "$o/dry-node_3.txt" && grep -q 'memory home: NUMA node 3$' "$o/dry-node_3.txt" ||
	{ no "--home node:3: the dry run"; cat "$o/dry-node_3.txt"; }
grep -q ' home=node:3$' "$o/home-node_3.out" || no "--home node:3: the tables do not say home=node:3"

# The cgroup hierarchy of seed 000 in a real cgroup2, and the memcg share of tcp.
tail -n 1 "$o/real.out" | grep -qx 'exit 0' || { no "kernel tcp --cgroup: $(tail -n 5 "$o/real.out")"; }
python3 - "$o/real/context.json" <<'PY' || fail=1
import json, re, sys
cg = json.load(open(sys.argv[1]))["options"]["cgroup"]
w, bad = cg.get("writes", []), []
top = r"^/sys/fs/cgroup/bench/pcbench-\d+"
pat = [top + r"/memory\.min: [1-9]\d*$", top + r"/memory\.low: [1-9]\d*$",
       top + r"/cgroup\.subtree_control: \+memory$", top + r"/mid/cgroup\.subtree_control: \+memory$",
       top + r"/mid/leaf/cgroup\.procs: \d+$"]
if len(w) != len(pat) or not all(re.search(p, x) for p, x in zip(pat, w)):
    bad.append("writes %s" % w)
if cg.get("fake_cgroupfs") is not False:
    bad.append("fake_cgroupfs %s" % cg.get("fake_cgroupfs"))
for b in bad:
    print("FAIL: --cgroup in the guest:", b)
sys.exit(1 if bad else 0)
PY
grep -q pcbench- "$o/cgroup-after.txt" && no "the hierarchy stayed: $(cat "$o/cgroup-after.txt")"
share=$(sed -n '/^kernel running tcp /,/^$/s/.*memcg charge path: \([0-9.]*\)% of them.*/\1/p' "$o/profile.txt")
case $share in '' | 0 | 0.0 | 0.00) no "tcp: memcg share '$share' in pcbench profile"; cat "$o/profile.txt" ;; esac
sed -n '/^real kernel beside its emulation/,/^$/p' "$o/compare.txt" >"$tmp/re"
grep -Eq '^tcp +[a-z-]+ +1 +[0-9]+ +[0-9.]+% +[0-9.]+ +page_counter:socket v6.0-rc1 ' "$tmp/re" ||
	{ no "compare: no tcp row beside page_counter socket"; cat "$o/compare.txt"; }

# Threads that cannot start, in the guest.
for t in 3 4; do
	oom_threads_check $t "$o/threads-$t" "$(cat "$o/threads-$t.rc" 2>/dev/null)" "$o/threads-$t.err" " in the guest"
done

[ $fail -eq 0 ] && echo "ok: the guest's plans (real hwloc) equal qemu-2s4n's for every policy; homes; the cgroup hierarchy; tcp's memcg share $share%; -t 3 and -t 4 without threads: error rows"
exit $fail
