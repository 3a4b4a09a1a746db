"""What the tools would print for a design cabled as planned, or with chosen faults: lldpctl
JSON, ibnetdiscover text and a NetBox cable export, in those tools' exact layouts.

For dry runs of `aicnet verify` (what will it expect from LLDP on this fabric?), the tests
(observations with seeded faults) and the benchmark.  `planned_links(doc)` gives the design's
links as `SimLink`s; change that list (swap ends, move one, drop one, add one) and write it.
Port names are those of each device's OS (`PortNamer`); servers answer LLDP with their netdev
names and ibnetdiscover with their RDMA devices when the catalog knows them.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from ..fileio.atomic import write_atomic
from ..model.document import FabricDocument
from ..model.port_names_os import PortNamer

Port = tuple[str, str]
_RATES = {100: "NDR", 50: "HDR", 200: "XDR", 25: "EDR"}


@dataclass
class SimLink:
    a: Port
    b: Port
    speed_gbps: float | None = None


def planned_links(doc: FabricDocument) -> list[SimLink]:
    """Every link of the design, at its planned speed."""
    links = []
    for link in doc.links.values():
        ports = [doc.port(*link.a), doc.port(*link.b)]
        speed = min((p.speed_gbps for p in ports if p is not None), default=None)
        links.append(SimLink((link.a.device, link.a.port), (link.b.device, link.b.port), speed))
    return links


def _mac(index: int) -> str:
    raw = f"{0x0c42a1000000 + index:012x}"
    return ":".join(raw[i:i + 2] for i in range(0, 12, 2))


class _Names:
    def __init__(self, doc: FabricDocument, namer: PortNamer) -> None:
        self.doc, self.namer = doc, namer
        self.index = {device_id: i for i, device_id in enumerate(sorted(doc.devices))}

    def host(self, device_id: str) -> str:
        return self.doc.devices[device_id].name

    def switch(self, device_id: str) -> bool:
        return self.doc.device_model(device_id).is_switch

    def os_port(self, end: Port) -> str:
        return self.namer.name(end[0], end[1])

    def server_netdev(self, end: Port) -> str:
        return self.namer.name(end[0], end[1], "linux-netdev")


def lldp_outputs(doc: FabricDocument, links: list[SimLink], namer: PortNamer,
                 hosts: set[str] | None = None) -> dict[str, dict[str, Any]]:
    """device name -> its `lldpctl -f json` output (as parsed JSON), for every device (or the
    device ids in `hosts`) that has a neighbour."""
    names = _Names(doc, namer)
    neighbours: dict[str, list[tuple[Port, Port]]] = defaultdict(list)
    for link in links:
        neighbours[link.a[0]].append((link.a, link.b))
        neighbours[link.b[0]].append((link.b, link.a))
    outputs: dict[str, dict[str, Any]] = {}
    for device_id in sorted(neighbours):
        if hosts is not None and device_id not in hosts:
            continue
        entries = []
        local_switch = names.switch(device_id)
        for rid, (local, remote) in enumerate(sorted(neighbours[device_id]), start=1):
            local_name = names.os_port(local) if local_switch else names.server_netdev(local)
            if names.switch(remote[0]):
                port = {"id": {"type": "ifname", "value": names.os_port(remote)},
                        "descr": names.os_port(remote), "ttl": "120"}
                descr = "Cumulus Linux version 5.9.1 running on NVIDIA SN5600"
            else:
                netdev = names.server_netdev(remote)
                port = {"id": {"type": "mac", "value": _mac(names.index[remote[0]] * 64)},
                        "descr": netdev, "ttl": "120"}
                descr = "Ubuntu 22.04.4 LTS Linux 5.15.0-105-generic #115-Ubuntu SMP x86_64"
            chassis = {names.host(remote[0]): {
                "id": {"type": "mac", "value": _mac(names.index[remote[0]] * 64 + 63)},
                "descr": descr,
                "capability": [{"type": "Bridge", "enabled": names.switch(remote[0])},
                               {"type": "Router", "enabled": False}]}}
            entries.append({local_name: {"via": "LLDP", "rid": str(rid),
                                         "age": "0 day, 02:13:41", "chassis": chassis,
                                         "port": port}})
        interface: Any = entries[0] if len(entries) == 1 else entries
        outputs[names.host(device_id)] = {"lldp": {"interface": interface}}
    return outputs


def write_lldp_files(outputs: dict[str, dict[str, Any]], folder: str | Path) -> list[Path]:
    """One `<host>.json` per device, as `lldpctl -f json > <host>.json` leaves them."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    paths = []
    for host, output in outputs.items():
        if not host or host.startswith(".") or "/" in host or "\\" in host or "\0" in host:
            raise ValueError(f"{host!r} cannot be a file name in {target}")
        path = target / f"{host}.json"
        write_atomic(path, orjson.dumps(output, option=orjson.OPT_INDENT_2), keep_backup=False)
        paths.append(path)
    return paths


