#!/usr/bin/env python3
# Fails: answers every case, but does not exit at the end of its input.
import sys
import time

for line in sys.stdin:
    print("allow", flush=True)
time.sleep(300)
