"""The child process of spawned.py: `python -m aicnet_gui.spawned_worker`.

Its own module, which nothing imports: run with `-m`, a module the package imports already
would be executed a second time and Python would warn about it.
"""

import os
import sys

from .spawned import serve_one

if __name__ == "__main__":
    # the result goes out on a copy of stdout; anything printed (a warning) goes to stderr
    results = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.exit(serve_one(sys.stdin.buffer, results))
