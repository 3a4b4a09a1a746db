"""`python -m aicnet_gui.cli` is the same as `aicnet`."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
