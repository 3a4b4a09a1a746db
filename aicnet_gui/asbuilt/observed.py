"""What an as-built input says was cabled: observed links between (host, port) names.

The parsers (`lldp.py`, `ibnet.py`, `netbox_csv.py`) turn a tool's output into an `Observation`;
`compare.py` resolves its host and port names against the design.  Names stay as the tool printed
them (`swp3s0`, `12`, `mlx5_0`, `Ethernet8`) so that a report can quote them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ..fileio.errors import FabricFileError


class ObservedEnd(NamedTuple):
    """One end of an observed link: a host name and a port name as the tool printed them.
    (Named tuples: an ibnetdiscover file of a 4,096-server fabric holds 200k ends.)"""

    host: str
    port: str

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"


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


def read_input_text(path: str | Path, encoding: str = "utf-8") -> str:
    """The text of an observed-data file, or a FabricFileError naming the file and why."""
    file = str(path)
    try:
        return Path(path).read_text(encoding=encoding)
    except FileNotFoundError:
        raise FabricFileError(file, "no such file") from None
    except UnicodeDecodeError as exc:
        raise FabricFileError(file, f"not UTF-8 text (offset {exc.start})") from None
    except OSError as exc:
        raise FabricFileError(file, f"cannot read: {exc.strerror or exc}") from None
