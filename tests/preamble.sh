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
