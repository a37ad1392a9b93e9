#!/bin/sh
# refusals.sh PCBENCH - start-up refusals and resource limits (issue 35), in a scratch
# directory:
#  - a refused run leaves no file: under ulimit -n 4..9 pcbench either runs or exits 2 with
#    nothing created (before: a header-only results.csv that blocked the next run);
#  - results/latest that is not a link is refused before measuring (exit 2, nothing made,
#    the file kept; before: found after measuring, or silently replaced);
#  - a thread that cannot be created is a status=error row with the reason, exit 1, and
#    context.json ended (before: SIGABRT from Google Benchmark's std::thread, rc 134);
#  - --force on a directory a live run holds is refused (exit 2), the live run's rows kept;
#  - a path holding ESC or U+202E is printed escaped;
#  - merge refuses a context.json whose run_id is none of its rows', and its results.csv
#    has the mode of results.jsonl (the umask's).
set -u
. "${0%/*}/preamble.sh"
run="-s page_counter -p v6.0-rc1 -w direct -t 1 -r 1 --time 0.01 --events none"
mkdir "$tmp/cwd"
cd "$tmp/cwd" || exit 1
listing() { find . | sort; }
bad() {
	echo "FAIL: $*"
	sed 's/^/    /' "$tmp/err" | head -n 5
	fail=1
}

# Under ASan or TSan the runtime needs descriptors and reserves address space of its own, so
# the ulimit cases test the runtime, not pcbench: they run in the plain build only.
# ctest gives PCBENCH_SANITIZED in those builds; run by hand, the real binary (beside the
# static launcher that $pcbench is: ../libexec/pcbench/pcbench) tells.
sanitized=0
[ -n "${PCBENCH_SANITIZED:-}" ] && sanitized=1
real=$(readlink -f "$pcbench")
real=${real%/*}/../libexec/pcbench/pcbench
[ -f "$real" ] || real=$pcbench
grep -q -e __asan_init -e __tsan_init "$real" && sanitized=1
[ $sanitized = 1 ] && echo "note: a sanitizer build: the ulimit -n and -v cases are left out"

# Refusals leave nothing, whatever resource ran out first.
for n in 4 5 6 7 8 9; do
	[ $sanitized = 1 ] && break
	before=$(listing)
	(ulimit -n $n && exec "$pcbench" $run -o "un$n") >/dev/null 2>"$tmp/err"
	rc=$?
	# (127: the loader itself ran out, with descriptors the test's parent left open)
	if [ $rc = 2 ] || { [ $rc = 127 ] && grep -q 'error while loading shared' "$tmp/err"; }; then
		[ "$(listing)" = "$before" ] || bad "ulimit -n $n: exit $rc but left $(listing | grep un)"
	elif [ $rc -gt 1 ]; then
		bad "ulimit -n $n: exit $rc"
	fi
	rm -rf "un$n"
done

# results/latest: a regular file or a directory is refused before measuring.
mkdir results
echo mine >results/latest
before=$(listing)
"$pcbench" $run >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q 'results/latest: not a symbolic link' "$tmp/err" || bad "latest file: exit $rc"
[ "$(listing)" = "$before" ] && [ "$(cat results/latest)" = mine ] || bad "latest file: changed"
"$pcbench" $run -o results/named >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ ! -e results/named ] || bad "latest file, -o results/named: exit $rc"
rm results/latest
mkdir results/latest
"$pcbench" $run >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ "$(listing)" = "$before" ] || bad "latest directory: exit $rc"
rm -rf results

# A thread that cannot be created: an error row, exit 1, context.json ended (ulimit -v
# 15000 with -t 1,2 was SIGABRT, rc 134; the limits around it start nothing, or all).
found=0
for v in 15000 20000 25000; do
	[ $sanitized = 1 ] && found=1 && break
	(ulimit -v $v && exec "$pcbench" -s page_counter -p v6.0-rc1 -w direct -t 1,2 -r 1 \
		--time 0.01 --events none -o "vlim$v") >/dev/null 2>"$tmp/err"
	rc=$?
	case $rc in
	0 | 2) ;; # everything ran, or refused at start-up (checked above: nothing left)
	1)
		grep -q '"end_time": "' "vlim$v/context.json" 2>/dev/null ||
			bad "ulimit -v $v: exit 1 without context.json's end"
		grep -q 'cannot start 2 threads' "vlim$v/results.csv" && found=1
		;;
	*) bad "ulimit -v $v: exit $rc" ;;
	esac
done
[ $found = 1 ] || echo "note: no address-space limit here left the second thread uncreatable"

# --force on a directory another live run holds: refused, the live run untouched.
"$pcbench" -s page_counter -p v6.0-rc1 -w direct -t 1 -r 1 --time 2 --events none \
	--design independent -o held >/dev/null 2>"$tmp/held.err" &
pid=$!
i=0
while [ ! -e held/run.lock ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
"$pcbench" $run -o held --force >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q 'another pcbench run is writing into it' "$tmp/err" ||
	bad "--force on a held directory: exit $rc"
wait $pid
rc=$?
[ $rc -le 1 ] && [ "$(grep -c ',ok,\|,disturbed,' held/results.csv)" = 1 ] ||
	{ cat "$tmp/held.err" >"$tmp/err"; bad "the holding run: exit $rc"; }
[ ! -e held/run.lock ] || bad "held/run.lock left after the run"

# Control and bidi characters in a printed path come out escaped.
esc=$(printf 'a\033[2Jb')
rlo=$(printf 'x\342\200\256y')
for name in "$esc" "$rlo"; do
	"$pcbench" $run -o "$name" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] && ! grep -q "$(printf '\033\|\342\200\256')" "$tmp/err" &&
		grep -q 'x1b\|xe2\\x80\\xae' "$tmp/err" || bad "-o with ESC or U+202E: exit $rc"
done

# merge: the context.json of another run is refused; the merged files share one mode.
umask 022
"$pcbench" $run -o m1 >/dev/null 2>"$tmp/err" || [ $? = 1 ] || bad "m1"
cp -r m1 m2
sed 's/"run_id": "m1"/"run_id": "other"/' m1/context.json >m2/context.json
"$pcbench" merge m2 -o merged >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "run_id other is none of its rows' run_id" "$tmp/err" && [ ! -e merged ] ||
	bad "merge of a foreign context.json: exit $rc"
"$pcbench" merge m1 -o merged >/dev/null 2>"$tmp/err" || bad "merge m1"
[ "$(stat -c %a merged/results.csv)" = "$(stat -c %a merged/results.jsonl)" ] &&
	[ "$(stat -c %a merged/results.csv)" = 644 ] ||
	bad "merged modes: $(stat -c %a merged/results.csv merged/results.jsonl | tr '\n' ' ')"
exit $fail
