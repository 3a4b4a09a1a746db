"""What an as-built input says was cabled: observed links between (host, port) names.

The parsers (`lldp.py`, `ibnet.py`, `netbox_csv.py`) turn a tool's output into an `Observation`;
`differences.py` resolves its host and port names against the design.  Names stay as the tool printed
them (`swp3s0`, `12`, `mlx5_0`, `Ethernet8`) so that a report can quote them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ..fileio.errors import FabricFileError
from .limits import MAX_CAPTURE_BYTES


class ObservedEnd(NamedTuple):
    """One end of an observed link: a host name and a port name as the tool printed them.
    (Named tuples: an ibnetdiscover file of a 4,096-server fabric holds 200k ends.)

    `position`: the end is position N of an unsplit interface (a NetBox 4.5 cable profile:
    position 2 of `swp9` is the cage's second breakout leg); 0 for some leg of that cage, not
    known which (a breakout cable's common end in NetBox's own export)."""

    host: str
    port: str
    position: int | None = None

    def __str__(self) -> str:
        if self.position is None:
            return f"{self.host}:{self.port}"
        return f"{self.host}:{self.port}[{self.position or '?'}]"


class ObservedLink(NamedTuple):
    """A link seen by a tool; `speed_gbps` when the tool reports the link's rate; `where` is the
    file and place it was read from, for messages."""

    a: ObservedEnd
    b: ObservedEnd
    speed_gbps: float | None = None
    where: str = ""


@dataclass
class Observation:
    """Everything one input says.

    `complete`: the input describes the whole fabric (an `ibnetdiscover` run, a NetBox export),
    so a planned link it does not show is missing.  Otherwise (LLDP, one file per device) only
    links with an end on a host in `hosts` (the devices whose own view was read) can be checked.
    """

    kind: str
    links: list[ObservedLink] = field(default_factory=list)
    hosts: set[str] = field(default_factory=set)
    complete: bool = False
    files: list[str] = field(default_factory=list)
    prefer: tuple[str, ...] = ()
    """Port namings to try first for this input (e.g. `ib-port`, `linux-rdma` for ibnetdiscover)."""
    notes: list[str] = field(default_factory=list)
    """What the reader read differently from the plain case (statuses, formats), for the user."""


def check_size(path: str | Path, limit: int = MAX_CAPTURE_BYTES) -> None:
    """A FabricFileError when the file is larger than `limit` bytes (or cannot be looked at)."""
    file = str(path)
    try:
        size = Path(path).stat().st_size
    except FileNotFoundError:
        raise FabricFileError(file, "no such file") from None
    except OSError as exc:
        raise FabricFileError(file, f"cannot read: {exc.strerror or exc}") from None
    if size > limit:
        raise FabricFileError(file, f"{size / 2**20:,.0f} MiB: at most {limit / 2**20:,.0f} MiB "
                                    "are read")


def read_input_bytes(path: str | Path, limit: int = MAX_CAPTURE_BYTES) -> bytes:
    """The bytes of an observed-data file of at most `limit` bytes, or a FabricFileError."""
    file = str(path)
    check_size(path, limit)
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)  # a file that grew since stat() is still bounded
    except OSError as exc:
        raise FabricFileError(file, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise FabricFileError(file, f"more than {limit / 2**20:,.0f} MiB: at most that is read")
    return data


def read_input_text(path: str | Path, encoding: str = "utf-8",
                    limit: int = MAX_CAPTURE_BYTES) -> str:
    """The text of an observed-data file, or a FabricFileError naming the file and why."""
    file = str(path)
    data = read_input_bytes(path, limit)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise FabricFileError(file, f"not UTF-8 text (offset {exc.start})") from None
