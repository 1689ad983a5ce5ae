#!/usr/bin/env python3
# Fails: answers every case, then, at the end of its input, starts a child
# that keeps its standard output open, writes the child's process id to
# the standard error and exits.
import subprocess
import sys

for line in sys.stdin:
    print("allow", flush=True)
child = subprocess.Popen(["sleep", "300"])
print(f"leave_child: child {child.pid}", file=sys.stderr, flush=True)
