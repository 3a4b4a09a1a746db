"""Dialogs: bulk connect, new from template, recovery and error messages."""
