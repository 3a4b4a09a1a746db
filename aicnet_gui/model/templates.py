"""The small template language of port-name and device-name patterns, checked when read.

A pattern is text with placeholders: `swp{cage}s{leg0}`, `{cage}/{leg}`, `gpu-{n:03d}`.  A
placeholder is a known name, optionally with a zero-padded width of at most 9 digits
(`{n:03d}`, `{cage:2}`); `{{` and `}}` stand for braces.  Nothing else is allowed: no positional
fields (`{0}`, `{}`), no attribute or index lookups, no conversions (`!r`), no alignment or fill,
no widths that make a name of a million characters, no control characters (the names it makes
are names: text_safety.py).  Every pattern this accepts is a valid
`str.format` pattern whose result is at most `MAX_PATTERN + 9 x placeholders` characters, so the
code that formats it needs no guard of its own.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from .limits import MAX_PATTERN
from .text_safety import control_problem

_FIELD = re.compile(r"\{([^{}]*)\}")
_SPEC = re.compile(r"^0?[1-9]?d?$")


def template_error(pattern: str, names: Collection[str]) -> str | None:
    """Why `pattern` is not a template over `names`, or None when it is one."""
    if len(pattern) > MAX_PATTERN:
        return f"a pattern is at most {MAX_PATTERN} characters (this one has {len(pattern)})"
    control = control_problem(pattern)
    if control is not None:  # the names it makes are names: one line of printable text
        return control
    allowed = ", ".join("{" + name + "}" for name in sorted(names))
    rest = pattern.replace("{{", "").replace("}}", "")
    for match in _FIELD.finditer(rest):
        name, _, spec = match.group(1).partition(":")
        if name not in names:
            return f"unknown placeholder {{{match.group(1)}}}; use {allowed}"
        if not _SPEC.match(spec):
            return (f"placeholder {{{match.group(1)}}}: the only format is a zero-padded width "
                    f"of 1-9 digits, e.g. {{{name}:03d}}")
    if "{" in _FIELD.sub("", rest) or "}" in _FIELD.sub("", rest):
        return "unbalanced brace; write {{ and }} for a literal brace"
    return None


def check_template(pattern: str, names: Collection[str]) -> str:
    """`pattern` if it is a template over `names`; ValueError (for pydantic) otherwise."""
    error = template_error(pattern, names)
    if error is not None:
        raise ValueError(error)
    return pattern
