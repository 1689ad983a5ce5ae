#!/usr/bin/env python3
# Answers every case with its own line: the verdict "reject" and, as the
# reason, the case as it arrived, with Windows line ends.
import sys

for line in sys.stdin.buffer:
    sys.stdout.buffer.write(b"reject\t" + line.rstrip(b"\n") + b"\r\n")
    sys.stdout.buffer.flush()
