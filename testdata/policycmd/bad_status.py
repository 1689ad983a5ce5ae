#!/usr/bin/env python3
# Fails: answers every case, then exits with status 5 at the end of its
# input.
import sys

for line in sys.stdin:
    print("reject", flush=True)
print("bad_status: failing at the end", file=sys.stderr)
sys.exit(5)
