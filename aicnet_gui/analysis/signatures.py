"""Link signatures: links with the same two port kinds, optics and cable behave the same.

A signature is (endpoint class A, optic A, endpoint class B, optic B, cable).  A fabric of 100k
links has a handful of them, so the compatibility rules (form factor, speed, media, technology,
missing optic, cable unset, a DAC plug in a cage that holds an optic) run once per signature;
their results are *issue templates* that each link fills with its own names.  The media reach
of a signature (optics per fibre grade, cable maximum) is cached the same way.

A signature is judged in the link's own technology (`model/fit.link_family`: an in-band port
to an Ethernet management switch runs Ethernet in an InfiniBand design), not the fabric's.  An
endpoint class names its cage group and device model, which decide that family, so the key
determines it; `families[sig]` and `tech_problems[sig]` keep it for the per-link and
per-device rules.  The fabric's technology is fixed for a `Signatures` (a settings change
makes a new analyzer state).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..media.facts import optic_reach_m
from ..model import arrays
from ..model.catalog_entities import CableAssembly, CageGroup, DeviceModel, Technology, Transceiver
from ..model.fit import link_family, link_technology_problem
from ..model.ports import LogicalPort
from .findings import Severity
from .index import NONE, CatalogIndex, Endpoints, _grow

FixSpec = tuple  # ("mode", end, mode) | ("optic", end, optic id or None) | ("cable", cable id)


@dataclass(frozen=True, slots=True)
class Issue:
    """A finding template: `text` may use {a} {b} (the two ends as device:port), {A} {B}
    (device names) and {ca} {cb} (cage numbers)."""

    code: str
    severity: Severity
    text: str
    fix: FixSpec | None = None
    fix_text: str = ""


@dataclass(frozen=True, slots=True)
class End:
    label: str  # "a" or "b"
    port: LogicalPort
    group: CageGroup
    model: DeviceModel
    optic: Transceiver | None

    @property
    def mode(self) -> str:
        return f"{self.port.legs}x{self.port.speed_gbps}G"


@dataclass(frozen=True, slots=True)
class SigContext:
    a: End
    b: End
    cable: CableAssembly | None
    family: Technology
    catalog_optics: tuple[Transceiver, ...]
    catalog_cables: tuple[CableAssembly, ...]
    # the fabric's technology (project settings); None: the same as `family`
    fabric: Technology | None = None

    @property
    def fabric_family(self) -> Technology:
        return self.fabric if self.fabric is not None else self.family

    @property
    def ends(self) -> tuple[End, End]:
        return (self.a, self.b)

    def other(self, end: End) -> End:
        return self.b if end is self.a else self.a


SigRule = Callable[[SigContext], list[Issue]]


@dataclass(frozen=True, slots=True)
class SigResult:
    issues: tuple[Issue, ...]
    failures: tuple[tuple[str, str], ...]  # (rule name, error) for rules that raised


def reach_of(cable: CableAssembly | None, optic_a: Transceiver | None,
             optic_b: Transceiver | None) -> tuple[float, str]:
    """The longest run the media allow (nan when unknown) and what limits it.

    Integrated cables (DAC/ACC/AOC): the cable's maximum length.  A fibre cord: the lower of
    the cord's maximum and each optic's reach over the cord's fibre grade (NVIDIA's SR/DR
    reaches include up to two patch panels, hardware.md §3.2).
    """
    if cable is None:
        return np.nan, ""
    reach, by = float(cable.max_length_m), cable.model
    if cable.type == "fibre":
        for optic in (optic_a, optic_b):
            if optic is None:
                continue
            limit = optic_reach_m(optic, cable.fibre_grade)
            if limit is not None and limit < reach:
                reach, by = float(limit), f"{optic.model} over {cable.fibre_grade}"
    return reach, by


class Signatures:
    """The registry of link signatures seen so far, with their issues and reach."""

    def __init__(self, cindex: CatalogIndex, endpoints: Endpoints, family: Technology,
                 rules: list[tuple[str, SigRule]]) -> None:
        self.cindex = cindex
        self.ep = endpoints
        self.family = family  # the fabric's; each signature's own is families[sig]
        self.rules = rules
        self._codes: dict[int | tuple, int] = {}
        self.results: list[SigResult] = []
        self.keys: list[tuple[int, int, int, int, int]] = []
        self.reach = np.zeros(16)
        self.reach_by: list[str] = []
        self.families: list[Technology] = []
        self.tech_problems: list[str | None] = []
        self.has_issue = np.zeros(16, dtype=bool)
        self._optics = tuple(sorted(cindex.optics, key=lambda t: t.id))
        self._cables = tuple(sorted(cindex.cables, key=lambda c: c.id))

    def assign(self, a_ep: np.ndarray, a_opt: np.ndarray, b_ep: np.ndarray, b_opt: np.ndarray,
               cable: np.ndarray) -> np.ndarray:
        """The signature index of every (port kind A, optic A, port kind B, optic B, cable)
        row (a port kind is a cage group, breakout legs, speed and leg)."""
        if len(a_ep) == 0:
            return np.zeros(0, dtype=np.int64)
        packable = (
            max(int(a_ep.max()), int(b_ep.max())) < 1 << 16
            and max(int(a_opt.max()), int(b_opt.max())) + 1 < 1 << 9
            and int(cable.max()) + 1 < 1 << 9
        )
        if packable:
            code = (((a_ep * 512 + (a_opt + 1)) * 65536 + b_ep) * 512 + (b_opt + 1)) * 512 + (cable + 1)
            uniq, inverse = arrays.unique(code, return_inverse=True)
            keys = [int(c) for c in uniq]
            ids = np.array([self._lookup(k) for k in keys], dtype=np.int64)
            return ids[inverse.reshape(-1)]
        rows = zip(a_ep.tolist(), a_opt.tolist(), b_ep.tolist(), b_opt.tolist(), cable.tolist(),
                   strict=True)
        return np.array([self._lookup(row) for row in rows], dtype=np.int64)

    def _lookup(self, code: int | tuple) -> int:
        sig = self._codes.get(code)
        if sig is not None:
            return sig
        if isinstance(code, tuple):
            key = code
        else:
            rest, cable = divmod(code, 512)
            rest, b_opt = divmod(rest, 512)
            rest, b_ep = divmod(rest, 65536)
            a_ep, a_opt = divmod(rest, 512)
            key = (a_ep, a_opt - 1, b_ep, b_opt - 1, cable - 1)
        sig = len(self.results)
        self._codes[code] = sig
        self.keys.append(key)
        ctx = self.context(key)
        self.families.append(ctx.family)
        self.tech_problems.append(link_technology_problem(
            ctx.a.group, ctx.a.model, ctx.b.group, ctx.b.model, self.family))
        self.results.append(self._evaluate(key))
        self.reach = _grow(self.reach, sig + 1)
        self.has_issue = _grow(self.has_issue, sig + 1)
        reach, by = reach_of(ctx.cable, ctx.a.optic, ctx.b.optic)
        self.reach[sig] = reach
        self.reach_by.append(by)
        result = self.results[sig]
        self.has_issue[sig] = bool(result.issues or result.failures)
        return sig

    def context(self, key: tuple[int, int, int, int, int]) -> SigContext:
        a_ep, a_opt, b_ep, b_opt, cable = key
        cindex = self.cindex

        def end(label: str, kind: int, opt: int) -> End:
            ref = cindex.groups[self.ep.kind_group(kind)]
            return End(label, self.ep.kind_port[kind], ref.group, ref.model,
                       cindex.optics[opt] if opt != NONE else None)

        a, b = end("a", a_ep, a_opt), end("b", b_ep, b_opt)
        return SigContext(
            a, b, cindex.cables[cable] if cable != NONE else None,
            link_family(a.group, a.model, b.group, b.model, self.family),
            self._optics, self._cables, self.family,
        )

    def _evaluate(self, key: tuple[int, int, int, int, int]) -> SigResult:
        ctx = self.context(key)
        issues: list[Issue] = []
        failures: list[tuple[str, str]] = []
        for name, rule in self.rules:
            try:
                issues.extend(rule(ctx))
            except Exception as exc:  # noqa: BLE001 - a failing rule becomes a finding
                failures.append((name, _describe(exc)))
        return SigResult(tuple(issues), tuple(failures))


def _describe(exc: BaseException) -> str:
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = f" ({frame.name}:{frame.lineno})" if frame else ""
    return f"{type(exc).__name__}: {exc}{where}"
