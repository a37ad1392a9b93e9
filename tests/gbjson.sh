#!/bin/sh
# gbjson.sh PCBENCH - Google Benchmark's own output (issue 15 part 9): with
# --benchmark_out=FILE --benchmark_out_format=json every repetition reports ns/op as its
# time (manual time, unit ns), items_per_second equal to results.csv's ops_per_s (issue 27
# item 8: it was ops_per_s times the window's ops) and ns/op as the user counter ns_per_op,
# equal to results.csv's ns_per_op; and Debian's compare.py (libbenchmark-tools)
# compares two such files (its U test over the windows of each family). Fails without
# compare.py or a python3 with scipy (install-deps).
set -u
pcbench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# a, b: independent repetitions (Google Benchmark's own statistics over them, which
# compare.py reads); c: blocks (one Google Benchmark run per table and block, the file
# holding them all).
# Under TSan only runs a and c (b repeats a): the checks below are one thread; ASan runs them.
runs="a b c"
case ${PCBENCH_SANITIZED:-} in *thread*) runs="a c" ;; esac
for x in $runs; do
	design=independent
	[ $x = c ] && design=blocks
	"$pcbench" -s page_counter -p v6.0-rc1,+ABC -w direct -t 1,2 -r 2 --time 0.02 \
		--design $design -o "$tmp/$x" --benchmark_out="$tmp/$x.json" \
		--benchmark_out_format=json >/dev/null 2>"$tmp/$x.err"
	rc=$?
	[ $rc -le 1 ] || [ $rc -eq 5 ] || { echo "FAIL: run $x: exit $rc"; cat "$tmp/$x.err"; fail=1; }
done

case ${PCBENCH_SANITIZED:-} in *thread*) exit $fail ;; esac
compare=/usr/share/benchmark/compare.py
[ -r $compare ] || { echo "FAIL: no $compare (Debian package libbenchmark-tools; scripts/install-deps brings it)"; exit 1; }
py=""
for p in python3 /usr/bin/python3; do
	command -v "$p" >/dev/null && "$p" -c 'import scipy' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || { echo "FAIL: no python3 with scipy (Debian package python3-scipy; scripts/install-deps brings it)"; exit 1; }

for x in a c; do
"$py" - "$tmp/$x.json" "$tmp/$x/results.csv" <<'PY' || fail=1
import csv, json, sys
runs = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b["run_type"] == "iteration"]
rows = [r for r in csv.DictReader(open(sys.argv[2])) if r["status"] == "ok"]
bad = 0
if len(runs) != 8:
    print("FAIL: %d iteration entries in the JSON, want 8 (4 families x 2)" % len(runs)); bad = 1
for b in runs:
    if b.get("error_occurred"):
        continue
    if b["time_unit"] != "ns" or "manual_time" not in b["name"]:
        print("FAIL: %s: not manual time in ns" % b["name"]); bad = 1
    if "ns_per_op" not in b or "items_per_second" not in b:
        print("FAIL: %s: no ns_per_op counter or items processed" % b["name"]); bad = 1
    elif abs(b["real_time"] - b["ns_per_op"]) > 1e-6 * b["ns_per_op"]:
        print("FAIL: %s: time %g != ns_per_op %g" % (b["name"], b["real_time"], b["ns_per_op"])); bad = 1
got = sorted("%.9g" % b["ns_per_op"] for b in runs if "ns_per_op" in b)
want = sorted("%.9g" % float(r["ns_per_op"]) for r in rows)
if got != want:
    print("FAIL: ns_per_op of the JSON %s != results.csv %s" % (got, want)); bad = 1
# each window's items_per_second is its row's ops_per_s (the row found by its ns_per_op)
ops = {"%.9g" % float(r["ns_per_op"]): float(r["ops_per_s"]) for r in rows}
for b in runs:
    if "ns_per_op" not in b or "items_per_second" not in b:
        continue
    want = ops.get("%.9g" % b["ns_per_op"])
    if want is None or abs(b["items_per_second"] - want) > 1e-9 * want:
        print("FAIL: %s: items_per_second %g != results.csv's ops_per_s %s"
              % (b["name"], b["items_per_second"], want)); bad = 1
sys.exit(bad)
PY
done

"$py" $compare benchmarks "$tmp/a.json" "$tmp/b.json" >"$tmp/cmp" 2>&1 ||
	{ echo "FAIL: compare.py exit $?"; cat "$tmp/cmp"; fail=1; }
# Each window is its own run of one repetition (gbshim.cc): compare.py pairs them by name
# and runs its U test over them (no aggregates: pcbench compare computes the statistics).
grep -q 'page_counter/preset:+ABC/workload:direct/placement:scatter/threads:2.*_pvalue' "$tmp/cmp" ||
	{ echo "FAIL: compare.py does not compare the families"; head -5 "$tmp/cmp"; fail=1; }

[ $fail = 0 ] && echo "ok: Google Benchmark JSON, compared by compare.py"
exit $fail
