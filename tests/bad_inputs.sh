#!/bin/sh
# bad_inputs.sh PCBENCH SRCDIR - run every case of bad_inputs.tbl: exit code, message, and
# no file created or changed that the case should not touch. pcbench runs in a scratch
# directory ($TMP/cwd: a run would make results/ and results/latest there), and the state
# compared before and after every exit-2 case is every directory under $TMP (its mode),
# and every file, symlink and FIFO with its type, link target, size, mode, inode and
# modification and change times in ns: a file created, removed, renamed over, written to or
# chmod'ed shows, as with a checksum of each file (the listing costs one find, not the
# md5sum of every file twice per case). Each case forks as few helpers as it can (182 cases:
# under ASan a process start is ~84 ms of CPU for pcbench, ~5 ms for a helper on a busy VM):
# stderr goes to $ERR, outside $TMP (no rm before the listing), stdout to /dev/null.
set -u
pcbench=$1 SRC=$2
TMP=$(mktemp -d)
ERR=$(mktemp) || exit 1
trap 'rm -rf "$TMP" "$ERR"' EXIT
fail=0 n=0

"$pcbench" -s page_counter -p +ABC -w direct -t 1 -r 1 --time 0.001 -o "$TMP/exists" \
	>/dev/null 2>&1 || { echo "FAIL: could not prepare $TMP/exists"; exit 1; }
printf 'a,b\n1,2\n' >"$TMP/other.csv"
# A --csv file whose last row is malformed (2 cells).
{ cat "$TMP/exists/results.csv"; echo 'x,y'; } >"$TMP/torn.csv"
# A layout path with a space in it.
cp "$SRC/benches/layouts/page_counter-v6.0.layout" "$TMP/my layout.layout"
mkdir "$TMP/cwd"
mkfifo "$TMP/fifo"
printf '# a topology file with no description\n\n' >"$TMP/comments.synthetic"
# A layout whose struct could never be allocated: refused before anything is created.
sed 's/^struct mem_cgroup size [0-9]*/struct mem_cgroup size 4000000000/' \
	"$SRC/benches/layouts/page_counter-v6.0.layout" >"$TMP/huge.layout"
# A layout without mem_cgroup.socket_pressure: page_counter's socket workload refuses it, its
# other workloads take it (--layout is checked against the selected presets and workloads).
grep -v socket_pressure "$SRC/benches/layouts/page_counter-v6.1.layout" >"$TMP/nosocket.layout"
# The first row twice: the same measurement counted as two samples.
{ head -n 2 "$TMP/exists/results.csv"; sed -n 2p "$TMP/exists/results.csv"; } >"$TMP/dup.csv"

# Impossible values (issue 35): the first row of the finished run with COL set to VALUE,
# as $TMP/val-NAME.csv (setcol NAME COL VALUE).
setcol() {
	awk -F, -v OFS=, -v c="$2" -v v="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i }
		NR == 2 { $k = v } NR <= 2' "$TMP/exists/results.csv" >"$TMP/val-$1.csv"
}
setcol neg ops_per_s -5
setcol hex ops_per_s 0x10
setcol inf ops_per_s inf
setcol huge ops_per_s 1e308
setcol over ops_per_s 2e15
setcol ns ns_per_op -1
setcol nsinf ns_per_op 1e999
setcol thr threads -1
setcol thr0 threads 0

# merge -o DIR where DIR/contexts is planted: a link elsewhere, a FIFO, a file (issue 35).
mkdir "$TMP/elsewhere" "$TMP/mlink" "$TMP/mfifo" "$TMP/mfile"
ln -s ../elsewhere "$TMP/mlink/contexts"
mkfifo "$TMP/mfifo/contexts"
: >"$TMP/mfile/contexts"

state() { find "$TMP" \( -type d -printf '%y %p %m\n' \) -o -printf '%y %p -> %l %s %m %i %T@ %C@\n' | sort; }
# The state after an exit-2 case is the next case's state before (nothing else writes under
# $TMP between them): one listing per case, not two.
before=

while IFS= read -r line; do
	case "$line" in '#'* | '') continue ;; esac
	code=${line%% | *}
	rest=${line#* | }
	frag=${rest%% | *}
	args=${rest#* | }
	eval "frag=\"$frag\""
	[ -n "$before" ] || before=$(state)
	eval "set -- $args"
	(cd "$TMP/cwd" && exec "$pcbench" "$@") >/dev/null 2>"$ERR"
	rc=$?
	n=$((n + 1))
	if [ "$rc" -ne "$code" ] || ! grep -qF -- "$frag" "$ERR"; then
		echo "FAIL: pcbench $args: exit $rc (want $code), stderr:"
		sed 's/^/    /' "$ERR" | head -n 8
		echo "    (want a line containing: $frag)"
		fail=1
	fi
	after=
	[ "$code" -eq 2 ] && after=$(state)
	if [ "$code" -eq 2 ] && [ "$after" != "$before" ]; then
		echo "FAIL: pcbench $args created or changed files under $TMP"
		fail=1
	fi
	before=$after
done <"$SRC/tests/bad_inputs.tbl"
# The good side of "one -D is one parameter": a layout path with a space loads.
"$pcbench" -s page_counter -p +ABC -w direct -t 1 --dry-run -D "layout=$TMP/my layout.layout" \
	>/dev/null 2>"$ERR" || { echo "FAIL: -D layout= with a space:"; cat "$ERR"; fail=1; }
# The good side of "--layout must suit the selected workloads": without the socket workload,
# page_counter takes the layout, named or not.
for sel in "-s page_counter -w direct" "-w direct,stocked"; do
	# shellcheck disable=SC2086 # $sel is two options
	"$pcbench" $sel -t 1 --dry-run --layout "$TMP/nosocket.layout" >/dev/null 2>"$ERR" ||
		{ echo "FAIL: $sel --layout nosocket.layout:"; cat "$ERR"; fail=1; }
done
echo "$n bad-input cases checked"
[ "$n" -ge 30 ] || { echo "FAIL: fewer than 30 cases"; fail=1; }
exit $fail
