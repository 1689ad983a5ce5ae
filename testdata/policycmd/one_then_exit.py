#!/usr/bin/env python3
# Fails: answers one case, then exits with status 0 before its input ends.
import sys

sys.stdin.readline()
print("allow", flush=True)
