#!/usr/bin/env python3
# Fails: answers with a word that is no verdict.
import sys

for line in sys.stdin:
    print("maybe\tnot sure", flush=True)
