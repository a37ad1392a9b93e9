#!/bin/sh
# lab_run.sh SRCDIR PCBENCH - scripts/lab-run over ssh on loopback: a throwaway sshd on
# 127.0.0.1 (tests/lab_sshd.sh), labels on that one login. No traffic leaves 127.0.0.1.
# (the hosts file's refusals: tests/lab_hosts.sh; the logins here use only options its
# allowlist takes)
# 1) a source tree that is not a git checkout (as from a release tarball), shipped, built
#    and run into an output directory with a space in its name: the run directory comes
#    back, its summary line, merged, the remote scratch is gone (one build: ~1-3 min);
#    from a git checkout, lab-run ships `git archive` instead;
# 2) --collect-topology, then --installed with --topologies (--check-host on the host) and
#    three hosts, two labels on one login: a good one, one whose windows are judged
#    disturbed (PCBENCH_NOISE_MAX=0.0001 set for that host in the hosts file), one on a
#    closed port: per-host rows and verdicts, exit 1;
# 3) an interrupt (SIGINT to lab-run's process group, as Ctrl-C): the remote runs stop,
#    their rows come back, the scratch is removed, the summary is printed, exit 3.
set -u
src=$1
pcbench=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
lab=$src/scripts/lab-run
tmp=$(mktemp -d)
. "$src/tests/lab_sshd.sh"
trap 'stop_sshd "$tmp"; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
# The job runs with --noise-max off: the remote pcbench does not get ctest's environment.
tiny="-s page_counter -p v6.0-rc1 -w direct -t 1 -r 2 --time 0.01 --events none --noise-max off"
export PCBENCH="$pcbench"
# summary OUT LABEL: LABEL's line of lab-run's summary (output file OUT).
summary() { awk -v l="$2" '/^hosts:/ { on = 1; next } on && $1 == l { print; exit }' "$1"; }
check() { # check WHAT COMMAND...: FAIL: WHAT when COMMAND fails
	what=$1
	shift
	"$@" || { echo "FAIL: $what"; fail=1; }
}

for t in parallel rsync ssh ssh-keygen setsid; do
	command -v $t >/dev/null 2>&1 || { echo "FAIL: no $t (scripts/install-deps)"; exit 1; }
done
start_sshd "$tmp" || exit $?
login="ssh -p $SSHD_PORT $SSH_OPTS $SSHD_DEST"
closed="ssh -p 1 $SSH_OPTS $SSHD_DEST"
printf 'lab1 %s\nlab2 %s\n' "$login" "$login" >"$tmp/hosts"
printf 'broken %s\n' "$closed" >"$tmp/hosts-closed"
# scratch LOG: the remote scratch prefix of that run, from lab-run's output; left LOG:
# does any of it (or a process working in it) remain?
scratch() { sed -n 's,^lab-run: remote scratch ~/\(.*\)-LABEL$,\1,p' "$1"; }
left() {
	s=$(scratch "$1")
	[ -n "$s" ] || { echo "no scratch line in $1"; return 0; }
	ls -d ~/"$s"-* 2>/dev/null && return 0
	# (one find for every process's working directory: a readlink each cost ~1 CPU second)
	find /proc/[0-9]*/cwd -maxdepth 0 -printf '%l\n' 2>/dev/null | grep -F "/$s-" && return 0
	return 1
}

echo "lab_run: 1: $(date +%T)"
# 1) A source tree without git (as a release tarball unpacks), into "out 1".
mkdir "$tmp/srccopy"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$src" archive HEAD | tar -x -C "$tmp/srccopy"
	# From the git checkout, the shipped source is `git archive` (checked on a host that
	# fails at ssh: no build).
	sh "$lab" -H "$tmp/hosts-closed" -o "$tmp/out0" --no-install -- $tiny >"$tmp/log0" 2>&1
	check "from a git checkout: not shipped with git archive" \
		grep -q "shipping git archive of " "$tmp/log0"
