#!/bin/sh
# skips.sh [CTEST_DIR] - after ctest: each skipped test's reason (its "SKIP: ..." lines, from
# Testing/Temporary/LastTest.log), so that the CI log says why a test did not run (ctest
# --output-on-failure prints only failures' output), and each failed test's build: make
# test's one ctest runs tests of the same name in three builds (build-ci). A test skips
# only for missing hardware or privileges; a missing command or package is a failure.
log=${1:-.}/Testing/Temporary/LastTest.log
[ -r "$log" ] || exit 0
awk '/^[0-9]+\/[0-9]+ Test: / { t = $3; b = "" }
     /^Directory: / { b = $0; sub(/^Directory: /, "", b); sub(/\/tests(\/.*)?$/, "", b); sub(/.*\//, "", b) }
     /^SKIP/ { print "skipped: " t " (" b "): " $0; n++ }
     /^Test Failed/ { print "failed: " t " (" b ")" }
     END { if (!n) print "skipped: none" }' "$log"
