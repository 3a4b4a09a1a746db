"""Child-process code that holds a write of `fileio/atomic.py` at the moment its temp file
exists and is being locked: the child prints "locked" and waits for a line on stdin, so a test
sends its signal into the narrowest window of the write every time, on any machine.

`HOLD_AT_LOCK` expects the module as `atomic` and replaces its `_lock` (the first blocking
lock, the temp file's, waits; the stale-temp checks' non-blocking locks do not)."""

HOLD_AT_LOCK = """
import sys
real_lock, waited = atomic._lock, []
def lock_then_wait(fd, blocking):
    taken = real_lock(fd, blocking)
    if blocking and not waited:
        waited.append(True)
        print("locked", flush=True)
        sys.stdin.readline()
    return taken
atomic._lock = lock_then_wait
"""
