#!/bin/sh
# plan_large.sh PCBENCH - planning stays near-linear on large synthetic topologies: every
# placement policy (as --help lists them) plans -t 1,max on 10,000 PUs (before: minutes for
# scatter, cores, smt and cross-socket). `timeout 60` only bounds a hang; nothing here
# asserts on time.
set -u
pcbench=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail=0 n=0
for p in $("$pcbench" --help | sed -n 's/^ \{20,\}\([a-z0-9-]*\)  .*/\1/p'); do
	timeout 60 "$pcbench" -s page_counter -p +ABC -w direct \
		--topology 'synthetic:pack:10 l3:5 core:50 pu:4' --dry-run -P "$p" >"$out" 2>&1
	rc=$?
	[ $rc -eq 0 ] || { echo "FAIL: -P $p on 10,000 PUs: exit $rc"; tail -n 3 "$out"; fail=1; }
	n=$((n + 1))
done
echo "$n placement policies planned on 10,000 PUs"
[ $n -ge 5 ] || { echo "FAIL: found only $n policies in --help"; fail=1; }
exit $fail
