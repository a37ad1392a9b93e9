#!/bin/sh
# manpages.sh PCBENCH SRCDIR BUILDDIR - the man pages scripts/gen-man made in BUILDDIR/man:
# pcbench(1) and, for every command of the command table (pcbench help --commands), its page
# pcbench-CMD(1), plain and gzip'd. Each renders without a warning (man --warnings, as lintian
# runs it, at 80 and 120 columns; groff -ww), has NAME, SYNOPSIS, DESCRIPTION, EXIT STATUS,
# ENVIRONMENT, FILES and SEE ALSO, lists in EXIT STATUS every status its command's --help
# names (and has not the --help's "Exit status:" paragraph too), and names every other page
# in SEE ALSO. A missing man or groff is a failure (scripts/install-deps).
set -u
. "${0%/*}/preamble.sh"
build=$3
man=$build/man
for t in man groff help2man; do
	command -v $t >/dev/null 2>&1 || { no "no $t (scripts/install-deps)"; exit 1; }
done
"$pcbench" help --commands | cut -f 1 >"$tmp/cmds"
[ -s "$tmp/cmds" ] || { no "help --commands lists nothing"; exit 1; }
pages="pcbench $(sed 's/^/pcbench-/' "$tmp/cmds" | tr '\n' ' ')"
lab=""
for h in "$src"/docs/man/pcbench-*.h2m; do
	p=$(basename "$h" .h2m)
	case " $pages pcbench-measure " in *" $p "*) ;; *) lab="$lab $p" ;; esac
done
[ -n "$lab" ] || no "no lab command page in $src/docs/man"

# exit_codes - the single digits in the "Exit status:" paragraph of a help text on stdin
exit_codes() {
	awk 'BEGIN { RS = "" } i = index($0, "Exit status:") { print substr($0, i) }' |
		grep -o '\<[0-9]\>' | sort -u | tr '\n' ' '
}
# page_codes - the statuses the EXIT STATUS section of a page (roff, stdin) lists (.TP items)
page_codes() {
	awk '/^\.SH / { s = $0 ~ /EXIT STATUS/; next } s && tp && /^\.BR? / { print } { tp = $0 == ".TP" }' |
		grep -o '\<[0-9]\>' | sort -u | tr '\n' ' '
}

# help_of PAGE - the --help text of PAGE's command: pcbench [CMD] --help, or a lab command's
help_of() {
	case " $lab " in
	*" $1 "*) "$build/$1" --help ;;
	*)
		cmd=${1#pcbench}
		"$pcbench" ${cmd#-} --help
		;;
	esac
}

for p in $pages $lab; do
	case " $lab " in *" $p "*) f=$build/$p.1 ;; *) f=$man/$p.1 ;; esac
	[ -s "$f" ] && [ -s "$f.gz" ] || { no "$p: no $f and $f.gz"; continue; }
	zcat "$f.gz" | cmp -s - "$f" || no "$p: $f.gz is not $f"
	for w in 80 120; do
		MANWIDTH=$w man --warnings -E UTF-8 -l -Tutf8 -Z "$f.gz" 2>"$tmp/warn" >"$tmp/out.txt"
		[ -s "$tmp/warn" ] && { no "$p: man --warnings at $w columns:"; cat "$tmp/warn"; }
	done
	# the --help's "Exit status:" paragraph is said once, per status, in EXIT STATUS (its
	# text anywhere in the page's source, not only where it renders at a line's start)
	grep -q 'Exit status:' "$f" && no "$p: the --help's \"Exit status:\" in the page"
	groff -man -ww -z "$f" 2>"$tmp/warn"
	[ -s "$tmp/warn" ] && { no "$p: groff -ww:"; cat "$tmp/warn"; }
	# the sections, and SEE ALSO's every other page (.BR \%pcbench\-CMD (1)): one awk
	case " $lab " in *" $p "*) others="" ;; *) others=$(echo " $pages $lab " | sed "s/ $p / /") ;; esac
	awk -v others="$others" -v p="$p" 'BEGIN { FS = "\n" }
		/^\.SH / { s = substr($0, 5); gsub(/"/, "", s); have[s] = 1; see = s == "SEE ALSO"; next }
		see { text = text $0 "\n" }
		END {
			n = split("NAME,SYNOPSIS,DESCRIPTION,EXIT STATUS,ENVIRONMENT,FILES,SEE ALSO", want, ",")
			for (i = 1; i <= n; i++) if (!have[want[i]]) print "FAIL: " p ": no " want[i] " section"
			n = split(others, q, " ")
			for (i = 1; i <= n; i++) {
				r = q[i]; gsub(/-/, "\\-", r)
				if (!index(text, ".BR \\%" r " (1)")) print "FAIL: " p ": SEE ALSO lacks " q[i] "(1)"
			}
		}' "$f" >"$tmp/found"
	[ -s "$tmp/found" ] && { cat "$tmp/found"; fail=1; }
	grep -q "^\.TH $(echo "$p" | tr a-z A-Z) " "$f" || no "$p: its .TH does not name it"
	# every status the help names is in EXIT STATUS
	want=$(help_of $p | exit_codes)
	[ -n "$want" ] || no "$p: its --help names no exit status"
	got=$(page_codes <"$f")
	for c in $want; do
		case " $got" in *" $c "*) ;; *) no "$p: EXIT STATUS lacks $c (--help names $want; page: $got)" ;; esac
	done
	# a lab command's SEE ALSO: pcbench(1)
	case " $lab " in
	*" $p "*)
		sed -n '/^\.SH "SEE ALSO"/,/^\.SH/p' "$f" >"$tmp/see"
		grep -q '^\.BR \(\\%\)\{0,1\}pcbench (1)' "$tmp/see" || no "$p: SEE ALSO lacks pcbench(1)"
		;;
	esac
done
# the rendered page of a command says what the man reader sees
MANWIDTH=80 man -l "$man/pcbench-compare.1" 2>/dev/null | grep -q '^EXIT STATUS' ||
	no "pcbench-compare(1) does not render its EXIT STATUS"
[ $fail -eq 0 ] && echo "manpages: ok ($(echo $pages $lab | wc -w) pages)"
exit $fail
