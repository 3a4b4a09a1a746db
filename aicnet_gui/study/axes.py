"""The candidates of a requirement: every combination of the values it allows.

Axes, in this order: technology x leaf model x spine model x port speed x tiers x planes x
oversubscription x rail layout.  Technologies and switch models are the requirement's allowed
lists; when it names no switch model, every catalog switch of an allowed technology is tried,
each as its own spine (a leaf model crossed with every other one as spine would be the square
of the catalog).  When it names neither, every catalog switch is tried with its own technology.
The other axes are the requirement's `sweep` lists; an empty speed list is "the fastest the
server and the switches share", an empty layout list is `rail`, or `rail-optimized` when more
than one plane is asked for (NVIDIA builds its multi-plane designs as rail-optimized SUs).

A candidate's name says the values that vary in the study (and always the leaf model), so the
names of one study are short, unique and usable as file names.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import asdict, dataclass

from ..model.catalog import Catalog
from ..model.catalog_entities import DeviceModel, Role
from ..model.fabric import FabricTechnology, Requirement

SWITCH_ROLES = (Role.LEAF, Role.SPINE, Role.CORE)
TECHNOLOGY_WORDS = {"infiniband": "InfiniBand", "rocev2": "RoCEv2", "ethernet": "Ethernet"}
AXES = ("technology", "leaf", "spine", "speed_gbps", "tiers", "planes", "oversubscription",
        "layout")


@dataclass(frozen=True)
class Combination:
    """One point of the study's axes: what one candidate is built from."""

    technology: str | None  # None: the switch model's own (InfiniBand, else RoCEv2)
    leaf: str
    spine: str
    speed_gbps: int | None  # None: the fastest speed the server and the switches share
    tiers: str  # auto | 2 | 3
    planes: int
    oversubscription: float
    layout: str

    def axes(self) -> dict[str, object]:
        return asdict(self)

    def describe(self, catalog: Catalog) -> str:
        """The combination in words: `RoCEv2, SN5600 leaves and spines, 400G, 2 tiers, ...`."""
        leaf = _model_name(catalog, self.leaf)
        spine = _model_name(catalog, self.spine)
        switches = (f"{leaf} leaves and spines" if self.leaf == self.spine
                    else f"{leaf} leaves, {spine} spines")
        parts = [TECHNOLOGY_WORDS.get(self.technology or "", "the switches' technology"),
                 switches,
                 f"{self.speed_gbps}G" if self.speed_gbps else "fastest common speed",
                 "two or three tiers" if self.tiers == "auto" else f"{self.tiers} tiers",
                 "1 plane" if self.planes == 1 else f"{self.planes} planes",
                 f"{self.oversubscription:g}:1", f"{self.layout} layout"]
        return ", ".join(parts)


def _model_name(catalog: Catalog, model_id: str) -> str:
    model = catalog.devices.get(model_id)
    return model.model if model is not None else model_id


def runs_technology(model: DeviceModel, technology: str) -> bool:
    """Whether a switch model can carry a fabric of `technology` (RoCEv2 runs on Ethernet)."""
    family = "infiniband" if technology == "infiniband" else "ethernet"
    return family in {t.value for t in model.technology}


def catalog_switches(catalog: Catalog) -> list[DeviceModel]:
    """Every switch model a fabric can be built of (not management switches, not parts the
    vendor no longer sells), by id."""
    return sorted((m for m in catalog.devices.values()
                   if m.role in SWITCH_ROLES and m.is_switch and not m.discontinued),
                  key=lambda m: m.id)


def _switch_pairs(requirement: Requirement, catalog: Catalog,
                  technologies: list[str | None]) -> list[tuple[str | None, str, str]]:
    """(technology, leaf, spine) triples: the allowed ones crossed, or from the catalog."""
    if requirement.leaves:
        spines = requirement.spines or [None]
        return [(t, leaf, spine or leaf)
                for t in technologies for leaf in requirement.leaves for spine in spines]
    triples = []
    for technology in technologies:
        for model in catalog_switches(catalog):
            if technology is not None and not runs_technology(model, technology):
                continue
            for spine in requirement.spines or [model.id]:
                triples.append((technology, model.id, spine))
    return triples


def default_layouts(requirement: Requirement) -> list[str]:
    if requirement.sweep.layouts:
        return list(requirement.sweep.layouts)
    return ["rail-optimized"] if any(p > 1 for p in requirement.sweep.planes) else ["rail"]


def combinations(requirement: Requirement, catalog: Catalog) -> list[Combination]:
    """Every combination of the requirement's allowed values, in axis order."""
    sweep = requirement.sweep
    technologies: list[str | None] = (
        [FabricTechnology(t).value for t in requirement.technologies] or [None])
    speeds: list[int | None] = list(sweep.speeds_gbps) or [None]
    return [
        Combination(technology, leaf, spine, speed, tiers, planes, ratio, layout)
        for (technology, leaf, spine), speed, tiers, planes, ratio, layout in itertools.product(
            _switch_pairs(requirement, catalog, technologies), speeds, sweep.tiers, sweep.planes,
            sweep.oversubscription, default_layouts(requirement))
    ]


def _short(model_id: str) -> str:
    return model_id.removeprefix("nvidia-")


def _ratio(value: float) -> str:
    return f"{value:g}to1".replace(".", "_")


_PART = {
    "technology": lambda c: c.technology or "auto",
    "leaf": lambda c: _short(c.leaf),
    "spine": lambda c: "spine-" + _short(c.spine),
    "speed_gbps": lambda c: f"{c.speed_gbps}g" if c.speed_gbps else "fastest",
    "tiers": lambda c: "auto-tiers" if c.tiers == "auto" else f"{c.tiers}tier",
    "planes": lambda c: f"{c.planes}plane",
    "oversubscription": lambda c: _ratio(c.oversubscription),
    "layout": lambda c: c.layout,
}


def names(combos: list[Combination]) -> list[str]:
    """One name per combination: its values on the axes that vary, the leaf model always."""
    varying = {axis for axis in AXES if len({getattr(c, axis) for c in combos}) > 1}
    varying.add("leaf")
    if all(c.spine == c.leaf for c in combos):
        varying.discard("spine")
    result: list[str] = []
    taken: set[str] = set()
    for combo in combos:
        name = "-".join(_PART[axis](combo) for axis in AXES if axis in varying)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "candidate"
        base, n = name, 2
        while name in taken:
            name, n = f"{base}-{n}", n + 1
        taken.add(name)
        result.append(name)
    return result
