"""`aicnet catalog show ID` as a person reads it: one catalog entry as a data sheet.

The entry's fields (every one, as `--json` gives them) are written as labelled lines: who makes
it and its part numbers first, then whether it was verified and against which document, the
facts (a field no public document states reads "not stated"), each cage group or nested table
indented under its name, what no public document states, and the notes wrapped to the terminal.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from typing import Any

#: written first, in this order, on the head lines
HEAD = ("kind", "id", "vendor", "model", "part_numbers")
#: written last, as paragraphs
TAIL = ("source", "notes")
LABEL_WIDTH = 22


#: a field name's unit suffix, written as the unit ("power_max_w" -> "power max (W)")
UNITS = {"_w": "W", "_kw": "kW", "_m": "m", "_ru": "RU", "_gbps": "Gb/s", "_tbps": "Tb/s",
         "_usd": "USD", "_db": "dB", "_kg": "kg", "_mb": "MB"}


def _label(key: str) -> str:
    for suffix, unit in UNITS.items():
        if key.endswith(suffix) and len(key) > len(suffix):
            return f"{key[: -len(suffix)].replace('_', ' ')} ({unit})"
    return key.replace("_", " ")


def _value(value: Any) -> str:
    if value is None:
        return "not stated"
    if value == "":
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return f"{value:g}"
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value) if value else "none"
    return str(value)


def _lines(data: dict[str, Any], indent: int, width: int) -> list[str]:
    """`label: value` per field; a nested table or a list of tables indented under its label."""
    out: list[str] = []
    pad = " " * indent
    for key, value in data.items():
        label = _label(key)
        if isinstance(value, dict):  # a table: a key it leaves empty (an unreached grade) is left out
            value = {k: v for k, v in value.items() if v is not None}
            if not value:
                out.append(f"{pad}{label + ':':<{max(LABEL_WIDTH - indent, len(label) + 2)}}none")
                continue
            out.append(f"{pad}{label}:")
            out += _lines(value, indent + 2, width)
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for number, item in enumerate(value, 1):
                name = item.get("name")
                out.append(f"{pad}{label} {number}" + (f" ({name}):" if name else ":"))
                out += _lines({k: v for k, v in item.items() if k != "name"}, indent + 2, width)
        else:
            text = _value(value)
            first = f"{pad}{label + ':':<{max(LABEL_WIDTH - indent, len(label) + 2)}}"
            wrapped = textwrap.wrap(text, max(width - len(first), 30)) or [""]
            out.append(first + wrapped[0])
            out += [" " * len(first) + more for more in wrapped[1:]]
    return out


def _unstated_label(name: str) -> str:
    """`cages[0].power_class_w (compute)` -> `cage group 1 (compute): power class (W)`."""
    match = re.fullmatch(r"(\w+)\[(\d+)\]\.(\w+)(?: \((.*)\))?", name)
    if match is None:
        return _label(name)
    _group, index, field, what = match.groups()
    return f"cage group {int(index) + 1}" + (f" ({what})" if what else "") + f": {_label(field)}"


def _paragraph(title: str, text: str, width: int) -> list[str]:
    return [f"{title}:", *textwrap.wrap(text, width - 2, initial_indent="  ",
                                        subsequent_indent="  ")]


def entry_sheet(data: dict[str, Any], unstated: list[str], width: int | None = None) -> str:
    """The sheet of one entry (`data`: the entry's JSON fields; `unstated`: the fact fields no
    public document states)."""
    width = width or min(shutil.get_terminal_size((100, 24)).columns, 110)
    head = {k: data[k] for k in HEAD if k in data}
    out = _lines(head, 0, width)
    verified = data.get("verified")
    out.append(f"{'verified:':<{LABEL_WIDTH}}" + (
        "yes: every number was checked against the source below" if verified else
        "no: the notes say which numbers no primary document confirmed"))
    out.append("")
    facts = {k: v for k, v in data.items()
             if k not in HEAD and k not in TAIL and k not in ("verified",)}
    out += _lines(facts, 0, width)
    if unstated:
        out.append("")
        out.append("not stated in a public document: "
                   + "; ".join(_unstated_label(u) for u in unstated))
    for key in TAIL:
        if data.get(key):
            out.append("")
            out += _paragraph(key, str(data[key]), width)
    return "\n".join(out)
