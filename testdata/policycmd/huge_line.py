#!/usr/bin/env python3
# Fails: answers with a line of 2 MiB.
import sys

for line in sys.stdin:
    print("allow\t" + "x" * (2 << 20), flush=True)
