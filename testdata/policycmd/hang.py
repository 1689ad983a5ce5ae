#!/usr/bin/env python3
# Fails: starts a child that shares its output, writes its own process id
# and the child's to the standard error, then reads cases and never
# answers.
import os
import subprocess
import sys
import time

child = subprocess.Popen(["sleep", "300"])
print(f"hang: pid {os.getpid()}, child {child.pid}", file=sys.stderr, flush=True)
for line in sys.stdin:
    time.sleep(300)
