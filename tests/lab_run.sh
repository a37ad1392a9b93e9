#!/bin/sh
# lab_run.sh SRCDIR PCBENCH - scripts/lab-run over ssh on loopback: a throwaway sshd on
# 127.0.0.1 (tests/lab_sshd.sh), two labels on that one login. 1) the default path (git
# archive of HEAD, --no-install, build, run): both run directories come back, the merged
# CSV holds both labels, compare --by host printed both, the remote scratch is gone.
# 2) --collect-topology, then --installed with --topologies (--check-host on the host) and
# a third label on a wrong port: that host fails at ssh in the summary and the joblog, the
# others' results survive and are merged, exit 1. No traffic leaves 127.0.0.1.
set -u
src=$1
pcbench=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
tmp=$(mktemp -d)
. "$src/tests/lab_sshd.sh"
trap 'stop_sshd "$tmp"; rm -rf "$tmp"' EXIT
fail=0
for t in parallel rsync ssh ssh-keygen git; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: no $t"; exit 77; }
done
start_sshd "$tmp" || exit $?
login="ssh -F $tmp/ssh_config lab"
printf 'lab1 %s\nlab2 %s\n' "$login" "$login" >"$tmp/hosts"
tiny="-s page_counter -p v6.0-rc1 -w direct -t 1 -r 2 --time 0.01 --events none"
scratch_before=$(ls ~/.parallel/tmp 2>/dev/null | wc -l)
export PCBENCH="$pcbench"

# 1) ship, build, run on two labels.
# shellcheck disable=SC2086
"$src/scripts/lab-run" -H "$tmp/hosts" --no-install -o "$tmp/out1" -- $tiny >"$tmp/log1" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: lab-run: exit $rc"; cat "$tmp/log1"; fail=1; }
for l in lab1 lab2; do
	ls "$tmp/out1/$l/"*-$l/results.csv >/dev/null 2>&1 ||
		{ echo "FAIL: no run directory of $l came back"; fail=1; }
	grep -q "^  $l  .* ok\$" "$tmp/log1" || { echo "FAIL: summary: $l not ok"; fail=1; }
	grep -q "^machine *$l" "$tmp/log1" || { echo "FAIL: compare --by host lacks $l"; fail=1; }
done
"$pcbench" compare "$tmp/out1/merged" --format csv >"$tmp/merged.csv" 2>/dev/null ||
	{ echo "FAIL: the merged CSV does not parse"; fail=1; }
labels=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "label") c = i; next }
	{ print $c }' "$tmp/out1/merged/results.csv" | sort -u | tr '\n' ' ')
[ "$labels" = "lab1 lab2 " ] || { echo "FAIL: merged labels: \"$labels\""; fail=1; }
[ "$(ls ~/.parallel/tmp 2>/dev/null | wc -l)" -le "$scratch_before" ] ||
	{ echo "FAIL: remote scratch left in ~/.parallel/tmp"; ls ~/.parallel/tmp; fail=1; }

# 2) topologies, then --installed with a failing host.
"$src/scripts/lab-run" --collect-topology -H "$tmp/hosts" --topologies "$tmp/topo" \
	>"$tmp/log2" 2>&1 || { echo "FAIL: --collect-topology"; cat "$tmp/log2"; fail=1; }
grep -q "<topology" "$tmp/topo/lab1.xml" 2>/dev/null ||
	{ echo "FAIL: no lab1.xml collected"; fail=1; }
printf 'lab1 %s\nbroken ssh -F %s/ssh_config -p 1 lab\nlab2 %s\n' "$login" "$tmp" "$login" \
	>"$tmp/hosts2"
# shellcheck disable=SC2086
"$src/scripts/lab-run" -H "$tmp/hosts2" --installed --pcbench "$pcbench" \
	--topologies "$tmp/topo" -o "$tmp/out2" -- $tiny >"$tmp/log3" 2>&1
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: lab-run with a broken host: exit $rc, want 1"; fail=1; }
grep -q "^  broken .*ssh or transfer failed" "$tmp/log3" ||
	{ echo "FAIL: summary does not say broken failed at ssh"; fail=1; }
awk -F '\t' '$7 != 0 && $9 ~ / broken$/' "$tmp/out2/joblog" | grep -q . ||
	{ echo "FAIL: joblog has no failed job of broken"; fail=1; }
for l in lab1 lab2; do
	ls "$tmp/out2/$l/"*-$l/results.csv >/dev/null 2>&1 ||
		{ echo "FAIL: $l's results did not survive the broken host"; fail=1; }
	grep -q "check-host: this host matches" "$tmp/out2/$l/run.log" ||
		{ echo "FAIL: $l did not run with --check-host"; fail=1; }
done
grep -q "^merged 2 runs" "$tmp/log3" || { echo "FAIL: the two good runs were not merged"; fail=1; }
[ $fail -eq 0 ] || { echo "--- lab-run output:"; cat "$tmp/log3"; }
[ $fail -eq 0 ] && echo "lab_run: ok"
exit $fail
