"""Entry script of the PyInstaller bundle: starts the aicnet GUI."""

import sys

from aicnet_gui.gui.app import main

if __name__ == "__main__":
    sys.exit(main())
