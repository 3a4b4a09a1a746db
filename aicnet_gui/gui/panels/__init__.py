"""Dock panels of the main window: the catalog palette and the inspector."""
