"""Device and rack names from the project's naming patterns (`Settings.naming`).

`gpu-{n:03d}` stays `gpu-001` for up to 999 servers and widens to `gpu-0001` when there are
more, so that names sort and line up however large the fabric is.
"""

from __future__ import annotations

import re

from .errors import GeneratorError

_PADDED = re.compile(r"\{n:0(\d+)d\}")


def widened(pattern: str, count: int) -> str:
    """`pattern` with its zero-padding widened to fit `count` (only `{n:0Kd}` is widened)."""
    digits = len(str(max(count, 1)))

    def repl(match: re.Match[str]) -> str:
        return "{n:0" + str(max(int(match.group(1)), digits)) + "d}"

    return _PADDED.sub(repl, pattern)


def names(pattern: str, count: int, start: int = 1) -> list[str]:
    """`count` names from `pattern`, numbered from `start`."""
    wide = widened(pattern, start + count - 1)
    try:
        result = [wide.format(n=n) for n in range(start, start + count)]
    except (KeyError, IndexError, ValueError) as exc:
        raise GeneratorError(
            f"naming pattern {pattern!r} is not usable: {exc}; use {{n}} for the number, "
            "e.g. gpu-{n:03d}"
        ) from None
    if count > 1 and result[0] == result[1]:
        raise GeneratorError(f"naming pattern {pattern!r} has no {{n}}: every device gets one name")
    return result


def rack_name(row: int, position: int, rows: int, per_row: int) -> str:
    """`R03-07`: row and position, zero-padded to the largest number on the floor."""
    return f"R{row:0{max(2, len(str(rows)))}d}-{position:0{max(2, len(str(per_row)))}d}"
