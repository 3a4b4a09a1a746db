"""The Qt user interface: the only package of aicnet that imports PySide6."""
