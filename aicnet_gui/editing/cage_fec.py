"""The FEC a cage runs when none is configured: its line's default (model/fec.py).

The inspector's cage rows offer a FEC per cage (`CageConfig.fec`); when the cage configures
none, its ports run the default of their line: the optic's PMD per logical port (a broken-out
optical port carries several), or, with no optic, the copper cable of a port in the cage.  The
same reading as FEC-MISMATCH (analysis/rules_fec.py) makes, without the analysis store.
InfiniBand ports negotiate their FEC in the InfiniBand PHY: nothing to say there.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import get_args

from ..model.document import FabricDocument
from ..model.fabric import Device, FabricTechnology
from ..model.fec import FEC_NAMES, Fec, Line, cable_line, optic_line
from ..model.fit import installed_optic, ports_per_optical_port
from ..model.ports import LogicalPort

#: the choices of `CageConfig.fec`, in the order the inspector offers them
FEC_CHOICES: tuple[str, ...] = get_args(Fec)


def fec_settable(doc: FabricDocument) -> str | None:
    """Why a FEC cannot be set per cage on this fabric (InfiniBand), or None."""
    if doc.settings.technology == FabricTechnology.INFINIBAND:
        return ("InfiniBand ports negotiate their FEC in the InfiniBand PHY (not IEEE 802.3): "
                "there is no FEC to configure per cage")
    return None


def cage_line(doc: FabricDocument, device: Device, cage: int) -> Line | None:
    """The line one logical port of `cage` runs: its optic's, else its copper cable's; None
    when the cage has neither (or the part's PMD or lane rate is not known)."""
    return _cage_lines(doc, device, [cage])[cage][0]


def _cage_lines(doc: FabricDocument, device: Device, cages: Iterable[int]
                ) -> dict[int, tuple[Line | None, bool]]:
    """(line, on a copper cable) of each of `cages` of a device, see `cage_line`; the device's
    ports are read once.  A port that runs on part of a copper cable's lanes (a 2x400G cage on
    a twin-port 800G DAC) counts its own lanes."""
    ports_of: dict[int, list[LogicalPort]] = {}
    for port in doc.ports(device).values():
        ports_of.setdefault(port.cage, []).append(port)
    lines: dict[int, tuple[Line | None, bool]] = {}
    for cage in cages:
        ports = ports_of.get(cage, [])
        config = device.cages.get(cage)
        installed = installed_optic(doc.device_model(device), cage,
                                    config.transceiver if config is not None else None)
        optic = doc.catalog.transceivers.get(installed) if installed else None
        if optic is not None:
            legs = ports[0].legs if ports else 1
            lines[cage] = optic_line(optic, ports_per_optical_port(legs, optic)), False
            continue
        lines[cage] = None, False
        for port in ports:
            link = doc.link_at(device.id, port.name)
            cable = doc.catalog.cables.get(link.cable) if link is not None and link.cable else None
            if cable is not None:
                line = cable_line(cable)
                if line is not None and cable.leg_gbps and port.speed_gbps < cable.leg_gbps:
                    # a port on part of a twin-port cable's lanes (2x400G on an 800G DAC)
                    lanes = round(line.lanes * port.speed_gbps / cable.leg_gbps)
                    line = line._replace(lanes=max(lanes, 1))
                lines[cage] = line, line is not None
                break
    return lines


def _known_lines(doc: FabricDocument, devices: Iterable[Device], cages: Iterable[int]
                 ) -> set[tuple[Line, bool]]:
    cage_list = list(cages)
    return {(line, copper) for device in devices
            for line, copper in _cage_lines(doc, device, cage_list).values() if line is not None}


def fec_texts(doc: FabricDocument, devices: Iterable[Device], cages: Iterable[int]
              ) -> tuple[str, str]:
    """What the cages run with no FEC configured, in words for the inspector (the default FEC
    of their line, or why none is known), and their line with what IEEE 802.3 allows on it
    (for a tooltip; '' when the cages do not share one line)."""
    known = _known_lines(doc, devices, cages)
    if not known:
        return "line default (no optic or cable yet)", ""
    lines = {line for line, _copper in known}
    defaults = {line.fec[0] for line in lines}
    if len(defaults) > 1:
        default = "line default (differs between these cages)"
    else:
        # an unconfigured end on a copper cable negotiates its FEC (clause 73 auto-negotiation)
        negotiated = all(copper for _line, copper in known)
        default = (f"line default: {FEC_NAMES[next(iter(defaults))]}"
                   + (", negotiated on copper" if negotiated else ""))
    if len(lines) != 1:
        return default, ""
    line = lines.pop()
    allowed = ", ".join(FEC_NAMES[f] for f in line.fec)
    return default, f"{line.text()}; allowed: {allowed} ({line.clause})"
