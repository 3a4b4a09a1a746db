"""The one error a generator raises: parameters that cannot produce a fabric, and why."""

from __future__ import annotations


class GeneratorError(ValueError):
    """Impossible or inconsistent generator parameters.

    The message says what is impossible, why (the port arithmetic that fails) and what would
    work instead; the CLI prints it and exits with code 2, the GUI wizard shows it.
    `generate_advice` ends it with a way out only `aicnet generate` and its wizard offer (no
    media: `--no-media`); `reason` is the message without it, for a caller that has no such
    option (a migration plan).
    """

    def __init__(self, message: str, generate_advice: str = "") -> None:
        super().__init__(message + generate_advice)
        self.reason = message
