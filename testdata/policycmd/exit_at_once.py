#!/usr/bin/env python3
# Fails: exits at once, before reading anything, with a message.
import sys

print("exit_at_once: no rule here", file=sys.stderr)
sys.exit(3)
