"""How one operating system names the ports of one cage group (`CageGroup.os_names`), as a
catalog entity: a pattern per number of legs or an explicit list, with its source.

A module of its own so that the catalog entities (`catalog_entities.py`, `fabric.py`) import it
without importing the namer (`port_names_os.py`), which asks `fit.py` what a port runs.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from . import limits as L
from .limits import FreeText, NameText
from .templates import check_template

OsName = Literal[
    "cumulus", "nvos", "mlnx-os", "ib-port", "sonic", "eos", "nxos", "junos",
    "linux-rdma", "linux-netdev", "panel",
]
#: the placeholders of an OS port-name pattern: those of `CageGroup.port_name` and the lanes
OS_PORT_FIELDS = frozenset({"cage", "leg", "leg0", "pos", "n", "lane0", "lane1"})


class OsPortNaming(BaseModel):
    """How one operating system names the ports of one cage group, and where that comes from."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ports: dict[NameText, str] = Field(default_factory=dict, max_length=L.MAX_LEGS + 1,
                                       description="pattern per number of legs, or '*' for any")
    names: list[NameText] = Field(default_factory=list, max_length=L.MAX_CAGE * L.MAX_LEGS,
                                  description="explicit names in the group's logical port order")
    source: FreeText = Field(min_length=1)
    verified: bool
    notes: FreeText = ""

    @field_validator("ports")
    @classmethod
    def _patterns(cls, patterns: dict[str, str]) -> dict[str, str]:
        for legs, pattern in patterns.items():  # template.py: never str.format's whole language
            try:
                check_template(pattern, OS_PORT_FIELDS)
            except ValueError as exc:
                raise ValueError(f"ports[{legs!r}]: {exc}") from None
        return patterns

    @model_validator(mode="after")
    def _one_kind(self) -> OsPortNaming:
        if bool(self.ports) == bool(self.names):
            raise ValueError("give either ports (patterns) or names (an explicit list)")
        return self
