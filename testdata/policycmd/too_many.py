#!/usr/bin/env python3
# Fails: answers every case twice.
import sys

for line in sys.stdin:
    print("allow\tonce", flush=True)
    print("allow\ttwice", flush=True)
