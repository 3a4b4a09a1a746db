"""Leaf groups of a rail-optimized fabric: how many scalable units one leaf per rail carries.

A rail-optimized leaf has as many ports up as down; NVIDIA's reference designs fill it (a
QM9700 takes its rail of one 32-node DGX H100 SU: 32 down, 32 up of 64; a Q3400-RA its rail of
one 72-node DGX B300 SU: 72 + 72 of 144 x 800G; an SN5610 its rail of one 64-node B300 SU per
plane: 64 + 64 of 128 x 400G; docs/sources-2026.md §1.1).  A larger leaf than the SU needs (an
SN5600 has 128 x 400G for a 32-node DGX H100 SU) would leave half its ports idle, so the leaf
carries the same rail of several consecutive SUs instead (two SUs on an SN5600: 64 down, 64
up): a leaf group.  Same-rail traffic of the group stays one hop; the servers keep their SU.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.wording import counted
from .errors import GeneratorError
from .leaf_spine import LeafPlan
from .template_hardware import Hardware
from .template_params import RailOptimizedParams


@dataclass(frozen=True, slots=True)
class LeafGroup:
    """How many SUs one leaf per rail carries: `sus_per_leaf` SUs of `nodes` servers each (the
    same rail of every SU of the group on one leaf), `fits` the most the leaf holds at 1:1."""

    sus: int
    nodes: int
    sus_per_leaf: int
    fits: int
    asked: bool

    @property
    def su_nodes(self) -> int | None:
        """The SU size `_add_cells` tags servers by; None when a leaf carries one SU."""
        return self.nodes if self.sus_per_leaf > 1 else None

    @property
    def groups(self) -> list[int]:
        """SUs per leaf group (the last may be short)."""
        full, rest = divmod(self.sus, self.sus_per_leaf)
        return [self.sus_per_leaf] * full + ([rest] if rest else [])

    def leaf_plan(self, hw: Hardware) -> LeafPlan:
        down = self.sus_per_leaf * self.nodes
        return LeafPlan(hw.rails, [g * self.nodes for g in self.groups], down, down,
                        hw.leaf.max_split(down))

    def leaf_line(self, hw: Hardware, lp: LeafPlan, u: int) -> str:
        carried = (f"; each leaf carries its rail of {counted(self.sus_per_leaf, 'SU')}"
                   if self.sus_per_leaf > 1 else "")
        return (f"leaf {hw.leaf.model.id}: {lp.leaves} leaves, {lp.down} ports down, {u} up of "
                f"{hw.leaf.ports}{carried}")

    def notes(self, hw: Hardware) -> list[str]:
        """Why a leaf keeps ports free, when it does (PORTS-IDLE's question)."""
        leaf = hw.leaf.model.model
        out = []
        if self.sus_per_leaf < self.fits and not self.asked:
            out.append(
                f"one {leaf} leaf holds its rail of {counted(self.fits, 'SU')} at 1:1 "
                f"({self.fits * self.nodes} ports down and as many up of {hw.leaf.ports}); with "
                f"{counted(self.sus, 'SU')} its other ports stay free for growth")
        elif self.sus_per_leaf < self.fits:
            out.append(
                f"--sus-per-leaf {self.sus_per_leaf}: one {leaf} leaf could carry its rail of "
                f"{counted(self.fits, 'SU')} at 1:1; "
                f"{hw.leaf.ports - 2 * self.sus_per_leaf * self.nodes} of its {hw.leaf.ports} "
                "ports stay free (PORTS-IDLE)")
        rest = self.sus % self.sus_per_leaf
        if rest:
            out.append(
                f"the last leaf group carries {counted(rest, 'SU')} of "
                f"{self.sus_per_leaf}: its leaves (and the spine ports sized for them) keep "
                f"room for {counted(self.sus_per_leaf - rest, 'more SU')}")
        return out


def leaf_group(hw: Hardware, params: RailOptimizedParams) -> LeafGroup:
    """The leaf group of a rail-optimized fabric: each leaf carries its rail of as many SUs as
    its ports hold at 1:1 (as many ports up as down), so that no port stays idle: a 64-port
    leaf holds its rail of one 32-node SU (NVIDIA's QM9700 SuperPOD: 32 down, 32 up), a
    128-port SN5600 at 400G two (64 down, 64 up).  Never more SUs than the fabric has;
    `--sus-per-leaf` asks for fewer."""
    n = params.nodes_per_su
    assert n is not None
    fits = 1
    while hw.leaf.max_split((fits + 1) * n) >= (fits + 1) * n:
        fits += 1
    asked = params.sus_per_leaf
    if asked is not None and asked > fits:
        raise GeneratorError(
            f"{hw.leaf.describe()}; at 1:1 a leaf holds its rail of at most "
            f"{counted(fits, 'SU')} of {n} nodes, not {asked}")
    k = asked if asked is not None else min(fits, params.sus)
    return LeafGroup(params.sus, n, k, fits, asked is not None)
