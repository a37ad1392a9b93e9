#!/bin/sh
# parse_linear.sh PCBENCH - layout files and pahole text parse in time linear in their size
# (issue 35): generated inputs near each size limit, under a CPU-time limit (ulimit -t: CPU
# seconds, which a busy machine does not inflate the way it does wall time) far above what
# a linear parse takes and far below what the quadratic one took (on the 2-vCPU VM this was
# written on):
#  - a layout file of about 1 MiB (the limit), one struct of 57000 fields: `layout show`
#    took 8.6 CPU s (37 s wall measured in the issue), 0.2 CPU s now: the bound is 5;
#  - pahole text of about 16 MiB (the limit), one struct of 230000 members: `layout import`
#    took over 60 s at 2.4 MB, 1.5 CPU s now: the bound is 15.
set -u
pcbench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

awk 'BEGIN {
	n = 57000
	print "layout big"
	printf "struct wide size %d align 8\n", n * 8
	for (i = 0; i < n; i++)
		printf "  f%d %d 8\n", i, i * 8
	print "end"
}' >"$tmp/big.layout"
size=$(wc -c <"$tmp/big.layout")
[ "$size" -gt 900000 ] && [ "$size" -le 1048576 ] || { echo "FAIL: layout of $size bytes"; fail=1; }
(ulimit -t 5 && exec "$pcbench" layout show "$tmp/big.layout") >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc != 0 ] || ! grep -q 'f56999' "$tmp/out"; then
	echo "FAIL: layout show of a $size-byte layout: exit $rc (137 or 152: over 5 CPU s)"
	head -n 3 "$tmp/err"
	fail=1
fi

awk 'BEGIN {
	n = 230000
	print "struct huge {"
	for (i = 0; i < n; i++)
		printf "\tlong int                   m%d;             /* %8d     8 */\n", i, i * 8
	printf "\n\t/* size: %d, cachelines: %d, members: %d */\n", n * 8, n * 8 / 64, n
	print "};"
}' >"$tmp/huge.txt"
size=$(wc -c <"$tmp/huge.txt")
[ "$size" -gt 14000000 ] && [ "$size" -le 16777216 ] || { echo "FAIL: pahole text of $size bytes"; fail=1; }
(ulimit -t 15 && exec "$pcbench" layout import "$tmp/huge.txt" -o "$tmp/huge.layout") \
	>/dev/null 2>"$tmp/err"
rc=$?
if [ $rc != 0 ] || ! grep -q 'm229999' "$tmp/huge.layout"; then
	echo "FAIL: layout import of $size bytes of pahole text: exit $rc (over 15 CPU s?)"
	head -n 3 "$tmp/err"
	fail=1
fi
exit $fail
