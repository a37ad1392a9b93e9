#!/bin/sh
# locations.sh PCBENCH SRCDIR - every hwloc location that the docs (topology.md's table,
# measuring.md) and `pcbench help measure` give as an example of -P plans on the qemu-2s4n
# fixture (--dry-run, exit 0): hwloc-calc 2.9 refused the documented core:0-7,pu:even
# (issue 38).
set -u
. "${0%/*}/preamble.sh"
desc=$(grep -v '^#' "$src/tests/topologies/qemu-2s4n.synthetic")
{
	grep '^| an hwloc location |' "$src/docs/topology.md" | grep -o '`[^`]*`'
	grep 'one hwloc location' "$src/docs/measuring.md" | grep -o '`[^`]*`'
	"$pcbench" help measure | sed -n '/hwloc location such as/,/(default/p' |
		sed 's/.*such as//; s/(default.*//' | tr ' ' '\n' | sed 's/,$//'
} | tr -d '`' | grep -E '^[a-z]+:[^ ]+$' | sort -u >"$tmp/locs"
[ "$(wc -l <"$tmp/locs")" -ge 4 ] || no "too few examples found: $(cat "$tmp/locs")"
grep -qx 'core:0-7,pu:even' "$tmp/locs" && no "the refused core:0-7,pu:even is still given as an example"
while read -r loc; do
	"$pcbench" --dry-run -P "$loc" -t 2 -s page_counter -p v6.0-rc1 -w direct \
		--topology "synthetic:$desc" >"$tmp/out" 2>&1 && grep -q '^threads=2' "$tmp/out" ||
		{ no "-P $loc: $(head -n 2 "$tmp/out")"; }
done <"$tmp/locs"
[ $fail -eq 0 ] && echo "ok: $(wc -l <"$tmp/locs") documented locations plan: $(tr '\n' ' ' <"$tmp/locs")"
exit $fail
