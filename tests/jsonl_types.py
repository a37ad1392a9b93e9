#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""jsonl_types.py SRCDIR FILE... - load each results.jsonl with Python's json and check every
member's type against the column table: RESULTS_COLUMNS in harness/libraries/results/results.h (the
fixed columns) and col_kinds[] in harness/libraries/results/results.c (the variable families), and
that docs/results-csv.md gives each fixed column the same type. Prints each column's JSON
types; exits 1 on a mismatch."""
import json
import re
import sys

src = sys.argv[1]
fixed = dict(re.findall(r'X\(\w+, "(\w+)", RT_(\w+)\)', open(src + "/harness/libraries/results/results.h").read()))
kinds = re.findall(r'\{"(\w+)", (WHOLE|PREFIX|SUFFIX), RT_(\w+)\}', open(src + "/harness/libraries/results/results.c").read())
words = {"TEXT": "text", "INT": "integer", "NUM": "number", "PARAM": "parameter"}
fail = 0


def col_type(name):
    if name in fixed:
        return fixed[name]
    for text, how, t in kinds:
        if (how == "WHOLE" and name == text) or \
           (how == "PREFIX" and len(name) > len(text) and name.startswith(text)) or \
           (how == "SUFFIX" and len(name) > len(text) and name.endswith(text)):
            return t
    return "TEXT"


def ok(value, t):
    if value is None:
        return True  # an empty cell, whatever the type
    if t == "TEXT":
        return isinstance(value, str)
    if t == "INT":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "NUM":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    # a parameter: an integer when its text is one, else text
    return isinstance(value, int) or (isinstance(value, str) and not re.fullmatch(r"-?\d+", value))


if len(fixed) < 29 or len(kinds) < 7:
    print("FAIL: could not read the column table (%d fixed, %d kinds)" % (len(fixed), len(kinds)))
    sys.exit(1)
doc = open(src + "/docs/results-csv.md").read()
for name, t in fixed.items():
    m = re.search(r"^\| `%s` \| ([a-z]+) \|" % name, doc, re.M)
    if not m or m.group(1) != words[t]:
        print("FAIL: docs/results-csv.md: %s: want type %s, found %s" % (name, words[t], m and m.group(1)))
        fail = 1
seen = {}
for path in sys.argv[2:]:
    with open(path) as f:
        for n, line in enumerate(f, 1):
            obj = json.loads(line)
            if obj.get("schema_version") != 2:
                print("FAIL: %s:%d: schema_version %r" % (path, n, obj.get("schema_version")))
                fail = 1
            for k, v in obj.items():
                if k == "schema_version":
                    continue
                t = col_type(k)
                seen.setdefault(k, set()).add(type(v).__name__)
                if not ok(v, t):
                    print("FAIL: %s:%d: %s = %r is not %s" % (path, n, k, v, words[t]))
                    fail = 1
for k in sorted(seen):
    print("%-28s %-9s %s" % (k, words[col_type(k)], ",".join(sorted(seen[k]))))
sys.exit(fail)