def _rate(speed: float | None) -> str:
    if not speed:
        return ""
    lane = speed / 4
    name = _RATES.get(int(lane)) if lane == int(lane) else None
    return f"4x{name}" if name else ""


def ibnetdiscover_text(doc: FabricDocument, links: list[SimLink], namer: PortNamer) -> str:
    """The topology file ibnetdiscover prints for `links` (switch ports by number, one
    single-port Ca per server NIC named `<host> <mlx5_N>`)."""
    names = _Names(doc, namer)
    switch_ports: dict[str, list[tuple[int, Port, SimLink]]] = defaultdict(list)
    cas: dict[Port, tuple[Port, SimLink]] = {}
    lids: dict[Any, int] = {}

    def number(end: Port) -> int:
        text = namer.name(end[0], end[1], "ib-port")
        if not text.isdigit():
            raise ValueError(f"{names.host(end[0])}:{end[1]} has no InfiniBand port number")
        return int(text)

    for link in links:
        for near, far in ((link.a, link.b), (link.b, link.a)):
            if names.switch(near[0]):
                switch_ports[near[0]].append((number(near), far, link))
            else:
                cas[near] = (far, link)

    def switch_guid(device_id: str) -> str:
        return f"S-b8599f03{names.index[device_id]:08x}"

    def ca_guid(end: Port) -> str:
        ports = list(doc.ports(end[0]))
        return f"e09d7303{names.index[end[0]]:05x}{ports.index(end[1]):03x}"

    def lid(key: Any) -> int:
        return lids.setdefault(key, len(lids) + 1)

    def switch_desc(device_id: str) -> str:
        return f"MF0;{names.host(device_id)}:M{doc.device_model(device_id).model}/U1"

    def ca_desc(end: Port) -> str:
        return f"{names.host(end[0])} {namer.name(end[0], end[1], 'linux-rdma')}"

    out = ["#", "# Topology file: generated on Tue Dec  1 01:00:00 2026", "#",
           "# Initiated from node e09d730300000000 port e09d730300000001", ""]
    for device_id in sorted(switch_ports):
        total = len(doc.ports(device_id)) + 1
        out += ["vendid=0x2c9", "devid=0xd2f0", f"sysimgguid=0x{switch_guid(device_id)[2:]}",
                f"switchguid=0x{switch_guid(device_id)[2:]}({switch_guid(device_id)[2:]})",
                f'Switch\t{total} "{switch_guid(device_id)}"\t\t# "{switch_desc(device_id)}" '
                f"enhanced port 0 lid {lid(device_id)} lmc 0"]
        for port, far, link in sorted(switch_ports[device_id], key=lambda item: item[0]):
            if names.switch(far[0]):
                remote = f'"{switch_guid(far[0])}"[{number(far)}]'
                desc, far_lid = switch_desc(far[0]), lid(far[0])
            else:
                guid = ca_guid(far)
                remote = f'"H-{guid}"[1]({guid}) '
                desc, far_lid = ca_desc(far), lid(far)
            out.append(f'[{port}]\t{remote}\t\t# "{desc}" lid {far_lid} {_rate(link.speed_gbps)}'
                       .rstrip())
        out.append("")
    for end in sorted(cas):
        far, link = cas[end]
        guid = ca_guid(end)
        if names.switch(far[0]):
            remote = f'"{switch_guid(far[0])}"[{number(far)}]'
            desc, far_lid = switch_desc(far[0]), lid(far[0])
        else:
            remote = f'"H-{ca_guid(far)}"[1]({ca_guid(far)}) '
            desc, far_lid = ca_desc(far), lid(far)
        out += ["vendid=0x2c9", "devid=0x1021", f"sysimgguid=0x{guid}", f"caguid=0x{guid}",
                f'Ca\t1 "H-{guid}"\t\t# "{ca_desc(end)}"',
                f'[1]({guid}) \t{remote}\t\t# lid {lid(end)} lmc 0 "{desc}" lid {far_lid} '
                f"{_rate(link.speed_gbps)}".rstrip(), ""]
    return "\n".join(out) + "\n"


def netbox_cables_csv(doc: FabricDocument, links: list[SimLink], namer: PortNamer) -> str:
    """NetBox's cable table exported with the Device A/B columns added, status Connected."""
    names = _Names(doc, namer)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["ID", "Label", "Device A", "Termination A", "Device B", "Termination B",
                     "Status", "Type"])
    for number, link in enumerate(links, start=1):
        writer.writerow([number, f"C{number:06d}", names.host(link.a[0]), names.os_port(link.a),
                         names.host(link.b[0]), names.os_port(link.b), "Connected", "MMF (OM4)"])
    return buffer.getvalue()
