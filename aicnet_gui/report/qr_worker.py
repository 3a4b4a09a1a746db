"""A QR worker process of qr_pool.py: `python -m aicnet_gui.report.qr_worker`.

Its own module, which nothing imports: run with `-m`, a module the package imports already
(qr_pool, through plan_pdf.py) would be executed a second time and Python would warn about it.
"""

import os
import sys

from .qr_pool import serve_requests

if __name__ == "__main__":
    # the codes go out on a copy of stdout; anything printed (a warning) goes to stderr
    codes_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve_requests(sys.stdin.buffer, codes_out)
