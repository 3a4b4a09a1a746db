"""`topology.conf` read the way Slurm reads it: by libslurm itself where it and a C compiler are
here (slurm_topology_reader.c, the parser of `src/common/parse_config.c` with the handler of
topology/tree), else by `read_statements`, a port of that parser's line handling.

The port follows parse_config.c (SchedMD/slurm, the same in 22.05 and today's master):
`_get_next_line` reads up to LF (fgets), cuts the line at a `#` not escaped by an odd run of
backslashes (`_strip_comments`), joins the next line when an odd run of backslashes ends it
(`_strip_continuation`), then drops every escaping backslash (`_strip_escapes`); an empty line
is skipped, a line starting with `include` reads another file; a statement is `key=value`
pairs matched by its `keyvalue_pattern` (a value is `"quoted"` or a run of non-`isspace`
characters), and anything left over that is not whitespace is a parse error.  Hostlists are
expanded as `src/common/hostlist.c` does for names and `[a-b,c]` ranges (separators tab, comma,
space, LF).  `tests/hostile/test_slurm_reader.py` checks the port against libslurm.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).parent
SPACE = b" \t\n\x0b\x0c\r"  # C isspace in the C locale
_KEY_VALUE = re.compile(rb'^[ \t\n\x0b\x0c\r]*([A-Za-z0-9_.]+)[ \t\n\x0b\x0c\r]*([-*+/]?)='
                        rb'[ \t\n\x0b\x0c\r]*(("([^"]*)")|([^ \t\n\x0b\x0c\r]+))'
                        rb'([ \t\n\x0b\x0c\r]|$)')


@dataclass
class Statement:
    """One statement as Slurm read it: its first key and value, then the other pairs."""

    key: str
    value: str
    pairs: dict[str, str] = field(default_factory=dict)
    leftover: str = ""  # not whitespace: Slurm reports a parse error for the line


def _strip_comment(line: bytes) -> bytes:
    backslashes = 0
    for index, byte in enumerate(line):
        if byte == ord("#") and backslashes % 2 == 0:
            return line[:index]
        backslashes = backslashes + 1 if byte == ord("\\") else 0
    return line


def _continued(line: bytes) -> bytes | None:
    """The line without its continuation backslash, or None when it is not continued."""
    backslashes, index = 0, len(line) - 1
    while index >= 0:
        byte = line[index]
        if byte == ord("\\"):
            backslashes += 1
        elif byte in SPACE and backslashes == 0:
            pass
        else:
            break
        index -= 1
    if backslashes % 2 == 1:
        return line[:index + backslashes]
    return None


def _strip_escapes(line: bytes) -> bytes:
    out, index = bytearray(), 0
    while index < len(line):
        if line[index] == ord("\\"):
            index += 1
        if index < len(line):
            out.append(line[index])
        index += 1
    return bytes(out)


def logical_lines(data: bytes) -> list[bytes]:
    """The lines Slurm's `_get_next_line` makes of a file."""
    physical = data.split(b"\n")
    physical = [line + b"\n" for line in physical[:-1]] + ([physical[-1]] if physical[-1] else [])
    lines, buffer = [], b""
    for line in physical:
        part = _strip_comment(line)
        joined = _continued(part)
        if joined is not None:
            buffer += joined
            continue
        lines.append(_strip_escapes(buffer + part))
        buffer = b""
    if buffer:
        lines.append(_strip_escapes(buffer))
    return lines


def _pairs(rest: bytes) -> tuple[dict[str, str], bytes]:
    pairs: dict[str, str] = {}
    while True:
        match = _KEY_VALUE.match(rest)
        if match is None:
            return pairs, rest
        value = match.group(5) if match.group(5) is not None else match.group(6)
        pairs[match.group(1).decode()] = value.decode("utf-8", "surrogateescape")
        rest = rest[match.end(3):]


def read_statements(data: bytes) -> list[Statement]:
    """Every statement of a topology.conf as Slurm's parser reads it."""
    statements = []
    for line in logical_lines(data):
        if not line.strip(SPACE):  # empty, a comment, or whitespace: nothing left over
            continue
        if line[:7].lower() == b"include" and line[7:8] in (b" ", b"\t"):
            statements.append(Statement("include", line[7:].strip().decode()))
            continue
        match = _KEY_VALUE.match(line)
        if match is None:
            statements.append(Statement("", "", leftover=line.decode("utf-8", "replace")))
            continue
        value = match.group(5) if match.group(5) is not None else match.group(6)
        pairs, rest = _pairs(line[match.end(3):])
        statements.append(Statement(match.group(1).decode(),
                                    value.decode("utf-8", "surrogateescape"), pairs,
                                    rest.strip(SPACE).decode("utf-8", "replace")))
    return statements


_RANGE = re.compile(r"([^,\[\]\t \n]*)\[([^\]]+)\]|([^,\[\]\t \n]+)")


def expand(expression: str) -> list[str]:
    """A hostlist expression as its names (`gpu-[001-003,005],x`)."""
    names = []
    for prefix, ranges, plain in _RANGE.findall(expression):
        if plain:
            names.append(plain)
            continue
        for part in ranges.split(","):
            first, _, last = part.partition("-")
            names.extend(f"{prefix}{n:0{len(first)}d}" for n in range(int(first), int(last or first) + 1))
    return names


def switches_read_by_port(path: Path) -> tuple[bool, list[tuple[str, list[str], list[str]]]]:
    """(clean, [(switch, nodes, switches)]) as the port reads `path`."""
    found, clean = [], True
    for statement in read_statements(path.read_bytes()):
        if statement.key.lower() != "switchname" or statement.leftover \
                or set(statement.pairs) - {"Nodes", "Switches", "LinkSpeed"}:
            clean = False
        if statement.key.lower() == "switchname":
            found.append((statement.value, expand(statement.pairs.get("Nodes", "")),
                          expand(statement.pairs.get("Switches", ""))))
    return clean, found


def libslurm_reader(build_dir: Path) -> Path | None:
    """The compiled libslurm reader, or None without a C compiler, libslurm or its header."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or not Path("/usr/include/slurm/slurm.h").is_file():
        return None
    binary = build_dir / "slurm_topology_reader"
    made = subprocess.run([compiler, "-O1", "-o", str(binary), str(HERE / "slurm_topology_reader.c"),
                           "-lslurm"], capture_output=True, text=True)
    return binary if made.returncode == 0 else None


def switches_read_by_slurm(reader: Path, path: Path) -> tuple[bool, list[tuple[str, list[str], list[str]]]]:
    """(clean, [(switch, nodes, switches)]) as libslurm reads `path`."""
    run = subprocess.run([str(reader), str(path)], capture_output=True, check=True)
    found, clean = [], True
    for line in run.stdout.decode("utf-8", "surrogateescape").splitlines():
        fields = line.split("\t")
        if fields[0] == "rc":
            clean = fields[1] == "0"
            continue
        lists = {f.split("\x1f")[0]: f.split("\x1f")[1:] for f in fields[2:]}
        found.append((fields[1], lists.get("nodes", []), lists.get("switches", [])))
    if b"error" in run.stderr.lower():
        clean = False
    return clean, found
