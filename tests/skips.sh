#!/bin/sh
# skips.sh [BUILD_DIR] - after ctest: each skipped test's reason (its "SKIP: ..." lines, from
# Testing/Temporary/LastTest.log), so that the CI log says why a test did not run (ctest
# --output-on-failure prints only failures' output). A test skips only for missing
# hardware or privileges; a missing command or package is a failure.
log=${1:-.}/Testing/Temporary/LastTest.log
[ -r "$log" ] || exit 0
awk '/^[0-9]+\/[0-9]+ Test: / { t = $3 } /^SKIP/ { print "skipped: " t ": " $0; n++ }
     END { if (!n) print "skipped: none" }' "$log"
