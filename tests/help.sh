#!/bin/sh
# help.sh PCBENCH - the command table's contract: `pcbench --help` lists every command of
# `pcbench help --commands` with one line each; every command has a help text (`pcbench help
# CMD`, the same as `pcbench CMD --help`) and an option table (`pcbench help --options`),
# and every option of the table appears in its command's help; --version names the
# version, the git revision and the libraries.
set -u
pcbench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

"$pcbench" help --commands >"$tmp/commands" || { echo "FAIL: help --commands"; fail=1; }
"$pcbench" help --options >"$tmp/options" || { echo "FAIL: help --options"; fail=1; }
"$pcbench" --help >"$tmp/help" || { echo "FAIL: --help"; fail=1; }
[ -s "$tmp/commands" ] || { echo "FAIL: no commands"; fail=1; }
while IFS="	" read -r cmd summary; do
	[ -n "$summary" ] || { echo "FAIL: $cmd: no summary"; fail=1; }
	grep -q "^  $cmd  *$summary\$" "$tmp/help" || { echo "FAIL: --help lacks $cmd"; fail=1; }
	"$pcbench" help "$cmd" >"$tmp/h-$cmd" 2>&1 || { echo "FAIL: help $cmd: exit $?"; fail=1; }
	grep -q "^usage: pcbench" "$tmp/h-$cmd" || { echo "FAIL: help $cmd: no usage"; fail=1; }
	"$pcbench" "$cmd" --help >"$tmp/d-$cmd" 2>&1
	cmp -s "$tmp/h-$cmd" "$tmp/d-$cmd" || { echo "FAIL: help $cmd != $cmd --help"; fail=1; }
	grep -q "^$cmd[	 ]" "$tmp/options" || { echo "FAIL: $cmd: no option table"; fail=1; }
done <"$tmp/commands"
# Every option row (also of subcommands: "layout import") is in its command's help text.
# (Fields: command, -S, --long, ARG, help; tabs, empty fields kept, so split with awk.)
awk -F '\t' '{ split($1, w, " "); print w[1] "\t" $3 "\t" ($5 == "" ? "-" : "ok") }' \
	"$tmp/options" >"$tmp/rows"
while IFS="	" read -r top long help; do
	grep -q -- "$long" "$tmp/h-$top" || { echo "FAIL: help $top lacks $long"; fail=1; }
	[ "$help" = ok ] || { echo "FAIL: $top $long: no help text"; fail=1; }
done <"$tmp/rows"
"$pcbench" help nosuch >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: help nosuch: want exit 2"; fail=1; }
"$pcbench" --version >"$tmp/version" || { echo "FAIL: --version"; fail=1; }
grep -q "^pcbench [0-9]" "$tmp/version" && grep -q "^git revision " "$tmp/version" &&
	grep -q "hwloc" "$tmp/version" && grep -q "libpfm4" "$tmp/version" ||
	{ echo "FAIL: --version"; cat "$tmp/version"; fail=1; }
exit $fail
