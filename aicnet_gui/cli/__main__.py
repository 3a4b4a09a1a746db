"""`python -m aicnet_gui.cli` is the same as `aicnet`."""

import sys

from . import main

sys.exit(main())
