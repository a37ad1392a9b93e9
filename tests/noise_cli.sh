#!/bin/sh
# noise_cli.sh PCBENCH - the noise columns of results.csv through the binary: nivcsw,
# run_delay_ns, migrations, steal_pct, retries on every measured row; steal_pct empty for a
# window too short for /proc/stat ticks; --noise-retries 0 never retries; a row is ok or
# disturbed (with its reason), never an error for noise: a window starved on a busy machine
# (no operation completed) is a disturbed row too, its reason ending "(starved)", and the
# run exits 0. (test_noise injects steal.)
set -u
pcbench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$pcbench" -s page_counter -p +ABC -w direct -t 1 -r 2 --time 0.05 --noise-max 50 --noise-retries 0 \
	-o "$tmp/run" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 0 ] || { echo "FAIL: exit $rc, want 0"; cat "$tmp/err"; fail=1; }
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ bad = 0
	  if ($c["steal_pct"] != "") { print "FAIL: steal_pct for a 55 ms span: " $c["steal_pct"]; bad = 1 }
	  if ($c["retries"] != "0") { print "FAIL: retries " $c["retries"] " with --noise-retries 0"; bad = 1 }
	  if ($c["nivcsw"] !~ /^[0-9]+$/) { print "FAIL: nivcsw " $c["nivcsw"]; bad = 1 }
	  if ($c["status"] == "disturbed" && $c["reason"] !~ /^disturbed: /) { print "FAIL: reason"; bad = 1 }
	  if ($c["status"] != "ok" && $c["status"] != "disturbed") { print "FAIL: status " $c["status"] " " $c["reason"]; bad = 1 }
	  if (bad) exit 1 }' \
	"$tmp/run/results.csv" || fail=1
for col in nivcsw run_delay_ns migrations steal_pct retries; do
	head -1 "$tmp/run/results.csv" | tr , '\n' | grep -qx "$col" || { echo "FAIL: no column $col"; fail=1; }
done
grep -q '^pcbench: noise: [0-9]* of [0-9]* windows disturbed' "$tmp/err" ||
	{ echo "FAIL: no noise summary line"; cat "$tmp/err"; fail=1; }
[ $fail = 0 ] && echo "ok: noise columns"
exit $fail
