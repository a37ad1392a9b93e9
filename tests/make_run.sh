#!/bin/sh
# make_run.sh SRCDIR - scripts/make-run, what `make run` runs after the build, against a
# stand-in pcbench (never `make run` itself: it would install packages and rebuild the tree
# under test). pcbench's 0 and 5 (no verdict) end 0, after the plots; 1 plots and fails;
# 2, 3 and 4 fail with their own status; the arguments reach pcbench.
set -u
. "${0%/*}/preamble.sh"
script=$1/scripts/make-run
mkdir "$tmp/bin" "$tmp/run"
# the stand-in: `plot DIR` says it wrote two PNGs; a run writes the run directory to the
# --run-dir-file and exits $STUB_STATUS, keeping its arguments in args.txt
cat >"$tmp/bin/pcbench" <<STUB
#!/bin/sh
if [ "\$1" = plot ]; then echo "wrote \$2/a.png"; echo "wrote \$2/b.png"; echo plotted >"$tmp/plotted"; exit 0; fi
[ "\$1" = --run-dir-file ] || exit 99
echo "$tmp/run" >"\$2"
shift 2
echo "\$*" >"$tmp/args.txt"
echo "1 of 6 comparisons without a verdict (too few clean blocks): run longer with --budget 180"
exit \${STUB_STATUS:-0}
STUB
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/gnuplot"
chmod +x "$tmp/bin/pcbench" "$tmp/bin/gnuplot"

for want in 0:0:yes 5:0:yes 1:1:yes 2:2:no 3:3:no 4:4:no; do
	st=${want%%:*}
	rest=${want#*:}
	exp=${rest%%:*}
	plots=${rest#*:}
	rm -f "$tmp/plotted" "$tmp/args.txt"
	out=$(PATH="$tmp/bin:$PATH" STUB_STATUS=$st sh "$script" "$tmp/bin/pcbench" -s page_counter -t 2)
	got=$?
	[ "$got" -eq "$exp" ] || no "pcbench exit $st: make-run exits $got, want $exp"
	[ "$(cat "$tmp/args.txt" 2>/dev/null)" = "-s page_counter -t 2" ] ||
		no "pcbench exit $st: the arguments did not reach pcbench: $(cat "$tmp/args.txt" 2>/dev/null)"
	if [ "$plots" = yes ]; then
		[ -f "$tmp/plotted" ] || no "pcbench exit $st: no plots"
		printf '%s\n' "$out" | grep -qx "plots: 2 PNGs in $tmp/run" ||
			no "pcbench exit $st: no plots line: $out"
	else
		[ -f "$tmp/plotted" ] && no "pcbench exit $st: plotted a run that did not end"
	fi
	printf '%s\n' "$out" | grep -q '^1 of 6 comparisons without a verdict' ||
		no "pcbench exit $st: pcbench's own lines did not pass through: $out"
done
# Without gnuplot: said, and the status is still the run's.
out=$(PATH="$tmp/nobin:/usr/bin:/bin" STUB_STATUS=5 sh "$script" "$tmp/bin/pcbench")
got=$?
[ "$got" -eq 0 ] || no "without gnuplot, pcbench exit 5: make-run exits $got, want 0"
if ! PATH=/usr/bin:/bin command -v gnuplot >/dev/null 2>&1; then
	printf '%s\n' "$out" | grep -q 'gnuplot is not installed' || no "without gnuplot: not said: $out"
fi
# No arguments: usage, exit 2.
sh "$script" >/dev/null 2>&1
[ $? -eq 2 ] || no "make-run without arguments: want exit 2"
exit $fail
