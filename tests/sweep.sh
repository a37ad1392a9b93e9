#!/bin/sh
# sweep.sh PCBENCH - parameter sweeps: -D batch=32,64 and -P scatter,compact each become one
# family per value (4 families of one preset here), each value in its column (param_batch,
# placement) and in the family name; compare keeps the values apart (a table per value). A
# -P list with an element that is not a policy name is one hwloc location, not split; a
# list element out of a parameter's range is refused naming the whole value.
set -u
. "${0%/*}/preamble.sh"

"$pcbench" -s page_counter -p +A -w direct -D batch=32,64 -P scatter,compact -t 1 -r 1 \
	--time 0.005 --noise-max off -o "$tmp/r" >"$tmp/out" 2>&1 || { no "the sweep run"; cat "$tmp/out"; }
python3 - "$tmp/r/results.csv" <<'PY' || fail=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = sorted((r["placement"], r["param_batch"]) for r in rows)
want = [("compact", "32"), ("compact", "64"), ("scatter", "32"), ("scatter", "64")]
if got != want:
    sys.exit(print("FAIL: families %s, want %s" % (got, want)) or 1)
PY
for pl in scatter compact; do
	for b in 32 64; do
		grep -q "^page_counter  workload=direct  placement=$pl  threads=1  home=node:0  batch=$b\$" "$tmp/out" ||
			no "compare: no table of placement=$pl batch=$b"
	done
done
"$pcbench" -s page_counter -p +A -w direct -D batch=32,64 -t 1 -r 1 --time 0.005 --noise-max off \
	--benchmark_filter='batch=64' -o "$tmp/f" >/dev/null 2>&1 || no "--benchmark_filter on a swept value"
python3 -c '
import csv, sys
v = [r["param_batch"] for r in csv.DictReader(open(sys.argv[1]))]
sys.exit(0 if v and set(v) == {"64"} else print("FAIL: --benchmark_filter=batch=64 gave", v) or 1)
' "$tmp/f/results.csv" || fail=1

"$pcbench" -s page_counter -p +A -w direct -P scatter,pu:0 -t 1 --dry-run >"$tmp/o" 2>&1
[ $? = 2 ] && grep -q -- '--placement: scatter,pu:0' "$tmp/o" || { no "-P scatter,pu:0 was split"; cat "$tmp/o"; }
"$pcbench" -s page_counter -p +A -w direct -D batch=32,0 -t 1 --dry-run >"$tmp/o" 2>&1
[ $? = 2 ] && grep -q 'batch: 32,0' "$tmp/o" || { no "-D batch=32,0 not refused as one value"; cat "$tmp/o"; }
# --dry-run lists every family of a sweep: 2 batch values x 2 placements, 4 sections, and a
# plan CSV of one row per (family, thread) with placement and param_* columns.
"$pcbench" -s page_counter -p +A -w direct -t 2 -D batch=32,64 -P scatter,compact --dry-run \
	--csv "$tmp/plan.csv" >"$tmp/o" 2>&1 || { no "--dry-run sweep: exit $?"; cat "$tmp/o"; }
for s in "placement=scatter batch=32" "placement=scatter batch=64" "placement=compact batch=32" \
	"placement=compact batch=64"; do
	grep -qx "threads=2 $s" "$tmp/o" || { no "--dry-run sweep: no section 'threads=2 $s'"; cat "$tmp/o"; }
done
python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
fams = {(r["scenario"], r["preset"], r["workload"], r["placement"], r["threads"], r["param_batch"])
        for r in rows}
ok = len(fams) == 4 and len(rows) == 8 and {r["thread"] for r in rows} == {"0", "1"}
sys.exit(0 if ok else print("FAIL: --dry-run sweep CSV: families", sorted(fams), len(rows), "rows") or 1)
' "$tmp/plan.csv" || fail=1
[ $fail = 0 ] && echo "ok: sweeps"
exit $fail