else
	tar -C "$src" --exclude=./build --exclude='./build-*' -cf - . | tar -x -C "$tmp/srccopy"
fi
printf 'lab1 %s\n' "$login" >"$tmp/hosts1"
sh "$tmp/srccopy/scripts/lab-run" -H "$tmp/hosts1" --no-install -o "$tmp/out 1" -- $tiny \
	>"$tmp/log1" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: lab-run from a tree without git: exit $rc"; cat "$tmp/log1"; fail=1; }
check "not shipped as a plain tree" grep -q "shipping the source tree .* (not a git checkout)" "$tmp/log1"
for l in lab1; do
	ls "$tmp/out 1/$l/"*-$l/results.csv >/dev/null 2>&1 ||
		{ echo "FAIL: no run directory of $l came back"; fail=1; }
	line=$(summary "$tmp/log1" $l)
	echo "$line" | grep -Eq "^ +$l +ok +2 +0 +0 +0 +yes +$tmp/out 1/$l/run.log\$" ||
		{ echo "FAIL: summary of $l: \"$line\""; fail=1; }
	grep -q "^machine *$l" "$tmp/log1" || { echo "FAIL: compare --by host lacks $l"; fail=1; }
done
labels=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "label") c = i; next }
	{ print $c }' "$tmp/out 1/merged/results.csv" | sort -u | tr '\n' ' ')
[ "$labels" = "lab1 " ] || { echo "FAIL: merged labels: \"$labels\""; fail=1; }
! left "$tmp/log1" || { echo "FAIL: remote scratch left"; fail=1; }

echo "lab_run: 2: $(date +%T)"
# 2) Topologies, then --installed on three hosts: good, all windows disturbed, closed port.
sh "$lab" --collect-topology -H "$tmp/hosts" --topologies "$tmp/topo" >"$tmp/log2" 2>&1 ||
	{ echo "FAIL: --collect-topology"; cat "$tmp/log2"; fail=1; }
check "no lab1.xml collected" grep -q "<topology" "$tmp/topo/lab1.xml"
cp "$tmp/topo/lab1.xml" "$tmp/topo/noisy.xml"
# Per-host environment from the hosts file: lab1 judges no window (as $tiny does), the
# noisy host judges every window with waiting over 0.0001% disturbed.
printf 'lab1 PCBENCH_NOISE_MAX=off %s\nnoisy PCBENCH_NOISE_MAX=0.0001 %s\nbroken %s\n' \
	"$login" "$login" "$closed" >"$tmp/hosts3"
sh "$lab" -H "$tmp/hosts3" --installed --pcbench "$pcbench" \
	--topologies "$tmp/topo" -o "$tmp/out2" -- -s page_counter -w direct -t 1 --time 0.01 \
	--events none -p v6.0-rc1,+ABC -r 4 --design independent >"$tmp/log3" 2>&1
# (4 repetitions give a verdict; 4 blocks would not. $tiny's -p and -r are not repeated: a
# single-valued option given twice is refused.)
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: lab-run with a broken host: exit $rc, want 1"; fail=1; }
line=$(summary "$tmp/log3" lab1)
echo "$line" | grep -Eq "^ +lab1 +ok +8 +0 +0 +0 +yes +$tmp/out2/lab1/run.log\$" ||
	{ echo "FAIL: summary of lab1: \"$line\""; fail=1; }
line=$(summary "$tmp/log3" broken)
echo "$line" | grep -Eq "^ +broken +ssh +- +- +- +- +- +$tmp/out2/joblog\$" ||
	{ echo "FAIL: summary of broken: \"$line\""; fail=1; }
