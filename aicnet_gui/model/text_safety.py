"""What a text of a design may hold, and how each kind of file aicnet writes keeps a text data.

A name typed into aicnet ends up in files other programs read and sometimes run: spreadsheets
(the CSV exports, the NVIDIA CVT workbook), Slurm's `topology.conf` (read by slurmctld as root),
YAML and XML.  One rule per kind of output lives here, and every writer asks it:

* **Names** (ids, names, short fields, port-name and device-name patterns) are one line of
  printable text.  A control character is refused where the text is read (a `.fabric` file, a
  catalog, an edit through the document's mutation API), with `NO_CONTROL` on the field and
  `control_problem` for the message: C0 (U+0000-U+001F: tab, line feed, carriage return ...),
  DEL (U+007F), C1 (U+0080-U+009F, with NEL U+0085) and the Unicode line and paragraph
  separators U+2028 and U+2029 (YAML 1.1 and JavaScript read those as line breaks).  Free text
  (descriptions, notes) may hold line breaks and tabs.
* **Spreadsheet cells**, CSV and xlsx alike: a text whose first character a spreadsheet reads as
  the start of a formula (`formula_like`: OWASP's `=`, `+`, `-`, `@`, tab and carriage return,
  plus NUL (OWASP ASVS 1.2.10), line feed, and the fullwidth forms `＝ ＋ － ＠` that East Asian
  input methods and some spreadsheets fold into their ASCII forms) is marked as text: in CSV by a
  leading `'` (`spreadsheet_cell`), in xlsx by writing a string cell with Excel's quote-prefix
  style (report/xlsx_cells.py), never a formula.
* **Line-oriented configuration read by a daemon** (Slurm's topology.conf): a name Slurm's parser
  would read otherwise than as one value is refused with the reason (`slurm_name_problem`), and
  a comment is kept on its one line (`config_comment`).  What Slurm's parser does is in
  `src/common/parse_config.c` (SchedMD/slurm): a line ends at LF only (fgets); `#` starts a
  comment unless escaped with `\\`; a trailing odd run of `\\` continues the line; `\\` escapes
  the next character; a value is `"quoted"` or a run of non-whitespace (C `isspace`: space, tab,
  LF, VT, FF, CR); a line starting with `include` reads another file.  Node and switch lists are
  hostlist expressions (`src/common/hostlist.c`: names separated by tab, comma, space or LF,
  `[...]` ranges), and topology/tree refuses a switch name longer than HOST_NAME_MAX (64 on
  Linux, `src/plugins/topology/tree/switch_record.c`).
* **XML** (draw.io): ElementTree escapes markup and line breaks; `xml_text` replaces what XML 1.0
  cannot hold at all (its `Char` production).
* **YAML** (Slurm's topology.yaml, NetBox device types): PyYAML's `safe_dump` quotes and escapes
  every scalar; comments above the document go through `config_comment`.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

#: the characters no name may hold (a regular-expression class)
CONTROL_CLASS = "\x00-\x1f\x7f-\x9f\u2028\u2029"
_CONTROL = re.compile(f"[{CONTROL_CLASS}]")
CONTROL_ERROR = "control_character"
CONTROL_MESSAGE = "a name is one line of printable text, without line breaks, tabs or other control characters"
_CHARACTER_NAMES = {
    "\x00": "NUL", " ": "a space", "\t": "a tab", "\n": "a line feed", "\x0b": "a vertical tab",
    "\x0c": "a form feed", "\r": "a carriage return", "\x1b": "an escape", "\x7f": "DEL",
    "\x85": "a next-line (NEL)", "\u2028": "a line separator", "\u2029": "a paragraph separator",
}


def character_name(char: str) -> str:
    """`U+000A (a line feed)`: a character as a message names it."""
    name = _CHARACTER_NAMES.get(char) or unicodedata.name(char, "")
    code = f"U+{ord(char):04X}"
    return f"{code} ({name})" if name else code


def control_problem(text: str) -> str | None:
    """Why `text` cannot be a name (its first control character and where), or None."""
    match = _CONTROL.search(text)
    if match is None:
        return None
    return (f"{character_name(match.group())} at character {match.start() + 1}: "
            f"{CONTROL_MESSAGE}")


class _NoControl:
    """Pydantic metadata: the string field before it holds no control character.  The check is
    a pattern in pydantic's core (a 300k-link file's link ids: ~20 ms), its error the
    `control_character` error with `CONTROL_MESSAGE`."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:  # noqa: ANN401
        return core_schema.chain_schema([
            handler(source),
            core_schema.custom_error_schema(
                core_schema.str_schema(pattern=f"^[^{CONTROL_CLASS}]*$"),
                custom_error_type=CONTROL_ERROR, custom_error_message=CONTROL_MESSAGE),
        ])

    def __repr__(self) -> str:
        return "NO_CONTROL"


