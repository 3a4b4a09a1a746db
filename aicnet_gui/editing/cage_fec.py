"""The FEC a cage runs when none is configured: its line's default (model/fec.py).

The inspector's cage rows offer a FEC per cage (`CageConfig.fec`); when the cage configures
none, its ports run the default of their line: the optic's PMD per logical port (a broken-out
optical port carries several), or, with no optic, the copper cable of a port in the cage.  The
same reading as FEC-MISMATCH (analysis/rules_fec.py) makes, without the analysis store.
InfiniBand ports negotiate their FEC in the InfiniBand PHY: nothing to say there.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model.document import FabricDocument
from ..model.fabric import Device, FabricTechnology
from ..model.fec import FEC_NAMES, Line, cable_line, optic_line
from ..model.fit import ports_per_optical_port

#: the choices of `CageConfig.fec`, in the order the inspector offers them
FEC_CHOICES: tuple[str, ...] = ("rs544", "rs528", "baser", "off")


def fec_settable(doc: FabricDocument) -> str | None:
    """Why a FEC cannot be set per cage on this fabric (InfiniBand), or None."""
    if doc.settings.technology == FabricTechnology.INFINIBAND:
        return ("InfiniBand ports negotiate their FEC in the InfiniBand PHY (not IEEE 802.3): "
                "there is no FEC to configure per cage")
    return None


def cage_line(doc: FabricDocument, device: Device, cage: int) -> Line | None:
    """The line one logical port of `cage` runs: its optic's, else its copper cable's; None
    when the cage has neither (or the part's PMD or lane rate is not known)."""
    return _cage_line(doc, device, cage)[0]


def _cage_line(doc: FabricDocument, device: Device, cage: int) -> tuple[Line | None, bool]:
    """(line, on a copper cable) of `cage`, see `cage_line`."""
    ports = [p for p in doc.ports(device).values() if p.cage == cage]
    config = device.cages.get(cage)
    optic = (doc.catalog.transceivers.get(config.transceiver)
             if config is not None and config.transceiver else None)
    if optic is not None:
        legs = ports[0].legs if ports else 1
        return optic_line(optic, ports_per_optical_port(legs, optic)), False
    for port in ports:
        link = doc.link_at(device.id, port.name)
        cable = doc.catalog.cables.get(link.cable) if link is not None and link.cable else None
        if cable is not None:
            line = cable_line(cable)
            return line, line is not None
    return None, False


def default_fec_text(doc: FabricDocument, devices: Iterable[Device], cages: Iterable[int]) -> str:
    """What the cages run with no FEC configured, in words for the inspector: the default FEC
    of their line(s), or why none is known."""
    ends = {_cage_line(doc, device, cage) for device in devices for cage in cages}
    known = {(line, copper) for line, copper in ends if line is not None}
    if not known:
        return "line default (no optic or cable yet)"
    defaults = {line.fec[0] for line, _copper in known}
    if len(defaults) > 1:
        return "line default (differs between these cages)"
    default = defaults.pop()
    # an unconfigured end on a copper cable negotiates its FEC (clause 73 auto-negotiation)
    negotiated = all(copper for _line, copper in known)
    return f"line default: {FEC_NAMES[default]}" + (", negotiated on copper" if negotiated else "")


def line_text(doc: FabricDocument, devices: Iterable[Device], cages: Iterable[int]) -> str:
    """The line of the cages and what IEEE 802.3 allows on it (a tooltip), or ''."""
    known = {line for device in devices for cage in cages
             if (line := cage_line(doc, device, cage)) is not None}
    if len(known) != 1:
        return ""
    line = known.pop()
    allowed = ", ".join(FEC_NAMES[f] for f in line.fec)
    return f"{line.text()}; allowed: {allowed} ({line.clause})"
