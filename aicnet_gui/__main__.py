"""`python -m aicnet_gui` starts the GUI."""

import sys

from .gui.app import main

sys.exit(main())
