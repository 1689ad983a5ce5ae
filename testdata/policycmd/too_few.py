#!/usr/bin/env python3
# Fails: answers two cases, then closes its standard output and reads its
# input to the end, answering nothing more.
import os
import sys

for n, line in enumerate(sys.stdin):
    if n < 2:
        print("allow", flush=True)
    elif n == 2:
        sys.stdout.flush()
        os.close(1)
