"""The one error a generator raises: parameters that cannot produce a fabric, and why."""

from __future__ import annotations


class GeneratorError(ValueError):
    """Impossible or inconsistent generator parameters.

    The message says what is impossible, why (the port arithmetic that fails) and what would
    work instead; the CLI prints it and exits with code 2, the GUI wizard shows it.
    """
