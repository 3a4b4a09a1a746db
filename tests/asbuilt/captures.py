"""What the tools print for a design cabled as planned, or with chosen faults, in the layouts the
tools' own code prints (test-only; it lived in the product as `asbuilt/simulate.py`):

* `ibnetdiscover_text`: rdma-core `infiniband-diags/ibnetdiscover.c` (`out_ids`, `out_switch`,
  `out_switch_detail`, `out_ca`, `out_ca_detail`, `out_switch_port`, `out_ca_port`): tabs where
  it prints tabs, a GUID in parentheses unpadded (`%PRIx64`), a node in quotes padded to 16 hex
  digits (`node_name`), width and speed as `dump_linkwidth_compat` / `dump_linkspeedext_compat`
  spell them (`4x`, `2x`; `NDR`, `XDR`), `--full` (` s=%d w=%d v=%d`) and `--group`
  (`Non-Chassis Nodes`, the `\\t# ` after `switchguid`) as options;
* `lldp_outputs`: `lldpctl -f json` as lldpd's `src/client/json_writer.c` shapes it (one
  neighbour: an object keyed by the interface; several: a list of one-key objects; the chassis
  keyed by its SysName; a Linux host's port id a MAC with the netdev name in `descr`, as in
  lldpd's `tests/integration/test_lldpcli.py`; `auto-negotiation.current` the MAU text of
  lldpd's `src/lib/atoms/port.c`, none for 800G, which lldpd has no MAU for);
* `netbox_table_csv`: NetBox's cable list export (`dcim/tables/cables.py`, `CableTable`:
  verbose column names, display values, terminations joined by commas).

`planned_links(doc)` gives the design's links as `SimLink`s; change that list (swap ends, move
one, drop one, add one) and write it.  Port names are those of each device's OS (`PortNamer`):
servers answer LLDP with their netdev names (Ethernet-mode names on an Ethernet link) and
ibnetdiscover with their RDMA devices.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from aicnet_gui.fileio.atomic import write_atomic
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.port_names_os import PortNamer

Port = tuple[str, str]
LANE_NAMES = {2.5: "SDR", 5: "DDR", 10: "QDR", 14: "FDR", 25: "EDR", 50: "HDR", 100: "NDR",
              200: "XDR"}
"""Lane rate -> the speed word ibnetdiscover prints (`dump_linkspeedext_compat`)."""
WIDTH_CODES = {1: 1, 4: 2, 8: 4, 12: 8, 2: 16}
"""Lanes -> the LinkWidthActive code `--full` prints as `w=` (`dump_linkwidth_compat`)."""
SPEED_CODES = {"SDR": 1, "DDR": 2, "QDR": 4}
"""LinkSpeedActive as `s=` prints it; FDR and faster show 4 there with the speed in the
extended field (ibnetdiscover.c: `ispeed != 4 && !espeed`)."""
MAU = {25: "25GbaseR - 25GBASE-R PCS/PMA over undefined PMD",
       50: "50GbaseR - 50GBASE-R Multi-lane PCS over undefined PMA/PMD",
       100: "100GbaseR - 100GBASE-R Multi-lane PCS over undefined PMA/PMD",
       200: "200GbaseR - 200GBASE-R Multi-lane PCS over undefined PMA/PMD",
       400: "400GbaseR - 400GBASE-R Multi-lane PCS over undefined PMA/PMD"}
"""lldpd's operational MAU type texts (src/lib/atoms/port.c) by speed."""


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

    def lanes(self, end: Port) -> int:
        port = self.doc.port(*end)
        return max(1, port.group.lanes // port.legs) if port is not None else 4


def lldp_outputs(doc: FabricDocument, links: list[SimLink], namer: PortNamer,
                 hosts: set[str] | None = None, domain: str = "") -> dict[str, dict[str, Any]]:
    """device name -> its `lldpctl -f json` output (as parsed JSON), for every device (or the
    device ids in `hosts`) that has a neighbour; `domain` is appended to the servers' SysNames
    (lldpd sends the FQDN: `ns-2.example.com` in lldpd's tests)."""
    names = _Names(doc, namer)
    neighbours: dict[str, list[tuple[Port, Port, SimLink]]] = defaultdict(list)
    for link in links:
        neighbours[link.a[0]].append((link.a, link.b, link))
        neighbours[link.b[0]].append((link.b, link.a, link))
    outputs: dict[str, dict[str, Any]] = {}
    for device_id in sorted(neighbours):
        if hosts is not None and device_id not in hosts:
            continue
        entries = []
        local_switch = names.switch(device_id)
        for rid, (local, remote, link) in enumerate(sorted(neighbours[device_id],
                                                          key=lambda n: (n[0], n[1])), start=1):
            local_name = names.os_port(local) if local_switch else names.server_netdev(local)
            if names.switch(remote[0]):
                port: dict[str, Any] = {"id": {"type": "ifname", "value": names.os_port(remote)},
                                        "descr": names.os_port(remote), "ttl": "120"}
                descr = "Cumulus Linux version 5.9.1 running on NVIDIA SN5600"
                sysname = names.host(remote[0])
            else:
                port = {"id": {"type": "mac", "value": _mac(names.index[remote[0]] * 64)},
                        "descr": names.server_netdev(remote), "ttl": "120"}
                descr = "Ubuntu 22.04.4 LTS Linux 5.15.0-105-generic #115-Ubuntu SMP x86_64"
                sysname = names.host(remote[0]) + domain
            mau = MAU.get(int(link.speed_gbps or 0))
            if mau is not None:
                port["auto-negotiation"] = {"supported": False, "enabled": False,
                                            "current": mau}
            chassis = {sysname: {
                "id": {"type": "mac", "value": _mac(names.index[remote[0]] * 64 + 63)},
                "descr": descr, "mgmt-ip": f"10.0.{names.index[remote[0]] // 250}."
                                           f"{names.index[remote[0]] % 250 + 1}",
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


def _rate(speed: float | None, lanes: int, full: bool) -> str:
    """`4xNDR` (and ` s=4 w=2 v=4` with --full) for a link of `speed` over `lanes` lanes."""
    if not speed:
        return "??" + "???"
    lane = speed / lanes
    word = LANE_NAMES.get(lane, "???")
    text = f"{'??' if lanes not in WIDTH_CODES else f'{lanes}x'}{word}"
    if full:
        text += f" s={SPEED_CODES.get(word, 4)} w={WIDTH_CODES.get(lanes, 0)} v=4"
    return text


def ibnetdiscover_text(doc: FabricDocument, links: list[SimLink], namer: PortNamer,
                       full: bool = False, group: bool = False) -> str:
    """The topology file `ibnetdiscover` (`--full`, `--group`) prints for `links`: switch ports
    by number, one single-port Ca per server NIC described `<host> <mlx5_N>`."""
    names = _Names(doc, namer)
    switch_ports: dict[str, list[tuple[int, Port, SimLink, Port]]] = defaultdict(list)
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
                switch_ports[near[0]].append((number(near), far, link, near))
            else:
                cas[near] = (far, link)

    def switch_guid(device_id: str) -> int:
        return 0xb8599f0300000000 + names.index[device_id]

    def ca_guid(end: Port) -> int:
        ports = list(doc.ports(end[0]))
        return 0xe09d730300000000 + (names.index[end[0]] << 12) + ports.index(end[1])

    def lid(key: Any) -> int:
        return lids.setdefault(key, len(lids) + 1)

    def switch_desc(device_id: str) -> str:
        return f"MF0;{names.host(device_id)}:M{doc.device_model(device_id).model}/U1"

    def ca_desc(end: Port) -> str:
        return f"{names.host(end[0])} {namer.name(end[0], end[1], 'linux-rdma')}"

    def remote(far: Port) -> tuple[str, str, int]:
        """The far end as a port line prints it: quoted node and port (+ the CA's port GUID),
        its description and its LID."""
        if names.switch(far[0]):
            return f'"S-{switch_guid(far[0]):016x}"[{number(far)}]', switch_desc(far[0]), \
                lid(far[0])
        return f'"H-{ca_guid(far):016x}"[1]', ca_desc(far), lid(far)

    out = ["#", "# Topology file: generated on Tue Dec  1 01:00:00 2026", "#",
           f"# Initiated from node {0xe09d730300000000:016x} port {0xe09d730300000001:016x}"]
    if group:
        out += ["", "Non-Chassis Nodes"]
    for device_id in sorted(switch_ports):
        guid = switch_guid(device_id)
        out += ["", "vendid=0x2c9", "devid=0xd2f0", f"sysimgguid=0x{guid:x}",
                f"switchguid=0x{guid:x}({guid:x})" + ("\t# " if group else ""),
                f'Switch\t{len(doc.ports(device_id)) + 1} "S-{guid:016x}"\t\t# '
                f'"{switch_desc(device_id)}" enhanced port 0 lid {lid(device_id)} lmc 0']
        for port, far, link, near in sorted(switch_ports[device_id], key=lambda item: item[0]):
            node, desc, far_lid = remote(far)
            if not names.switch(far[0]):
                node += f"({ca_guid(far):x}) "
            out.append(f'[{port}]\t{node}\t\t# "{desc}" lid {far_lid} '
                       f"{_rate(link.speed_gbps, names.lanes(near), full)}")
    for end in sorted(cas):
        far, link = cas[end]
        guid = ca_guid(end)
        node, desc, far_lid = remote(far)
        if not names.switch(far[0]):
            node += f" ({ca_guid(far):x}) "
        out += ["", "vendid=0x2c9", "devid=0x1021", f"sysimgguid=0x{guid:x}", f"caguid=0x{guid:x}",
                f'Ca\t1 "H-{guid:016x}"\t\t# "{ca_desc(end)}"',
                f'[1]({guid:x}) \t{node}\t\t# lid {lid(end)} lmc 0 "{desc}" lid {far_lid} '
                f"{_rate(link.speed_gbps, names.lanes(end), full)}"]
    return "\n".join(out) + "\n"


TABLE_HEADER = ("ID", "Label", "Device A", "Termination A", "Device B", "Termination B",
                "Status", "Profile", "Type", "Length")


def netbox_table_csv(doc: FabricDocument, links: list[SimLink], namer: PortNamer,
                     status: str = "Connected") -> str:
    """NetBox's cable list exported with the Device A/B columns added: one cable per link."""
    names = _Names(doc, namer)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(TABLE_HEADER)
    for number, link in enumerate(links, start=1):
        writer.writerow([number, f"C{number:06d}", names.host(link.a[0]), names.os_port(link.a),
                         names.host(link.b[0]), names.os_port(link.b), status, "1C1P", "MMF",
                         "5.00 Meters"])
    return buffer.getvalue()
