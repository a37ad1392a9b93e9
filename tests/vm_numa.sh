#!/bin/sh
# vm_numa.sh PCBENCH SRCDIR - one guest of scripts/numa-vm with the qemu-2s4n topology (2
# packages, 4 NUMA nodes, 2 PUs per core; Debian's kernel under QEMU TCG), several checks
# in it. Label "vm". Placement: the guest's real hwloc topology (lstopo XML from its
# sysfs) gives every policy the plan the fixture gives, in the guest (--topology host) and
# here (--topology guest.xml). Nothing is timed; the guest's own cgroups and mounts only.
set -u
. "${0%/*}/preamble.sh"
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
lstopo-no-graphics --of xml >\$o/guest.xml
cp /sys/devices/system/node/node*/distance \$o/ 2>/dev/null
for n in /sys/devices/system/node/node[0-9]*; do
	echo "\${n##*/} \$(cat \$n/cpulist) \$(cat \$n/distance)"
done >\$o/nodes.txt
for p in $policies; do
	f=\$(echo \$p | tr : _)
	{ \$PCBENCH --dry-run -P \$p -t 1,2,4,max -s page_counter -p v6.0-rc1 -w direct 2>&1
	  echo "exit \$?"; } >\$o/host-\$f.txt
done
EOG
PCBENCH=$pcbench "$src/scripts/numa-vm" --topology 2s4n --timeout 400 -o "$tmp/out" \
	--shell "$tmp/guest.sh" >"$tmp/console" 2>&1
rc=$?
[ $rc -eq 0 ] || { no "the guest: exit $rc"; cat "$tmp/console"; exit 1; }
o=$tmp/out
[ -s "$o/guest.xml" ] || { no "no lstopo XML from the guest"; cat "$tmp/console"; exit 1; }

# The real kernel's nodes: 4 of them, 2 PUs each, distances 10 local, 12 in the package,
# 21 across.
want="node0 0-1 10 12 21 21
node1 2-3 12 10 21 21
node2 4-5 21 21 10 12
node3 6-7 21 21 12 10"
[ "$(cat "$o/nodes.txt")" = "$want" ] || no "the guest's nodes: $(cat "$o/nodes.txt")"

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
[ $fail -eq 0 ] && echo "ok: the guest's plans (real hwloc) equal qemu-2s4n's for every policy"
exit $fail
