"""Read `ibnetdiscover` text output (rdma-core infiniband-diags) into observed links.

The topology file has one block per node: `key=value` lines (`vendid`, `devid`, `sysimgguid`,
`switchguid` / `caguid`), a node line and one line per connected port::

    Switch  65 "S-b8599f0300fc6de4"   # "MF0;leaf-01:MQM9700/U1" enhanced port 0 lid 13 lmc 0
    [1]     "H-e09d7303b4f1abf5"[1](e09d7303b4f1abf5)   # "gpu-001 mlx5_0" lid 100 4xNDR

    Ca      1 "H-e09d7303b4f1abf5"    # "gpu-001 mlx5_0"
    [1](e09d7303b4f1abf5)   "S-b8599f0300fc6de4"[1]   # lid 100 lmc 0 "MF0;leaf-01:MQM9700/U1" lid 13 4xNDR

A switch's node description is `MF0;<host name>:<model>/U<asic>` on NVIDIA switches (else the
whole description is the name); an HCA's is `<host name> <RDMA device>` (`gpu-001 mlx5_0`,
rdma-ndd's default `%h %d`), so a server end is named by its RDMA device and a switch end by its
port number.  The `4xNDR` after the far end's LID gives the link rate (width x lane rate).
Every link appears in both nodes' blocks and is kept once.

The layouts are those rdma-core's `infiniband-diags/ibnetdiscover.c` prints (`out_switch_port`,
`out_ca_port`, `out_ids`, `out_chassis`; the format of `man/common/sec_topology-file.rst`):

* `--full` (`-f`) appends ` s=<speed> w=<width> v=<vlcap>` to a port line, after the rate;
* `--group` (`-g`) puts `Chassis N (guid 0x...)`, `Hostname: ...`, `Non-Chassis Nodes` and
  `# Spine Nodes` ... headings between the blocks, `# Chassis N (name)` after a `sysimgguid`,
  and `[ext N]` after a port number (a chassis' external port; the port number stays the one
  read, as on the one-ASIC switches aicnet names);
* a CA port line to another CA prints the far port's GUID after a space: `"H-..."[1] (guid)`;
* routers are `Rt` nodes with `rtguid=`; Xsigo ports end in ` slot N` or ` (scp)`.

A line that is none of these raises `FabricFileError` with its line number; so does a line
longer than `limits.MAX_LINE_CHARS` or a file past `limits.MAX_CAPTURE_BYTES` or
`MAX_CAPTURE_LINES`.  The line grammar is checked by the regular expressions (a port line's
numbers are digits, its GUIDs quoted); pydantic is not used per line: a 4,096-server fabric has
400k of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..fileio.errors import FabricFileError
from .limits import MAX_CAPTURE_LINES, MAX_LINE_CHARS
from .observed import Observation, ObservedEnd, ObservedLink, read_input_text

_NODE = re.compile(r'^(Switch|Ca|Rt)\s+(\d+)\s+"([^"]+)"\s*(?:#\s*"([^"]*)"(.*))?$')
_PORT = re.compile(
    r'^\[(\d+)\](?:\[ext \d+\])?(?:\(([0-9a-fA-F]+)\))?\s*"([^"]+)"\[(\d+)\](?:\[ext \d+\])?'
    r'\s*(?:\(([0-9a-fA-F]+)\))?\s*(?:#(.*))?$')
_KEYVAL = re.compile(r"^[a-z]+guid=|^vendid=|^devid=", re.IGNORECASE)
_HEADING = re.compile(r"^(?:Non-Chassis Nodes|Chassis \d+(?: \(guid 0x[0-9a-fA-F]+\))?|Hostname: .*)$")
"""What `ibnetdiscover -g` prints between node blocks (`out_chassis`, the Xsigo host name)."""
_QUOTED = re.compile(r'"([^"]*)"')
_RATE = re.compile(r"^(\d+)x([A-Z0-9]+)$")
SHARP_NODE = "Aggregation Node"
"""`Mellanox Technologies Aggregation Node`: the SHARP aggregation node inside a switch, listed
as a Ca of its own; not a cable."""
LANE_GBPS = {"SDR": 2.5, "DDR": 5, "QDR": 10, "FDR10": 10, "FDR": 14, "EDR": 25, "HDR": 50,
             "NDR": 100, "XDR": 200}


@dataclass(frozen=True, slots=True)
class _PortLine:
    """One port line as the grammar above reads it (numbers checked by the regular expression)."""

    local_port: int
    remote_guid: str
    remote_port: int
    remote_desc: str | None
    speed_gbps: float | None


def node_host_port(desc: str, kind: str) -> tuple[str, str | None]:
    """(host, RDMA device or None) of a node description."""
    text = desc.strip()
    if kind == "Switch":
        if text.startswith("MF0;"):
            text = text[4:]
            return text.split(":", 1)[0], None
        return text, None
    parts = text.rsplit(" ", 1)
    if len(parts) == 2 and parts[1]:
        return parts[0], parts[1]
    return text, None


@lru_cache(maxsize=256)
def _rate_of(token: str) -> float | None:
    match = _RATE.match(token)
    if not match:
        return None
    lane = LANE_GBPS.get(match.group(2).upper())
    return int(match.group(1)) * lane if lane else None


@lru_cache(maxsize=65536)
def _host_port(desc: str, kind: str) -> tuple[str, str | None]:
    return node_host_port(desc, kind)


def _end(kind: str, desc: str, port: int) -> ObservedEnd:
    host, device = _host_port(desc, kind)
    if kind == "Switch" or device is None:
        return ObservedEnd(host, str(port))
    return ObservedEnd(host, device if port == 1 else f"{device}/{port}")


def read_ibnetdiscover(path: str | Path) -> Observation:
    """The links of an ibnetdiscover topology file (the whole fabric: `complete`)."""
    file = str(path)
    text = read_input_text(path, "utf-8")
    out = Observation(kind="ibnetdiscover", complete=True, files=[file],
                      prefer=("ib-port", "linux-rdma"))
    kinds, descs, pending = _read_lines(file, text)
    if not kinds:
        raise FabricFileError(file, "no Switch or Ca lines: is this ibnetdiscover output?")
    for guid, port, number in pending:
        remote_kind = kinds.get(port.remote_guid) or ("Switch" if port.remote_guid.startswith("S-")
                                                      else "Ca")
        remote_desc = descs.get(port.remote_guid) or port.remote_desc or port.remote_guid
        if SHARP_NODE in remote_desc or SHARP_NODE in descs[guid]:
            continue
        out.links.append(ObservedLink(
            _end(kinds[guid], descs[guid], port.local_port),
            _end(remote_kind, remote_desc, port.remote_port),
            port.speed_gbps, f"{file}: line {number}"))
    for guid, kind in kinds.items():
        if SHARP_NODE not in descs[guid]:
            out.hosts.add(node_host_port(descs[guid], kind)[0])
    return out


def _read_lines(file: str, text: str) -> tuple[dict[str, str], dict[str, str],
                                               list[tuple[str, _PortLine, int]]]:
    """(node GUID -> kind, node GUID -> description, (node GUID, port line, line number) of each
    link once) of the file's lines; a line of no known form raises `FabricFileError`."""
    kinds: dict[str, str] = {}
    descs: dict[str, str] = {}
    pending: list[tuple[str, _PortLine, int]] = []
    seen: set[tuple[str, int, str, int]] = set()
    node: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        if len(raw) > MAX_LINE_CHARS:
            raise FabricFileError(file, f"a line of {len(raw):,} characters: at most "
                                        f"{MAX_LINE_CHARS:,} are read", f"line {number}")
        if number > MAX_CAPTURE_LINES:
            raise FabricFileError(file, f"more than {MAX_CAPTURE_LINES:,} lines",
                                  f"line {number}")
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        if line[0] == "[":
            port = _port_line(file, number, line, node, seen)
            if port is not None:
                pending.append((node, port, number))
            continue
        match = _NODE.match(line)
        if match:
            node = match.group(3)
            kinds[node] = match.group(1)
            descs[node] = match.group(4) if match.group(4) is not None else node
            continue
        if not _KEYVAL.match(line) and not _HEADING.match(line):
            raise FabricFileError(file, f"not an ibnetdiscover node, port or key=value line: "
                                        f"{line[:60]!r}", f"line {number}")
    return kinds, descs, pending


def _port_line(file: str, number: int, line: str, node: str | None,
               seen: set[tuple[str, int, str, int]]) -> _PortLine | None:
    """The port line `line` of `node`'s block; None when the link was read already from the far
    end's block (`seen` keeps each link's ends)."""
    match = _PORT.match(line)
    if match is None:
        raise FabricFileError(file, f"not an ibnetdiscover port line: {line[:60]!r}",
                              f"line {number}")
    if node is None:
        raise FabricFileError(file, "a port line before any Switch or Ca line", f"line {number}")
    local, remote, remote_port = int(match.group(1)), match.group(3), int(match.group(4))
    key = (node, local, remote, remote_port) if (node, local) < (remote, remote_port) \
        else (remote, remote_port, node, local)
    if key in seen:
        return None
    seen.add(key)
    comment = match.group(6) or ""
    quoted = _QUOTED.search(comment)
    tail = (comment[quoted.end():] if quoted else comment).split()
    rate = next((r for token in tail if (r := _rate_of(token)) is not None), None)
    return _PortLine(local, remote, remote_port, quoted.group(1) if quoted else None, rate)
