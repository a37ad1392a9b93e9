#!/bin/sh
# csv_whole.sh FILE MIN_LINES - FILE is whole CSV: it ends with a newline, every row has the
# header's column count, and it has at least MIN_LINES lines (the header included). Says
# what is wrong and exits 1 otherwise.
set -u
[ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] || { echo "FAIL: $1 ends inside a row"; exit 1; }
python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
bad = [i + 1 for i, r in enumerate(rows) if len(r) != len(rows[0])]
if len(rows) < int(sys.argv[2]) or bad:
    sys.exit("FAIL: %s: %d lines (want >= %s), lines with another column count: %s"
             % (sys.argv[1], len(rows), sys.argv[2], bad[:5]))
' "$1" "$2"