check "why: broken" grep -q "^  broken: ssh or the transfer failed" "$tmp/log3"
# Nearly always every noisy window waits a little; when one did not, its row is ok. With no
# ok row pcbench exits 5 (no verdict, as under blocks), and lab-run says so. With ok rows it
# exits 0 (result ok, verdict yes) or, with too few ok repetitions of a variant, 5 (result
# no-verdict, verdict no): docs/lab.md, the hosts table.
line=$(summary "$tmp/log3" noisy)
set -- $line
if [ "${3:-}" = 0 ]; then
	echo "$line" | grep -Eq "^ +noisy +no-verdict +0 +[1-8] +0 +0 +no " ||
		{ echo "FAIL: summary of noisy: \"$line\""; fail=1; }
	check "why: noisy" grep -q "^  noisy: pcbench exit 5: .*no usable rows (8 disturbed, 0 error, 0 skipped)" "$tmp/log3"
else
	echo "$line" | grep -Eq "^ +noisy +(ok +[1-8] +[0-7] +0 +0 +yes|no-verdict +[1-8] +[0-7] +0 +0 +no) " ||
		{ echo "FAIL: summary of noisy: \"$line\""; fail=1; }
fi
awk -F '\t' '$7 != 0 && $9 ~ / broken$/' "$tmp/out2/joblog" | grep -q . ||
	{ echo "FAIL: joblog has no failed job of broken"; fail=1; }
check "lab1 did not run with --check-host" \
	grep -q "check-host: this host matches" "$tmp/out2/lab1/run.log"
check "the two runs were not merged" grep -q "^merged 2 runs" "$tmp/log3"
! left "$tmp/log3" || { echo "FAIL: remote scratch left (three hosts)"; fail=1; }
[ $fail -eq 0 ] || { echo "--- lab-run output:"; cat "$tmp/log3"; }

echo "lab_run: 3: $(date +%T)"
# 3) Ctrl-C: SIGINT to lab-run's process group while both hosts measure.
long="-s page_counter -p v6.0-rc1 -w direct -t 1 -r 1000 --time 0.05 --events none --noise-max off"
# (SIGINT as a terminal sends it: a shell's background job starts with SIGINT ignored,
# which a sh cannot trap, so perl resets it to the default first.)
setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV' sh "$lab" -H "$tmp/hosts" --installed --pcbench "$pcbench" -o "$tmp/out3" -- $long \
	>"$tmp/log4" 2>&1 &
pid=$!
i=0
until s=$(scratch "$tmp/log4") && [ -n "$s" ] && [ -s ~/"$s"-lab1/lab1/*-lab1/results.csv ] &&
	[ -s ~/"$s"-lab2/lab2/*-lab2/results.csv ]; do
	i=$((i + 1))
	[ $i -lt 240 ] || { echo "FAIL: the runs did not start in 120 s"; fail=1; break; }
	sleep 0.5
done 2>/dev/null
sleep 1
kill -INT -$pid
i=0
while kill -0 $pid 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 360 ] || { echo "FAIL: lab-run still runs 180 s after SIGINT"; kill -KILL -$pid; fail=1; }
	sleep 0.5
done
wait $pid
rc=$?
[ $rc -eq 3 ] || { echo "FAIL: interrupted lab-run: exit $rc, want 3"; fail=1; }
for l in lab1 lab2; do
	line=$(summary "$tmp/log4" $l)
	echo "$line" | grep -Eq "^ +$l +interrupted +[1-9][0-9]* +0 +0 +0 +yes " ||
		{ echo "FAIL: interrupted summary of $l: \"$line\""; fail=1; }
	"$pcbench" compare "$tmp/out3/$l/"*-$l --format csv >/dev/null 2>&1 ||
		{ echo "FAIL: the interrupted run of $l is not whole"; fail=1; }
done
! left "$tmp/log4" || { echo "FAIL: remote scratch or a remote job left after the interrupt"; fail=1; }
[ $fail -eq 0 ] || { echo "--- interrupted lab-run output:"; cat "$tmp/log4"; }
[ $fail -eq 0 ] && echo "lab_run: ok"
exit $fail
