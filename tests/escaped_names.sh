#!/bin/sh
# escaped_names.sh PCBENCH SRCDIR - a path or name holding ESC or U+202E (RIGHT-TO-LEFT
# OVERRIDE) reaches the terminal escaped (\x1b, \xe2\x80\xae; lib/esc.h) from every command:
# compare, model, merge, plot and layout show, in what they print and in their errors, and
# the measure run's own lines. Each case: no raw ESC or U+202E on stdout or stderr, and the
# name shown escaped where it is printed.
set -u
pcbench=$1 SRC=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
esc=$(printf '\033')
rlo=$(printf '\342\200\256')
bad="n${esc}[31m${rlo}x"    # ESC [31m (red), then U+202E
shown='n\x1b[31m\xe2\x80\xaex' # as pcbench prints it

# case NAME SHOWN ARGS...: run pcbench ARGS; its output holds nothing raw, and (SHOWN 1) the
# escaped name.
case_() {
	name=$1 want=$2
	shift 2
	n=$((n + 1))
	"$pcbench" "$@" >"$tmp/out" 2>&1
	rc=$?
	if grep -q "$esc" "$tmp/out" || grep -q "$rlo" "$tmp/out"; then
		echo "FAIL: $name (exit $rc): a raw ESC or U+202E reached the terminal:"
		od -c "$tmp/out" | head -n 20
		fail=1
	elif [ "$want" = 1 ] && ! grep -qF "$shown" "$tmp/out"; then
		echo "FAIL: $name (exit $rc): the name is not shown escaped:"
		cat "$tmp/out"
		fail=1
	fi
	echo "$name: exit $rc: $(grep -F -m1 "$shown" "$tmp/out")"
}

# a finished run, copied to a directory of that name (-o refuses such a name: the run_id)
"$pcbench" -s page_counter -p +ABC -w direct -t 1 -r 2 --time 0.001 -o "$tmp/run" \
	>/dev/null 2>&1 || { echo "FAIL: could not make a run"; exit 1; }
cp -r "$tmp/run" "$tmp/$bad"
# a run_id of that name in its rows and context.json
mkdir "$tmp/id"
sed "s/,run,/,$bad,/g" "$tmp/run/results.csv" >"$tmp/id/results.csv"
sed 's/"run_id": "run"/"run_id": "n\\u001b[31m\\u202ex"/' "$tmp/run/context.json" >"$tmp/id/context.json"
# a layout file of that name, with that name in its desc line
sed "s/^desc .*/desc $bad/" "$SRC/benches/layouts/page_counter-v6.0.layout" >"$tmp/$bad.layout"

case_ "compare DIR" 1 compare "$tmp/$bad"
case_ "compare run_id" 1 compare "$tmp/id"
case_ "compare two runs" 1 compare "$tmp/$bad" "$tmp/id"
case_ "compare error" 1 compare "$tmp/nosuch$bad"
case_ "merge -o" 1 merge "$tmp/$bad" -o "$tmp/m$bad"
case_ "merge error" 1 merge "$tmp/nosuch$bad" -o "$tmp/m2"
case_ "plot" 1 plot "$tmp/$bad" -o "$tmp/p$bad"
case_ "plot error" 1 plot "$tmp/nosuch$bad"
case_ "layout show" 1 layout show "$tmp/$bad.layout"
case_ "layout show error" 1 layout show "$tmp/nosuch$bad.layout"
case_ "layout show -D" 1 layout show -s page_counter -p +ABC -w direct "-Dlayout=$tmp/$bad.layout" \
	"$tmp/$bad.layout"
# (the model's tables name no layout file: nothing raw is all there is to check)
case_ "model -D layout=" 0 model -s page_counter -p +ABC -w direct -t 2 --ops 10 \
	-D "layout=$tmp/$bad.layout" --lines all
case_ "model -P" 1 model -s page_counter -p +ABC -w direct -t 2 --ops 10 -P "core:0-1$bad"
case_ "model error" 1 model -s page_counter -p +ABC -w direct -t 2 --ops 10 \
	--csv "$tmp/nodir$bad/m.csv"
case_ "measure --layout" 1 -s page_counter -p +ABC -w direct -t 1 -r 1 --time 0.001 \
	--layout "$tmp/$bad.layout" -o "$tmp/r2"
case_ "measure error" 1 -s page_counter -p +ABC -w direct -t 1 -r 1 --time 0.001 \
	--csv "$tmp/nodir$bad/all.csv" -o "$tmp/r3"
[ $fail -eq 0 ] && echo "escaped names: ok ($n cases)"
exit $fail
