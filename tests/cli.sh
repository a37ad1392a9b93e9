#!/bin/sh
# cli.sh PCBENCH - command-line contract: --help works; every bad value exits 2 with a
# message naming the option and the value, and measures nothing.
set -u
pcbench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# expect CODE FRAGMENT ARGS... : exit code and a fragment of stderr.
expect() {
	code=$1 frag=$2
	shift 2
	"$pcbench" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$code" ] || ! grep -qF -- "$frag" "$tmp/err"; then
		echo "FAIL: pcbench $*: exit $rc (want $code), stderr:"
		sed 's/^/    /' "$tmp/err"
		echo "    (want a line containing: $frag)"
		fail=1
	else
		echo "ok: pcbench $* -> $rc"
	fi
}

"$pcbench" --help >"$tmp/help" 2>&1
rc=$?
if [ $rc -ne 0 ] || ! grep -q "^usage: pcbench" "$tmp/help" || ! grep -q "Examples:" "$tmp/help"; then
	echo "FAIL: --help exit $rc"; fail=1
else
	echo "ok: --help -> 0"
fi
"$pcbench" --list >"$tmp/list" 2>&1 && grep -q "v6.0-rc1" "$tmp/list" && grep -q "stocked" "$tmp/list" ||
	{ echo "FAIL: --list"; fail=1; }

out="$tmp/never"
expect 2 "--scenario: nosuch" -s nosuch -o "$out"
expect 2 "--preset: +Z" -p +Z -o "$out"
expect 2 "--workload: sideways" -w sideways -o "$out"
expect 2 "--threads: 0" -t 0 -o "$out"
expect 2 "--threads: abc" -t abc -o "$out"
expect 2 "--threads: 4-2" -t 4-2 -o "$out"
expect 2 "--placement: nowhere" -P nowhere -o "$out"
expect 2 "--time: 0" --time 0 -o "$out"
expect 2 "--time: 5000" --time 5000 -o "$out"
expect 2 "--repetitions: 0" -r 0 -o "$out"
expect 2 "--param: colour=red" -D colour=red -o "$out"
expect 2 "batch: 0" -D batch=0 -o "$out"
expect 2 "propagate: sometimes" -D propagate=sometimes -o "$out"
expect 2 "layout" -D layout=/nonexistent.layout -o "$out"
expect 2 "option: --frobnicate" --frobnicate -o "$out"
expect 2 "--out: /dev/null/x" -o /dev/null/x --time 0.001 -r 1 -t 1
[ -e "$out" ] && { echo "FAIL: a rejected run created $out"; fail=1; }

# An existing run directory is not overwritten.
"$pcbench" -s page_counter -p +ABC -w direct -t 1 -r 1 --time 0.001 -o "$tmp/run" >/dev/null 2>&1 ||
	{ echo "FAIL: tiny run"; fail=1; }
cp "$tmp/run/results.csv" "$tmp/before.csv"
expect 2 "--out: $tmp/run" -t 1 -r 1 --time 0.001 -o "$tmp/run"
cmp -s "$tmp/run/results.csv" "$tmp/before.csv" || { echo "FAIL: results.csv changed"; fail=1; }

# More threads than PUs: skipped rows, not a wrap-around; everything skipped exits 4.
expect 4 "skipped" -p +ABC -w direct -t 100000 -r 1 --time 0.001 -o "$tmp/skip"
grep -q ",skipped,placement scatter: 100000 threads need 100000 PUs" "$tmp/skip/results.csv" ||
	{ echo "FAIL: no skipped row"; fail=1; }

exit $fail
