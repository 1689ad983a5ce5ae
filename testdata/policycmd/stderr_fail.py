#!/usr/bin/env python3
# Fails: answers the first case, then raises an exception on the second,
# whose traceback goes to the standard error.
import sys

for n, line in enumerate(sys.stdin):
    if n == 1:
        raise ValueError("stderr_fail: cannot judge " + line.strip())
    print("allow", flush=True)
