"""Can these two ports be wired, which optics fit this cage, which cables fit this link.

Pure Python over the model (no Qt), used while the user drags a cable (to highlight compatible
targets and say why another one is refused) and by the inspector (to offer only parts that fit).
The model itself refuses a port used twice or a port that does not exist; these checks add the
physical rules a person expects at the moment of wiring: speed, form factor, technology, media.
What fits in a cage (optics, cable plugs) is decided by model/fit.py, shared with the analysis
and the generators, in the technology of the link (`fit.link_family`: an in-band port wired to
an Ethernet management switch takes Ethernet parts in an InfiniBand design), or for a cage not
yet wired, the technology its port runs (`fit.cage_family`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.catalog_entities import BreakoutMode, CableAssembly, Technology, Transceiver
from ..model.document import FabricDocument
from ..model.fabric import Link
from ..model.fit import (
    CageSpec,
    cable_between,
    cage_family,
    cage_spec,
    end_technology_reason,
    fabric_family,
    installed_optic,
    link_family,
    link_technology_problem,
    optic_in_cage,
    optics_problem,
)
from ..model.ports import LogicalPort
from .units import speed_label


@dataclass(frozen=True, slots=True)
class PortRef:
    device: str
    port: str

    def key(self) -> tuple[str, str]:
        return (self.device, self.port)


def port_title(doc: FabricDocument, ref: PortRef) -> str:
    device = doc.devices.get(ref.device)
    return f"{device.name if device else ref.device}:{ref.port}"


def _peer(link: Link, ref: PortRef) -> PortRef:
    other = link.b if link.a.key() == ref.key() else link.a
    return PortRef(other.device, other.port)


def port_in_use(doc: FabricDocument, ref: PortRef, ignore_link: str | None = None) -> str | None:
    """Why `ref` cannot take another cable (it already carries one), or None."""
    link = doc.link_at(ref.device, ref.port)
    if link is None or link.id == ignore_link:
        return None
    return f"{port_title(doc, ref)} is already used (cable to {port_title(doc, _peer(link, ref))})"


def _mode_hint(doc: FabricDocument, ref: PortRef, port: LogicalPort, speed: int) -> str:
    """A suggestion like 'set cage 3 of leaf-02 to 2x400G' when another mode would match."""
    for mode in port.group.breakouts:
        if BreakoutMode.parse(mode).speed_gbps == speed:
            return f"; set cage {port.cage} of {doc.devices[ref.device].name} to {mode}"
    return ""


def connection_problem(
    doc: FabricDocument, a: PortRef, b: PortRef, moving_link: str | None = None
) -> str | None:
    """Why a cable between ports `a` and `b` would be wrong, or None when it is fine.

    `moving_link` is the id of a link whose end is being moved: its own ports count as free.
    """
    if a.device == b.device:
        return "both ends are on the same device"
    ports: list[LogicalPort] = []
    for ref in (a, b):
        if ref.device not in doc.devices:
            return f"there is no device {ref.device!r}"
        port = doc.port(ref.device, ref.port)
        if port is None:
            return f"{doc.devices[ref.device].name} has no port {ref.port} in its breakout modes"
        used = port_in_use(doc, ref, moving_link)
        if used:
            return used
        ports.append(port)
    pa, pb = ports
    model_a, model_b = doc.device_model(a.device), doc.device_model(b.device)
    # refused only when no fabric setting would let the ends talk (a port the catalog says
    # runs Ethernet on an InfiniBand-only switch); a fabric port that runs the fabric's
    # technology on a switch of the other is left to the analysis (TECH-MISMATCH): the user
    # may be drawing a RoCE design before switching the project's technology
    fabric = fabric_family(doc.settings.technology)
    if all(link_technology_problem(pa.group, model_a, pb.group, model_b, f) for f in Technology):
        return (f"technology: at {port_title(doc, a)} "
                f"{end_technology_reason(pa.group, model_a, fabric)}, at {port_title(doc, b)} "
                f"{end_technology_reason(pb.group, model_b, fabric)}")
    ffa, ffb = pa.group.form_factor, pb.group.form_factor
    if (ffa == "RJ45") != (ffb == "RJ45"):
        return f"form factor: an {ffa} port cannot take a cable to an {ffb} port"
    if pa.speed_gbps != pb.speed_gbps:
        hint = _mode_hint(doc, b, pb, pa.speed_gbps) or _mode_hint(doc, a, pa, pb.speed_gbps)
        return (
            f"speed: {port_title(doc, a)} runs at {speed_label(pa.speed_gbps)}, "
            f"{port_title(doc, b)} at {speed_label(pb.speed_gbps)}{hint}"
        )
    optic_a = cage_transceiver(doc, a.device, pa.cage)
    optic_b = cage_transceiver(doc, b.device, pb.cage)
    if optic_a is not None and optic_b is not None:
        # the same rule as the analysis' fibre check: a DR4 port split 4x100G reaches a 100G
        # DR optic over a breakout cord, so only media and PMDs that never talk are refused
        problem = optics_problem(optic_a, optic_b)
        if problem:
            return f"optics: {problem}"
    return None


def cage_transceiver(doc: FabricDocument, device_id: str, cage: int) -> Transceiver | None:
    """The optic in a cage: the one installed, else a co-packaged port's built-in engine."""
    device = doc.devices[device_id]
    config = device.cages.get(cage)
    optic = installed_optic(doc.device_model(device), cage,
                            config.transceiver if config is not None else None)
    return doc.catalog.transceivers.get(optic) if optic else None


