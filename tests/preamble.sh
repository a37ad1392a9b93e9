# preamble.sh - sourced first by the shell tests that take PCBENCH SRCDIR: both made
# absolute, $tmp a fresh directory removed on exit, $fail 0, and no MESSAGE (one failed
# check: a FAIL line, fail=1). Source it as: . "${0%/*}/preamble.sh"
pcbench=$1
src=${2:-}
case $pcbench in /*) ;; *) pcbench=$(pwd)/$pcbench ;; esac
case $src in /* | '') ;; *) src=$(pwd)/$src ;; esac
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() {
	echo "FAIL: $*"
	fail=1
}
# skip_without_perf - exit 77 with the reason when perf_event_open is not there at all
# (ENOSYS: qemu-user, a container or kernel without it): pcbench cannot open even the
# software task clock (its --list-events says why).
skip_without_perf() {
	if "$pcbench" --list-events 2>/dev/null | grep -q '^task_clock .*no: perf_event_open ENOSYS'; then
		echo "SKIP: perf_event_open is ENOSYS here (qemu-user, a container): no counters, no sampling"
		exit 77
	fi
}