NO_CONTROL = _NoControl()


def error_message(detail: Any) -> str:  # noqa: ANN401 - one of pydantic's error dicts
    """The words for one pydantic error: a control character named with its place, else
    pydantic's message (a validator's own words without pydantic's `Value error, `)."""
    if detail.get("type") == CONTROL_ERROR and isinstance(detail.get("input"), str):
        return control_problem(detail["input"]) or CONTROL_MESSAGE
    return str(detail.get("msg", "")).removeprefix("Value error, ")


class OutputRefused(ValueError):
    """An output that cannot hold a text of the design safely; the message names the text
    and why (the export writes nothing)."""


# ---------------------------------------------------------------------------- spreadsheets

#: a text cell starting with one of these is read as a formula (or folded into one)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\x00", "\uff1d", "\uff0b", "\uff0d",
                  "\uff20")


def formula_like(text: str) -> bool:
    """Whether a spreadsheet would read the text cell `text` as (the start of) a formula."""
    return text.startswith(FORMULA_STARTS)


def spreadsheet_cell(value: object) -> object:
    """A CSV cell value as data: None -> empty, a formula-like text -> the same text after a
    `'` (OWASP, "CSV Injection"); numbers and other text unchanged."""
    if value is None:
        return ""
    if isinstance(value, str) and formula_like(value):
        return "'" + value
    return value


# ------------------------------------------------------------ line-oriented daemon configuration

#: Slurm's topology/tree refuses longer switch names (HOST_NAME_MAX on Linux)
SLURM_MAX_NAME = 64
#: characters with a meaning to Slurm's line parser or its hostlist syntax, and why
_SLURM_SPECIAL = {
    "#": "Slurm reads the rest of the line after # as a comment",
    "\\": "a backslash escapes the next character and continues the line in Slurm's parser",
    '"': "a double quote starts a quoted value in Slurm's parser",
    ",": "a comma separates names in a Slurm hostlist",
    "[": "brackets are number ranges in a Slurm hostlist",
    "]": "brackets are number ranges in a Slurm hostlist",
}


def slurm_name_problem(name: str) -> str | None:
    """Why `name` cannot be written as one Slurm node or switch name (topology.conf,
    topology.yaml), or None when it can."""
    if not name:
        return "an empty name"
    problem = control_problem(name)
    if problem is not None:
        return problem
    for char in name:
        if char.isspace():
            return f"{character_name(char)}: whitespace ends a value in Slurm's parser"
        if char in _SLURM_SPECIAL:
            return f"{char!r}: {_SLURM_SPECIAL[char]}"
    size = len(name.encode("utf-8"))
    if size > SLURM_MAX_NAME:
        return f"{size} bytes: Slurm takes names of at most {SLURM_MAX_NAME} bytes (HOST_NAME_MAX)"
    return None


def config_comment(text: str) -> str:
    """`text` as the body of one comment line of a configuration file: every line break or
    other control character is written as a visible escape (`\\n`, `\\x1b`), so the comment
    cannot end early and start a statement."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


# ---------------------------------------------------------------------------------------- XML

#: what XML 1.0 cannot hold (its `Char` production: tab, LF, CR and U+0020-U+D7FF,
#: U+E000-U+FFFD, U+10000-U+10FFFF); a lone surrogate cannot be encoded at all
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """`text` as XML 1.0 can hold it: characters it cannot hold become U+FFFD (ElementTree
    escapes the markup characters and line breaks itself)."""
    return _NOT_XML.sub("\ufffd", text)
