#!/usr/bin/env python3
# Fails: answers two cases, then exits with status 4 without a word.
import os
import sys

for n, line in enumerate(sys.stdin):
    if n == 2:
        os._exit(4)
    print("allow", flush=True)
