#!/usr/bin/env python3
"""A prerel policy command: a version is admitted when it satisfies every
comparator by SemVer precedence and, if it is a prerelease, when some
comparator of the constraint names a prerelease."""
import re
import sys

NUM = r"(0|[1-9][0-9]*)"
IDENT = r"(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)"
VERSION = re.compile(rf"v?{NUM}(?:\.{NUM}(?:\.{NUM})?)?(?:-({IDENT}(?:\.{IDENT})*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?")
COMPARATOR = re.compile(r"[ \t]*(!=|>=|<=|~>|=|>|<)?[ \t]*([^ \t]+)[ \t]*")


def parse(text, parts_needed=1):
    """The precedence key of a version, its written precision, and whether it is a prerelease."""
    m = VERSION.fullmatch(text)
    parts = 0 if m is None else 3 - m.group(1, 2, 3).count(None)
    if parts < parts_needed:
        raise ValueError(f"not a version: {text!r}")
    pre = m.group(4)
    ids = () if pre is None else tuple((0, int(i), "") if i.isdigit() else (1, 0, i) for i in pre.split("."))
    return tuple(int(n or 0) for n in m.group(1, 2, 3)) + (pre is None, ids), parts, pre is not None


def holds(op, c, parts, v):
    if op == "~>":
        upper = (c[0], c[1] + 1, 0, True, ()) if parts == 3 else (c[0] + 1, 0, 0, True, ())
        return c <= v < upper
    return {"=": v == c, "!=": v != c, ">": v > c, ">=": v >= c, "<": v < c, "<=": v <= c}[op]


def judge(constraint, version):
    v, _, prerelease = parse(version, 3)
    comparators = []
    for text in constraint.split(",") if constraint.strip(" \t") else []:
        m = COMPARATOR.fullmatch(text)
        if m is None:
            raise ValueError(f"not a comparator: {text!r}")
        comparators.append((m.group(1) or "=", *parse(m.group(2)), text.strip(" \t")))
    for op, c, parts, _, text in comparators:
        if not holds(op, c, parts, v):
            return "reject", f"fails {text}"
    if prerelease and not any(names for _, _, _, names, _ in comparators):
        return "reject", "a prerelease, and no comparator names one"
    return "allow", "every comparator holds"


for line in sys.stdin:
    constraint, version = line.rstrip("\n").split("\t")
    try:
        verdict, reason = judge(constraint, version)
    except ValueError as e:
        verdict, reason = "invalid", str(e)
    print(verdict, reason, sep="\t", flush=True)