def _cage_spec(doc: FabricDocument, device_id: str, cage: int) -> CageSpec | None:
    """The cage's spec in its current breakout mode (None: the model has no such cage)."""
    device = doc.devices[device_id]
    model = doc.device_model(device)
    group = model.cage_group_of.get(cage)
    if group is None:
        return None
    config = device.cages.get(cage)
    mode = BreakoutMode.parse(config.mode if config and config.mode else group.default_breakout)
    return cage_spec(group, mode.legs, mode.speed_gbps, model.is_switch)


def transceiver_problem(doc: FabricDocument, device_id: str, cage: int, optic: Transceiver) -> str | None:
    """Why `optic` does not fit cage `cage` of the device in its current breakout mode, or None
    (model/fit.py decides, as the analysis and the generators do)."""
    spec = _cage_spec(doc, device_id, cage)
    if spec is None:
        return f"the model has no cage {cage}"
    return optic_in_cage(spec, optic, cage_technology(doc, device_id, cage))


def link_technology(doc: FabricDocument, link: Link) -> Technology:
    """The technology `link` runs (model/fit.py decides from its two ends)."""
    fabric = fabric_family(doc.settings.technology)
    pa, pb = doc.port(link.a.device, link.a.port), doc.port(link.b.device, link.b.port)
    if pa is None or pb is None:
        return fabric
    return link_family(pa.group, doc.device_model(link.a.device),
                       pb.group, doc.device_model(link.b.device), fabric)


def cage_technology(doc: FabricDocument, device_id: str, cage: int) -> Technology:
    """The technology the parts of a cage must run: that of the first link (by id) on it, else
    the technology its port runs (an Ethernet-only management cage: Ethernet in any design)."""
    for link in sorted(doc.links_of(device_id), key=lambda x: x.id):
        for end in (link.a, link.b):
            if end.device == device_id:
                port = doc.port(device_id, end.port)
                if port is not None and port.cage == cage:
                    return link_technology(doc, link)
    model = doc.device_model(device_id)
    return cage_family(model.cage_group_of[cage], model, fabric_family(doc.settings.technology))


def transceiver_fits(doc: FabricDocument, device_id: str, cage: int, optic: Transceiver) -> bool:
    """True when `optic` fits cage `cage` of the device in its current breakout mode."""
    return transceiver_problem(doc, device_id, cage, optic) is None


def compatible_transceivers(doc: FabricDocument, device_id: str, cage: int) -> list[Transceiver]:
    """The catalog optics that fit the cage, by part id."""
    spec = _cage_spec(doc, device_id, cage)
    if spec is None:
        return []
    family = cage_technology(doc, device_id, cage)
    return [
        t
        for _id, t in sorted(doc.catalog.transceivers.items())
        if optic_in_cage(spec, t, family) is None
    ]


def cable_problem(doc: FabricDocument, link: Link, cable: CableAssembly) -> str | None:
    """Why `cable` cannot be the media of `link` given both ends' cages and optics, or None
    (model/fit.py decides, as the analysis and the generators do)."""
    specs = []
    optics = []
    for end in (link.a, link.b):
        port = doc.port(end.device, end.port)
        if port is None:
            return f"{port_title(doc, PortRef(end.device, end.port))} is not a port"
        specs.append(cage_spec(port.group, port.legs, port.speed_gbps,
                               doc.device_model(end.device).is_switch))
        optics.append(cage_transceiver(doc, end.device, port.cage))
    return cable_between(cable, specs[0], optics[0], specs[1], optics[1],
                         link_technology(doc, link))


def cable_fits(doc: FabricDocument, link: Link, cable: CableAssembly) -> bool:
    """True when `cable` can be the media of `link` given both ends' ports and optics."""
    return cable_problem(doc, link, cable) is None


def compatible_cables(doc: FabricDocument, link: Link) -> list[CableAssembly]:
    return [c for _id, c in sorted(doc.catalog.cables.items()) if cable_fits(doc, link, c)]
