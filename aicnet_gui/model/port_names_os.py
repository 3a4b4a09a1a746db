"""Port names as the operating systems spell them (Cumulus `swp1s0`, SONiC `Ethernet8`, EOS
`Ethernet1/5`, NX-OS `Ethernet1/1/1`, Junos `et-0/0/0:1`, InfiniBand port numbers as
`ibnetdiscover` prints them, Linux `mlx5_N` RDMA devices and netdev names on servers).

aicnet's own port names (`p1`, `5/1`, `swp3s0`) are what a design stores; this module maps a
design port to the name an operating system uses, and back, from the `os_names` of each cage
group in the catalog.  Each naming carries its own `source` and `verified` flag, like every other
catalog fact.  A naming is either a pattern per number of legs (`ports`) with the placeholders
of `CageGroup.port_name` plus:

* `{lane0}`: the 0-based index of the leg's first electrical lane within the group
  (`(pos - 1) * lanes + leg0 * lanes_per_leg`): SONiC's `Ethernet0`, `Ethernet8`, `Ethernet4`;
* `{lane1}`: the 1-based lane of the leg's first lane within its cage: EOS `Ethernet3/5`;

or an explicit list (`names`) in the group's logical port order (`{n}` = 1, 2, ...), for
servers whose NIC numbering follows no pattern (DGX H100: OSFP1P1 is `mlx5_11`).

The fabric's `Settings.port_os` picks the operating system per device model; without an entry,
the model's `default_os`, else one by vendor (`VENDOR_OS`).  A port without a naming for that
OS keeps its design name.  Qt-free; used by the exports, the inspector and `aicnet verify`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from .fit import fabric_family, link_family
from .os_naming import OS_PORT_FIELDS, OsName, OsPortNaming

__all__ = ["OS_PORT_FIELDS", "OS_TITLES", "OsName", "OsPortNaming", "PortNamer", "default_os",
           "name_for", "netdev_in_mode", "oses_of", "os_choices"]

OS_TITLES: dict[str, str] = {
    "design": "aicnet design names",
    "cumulus": "NVIDIA Cumulus Linux",
    "nvos": "NVIDIA NVOS",
    "mlnx-os": "NVIDIA MLNX-OS (Onyx)",
    "ib-port": "InfiniBand port number (ibnetdiscover)",
    "sonic": "SONiC",
    "eos": "Arista EOS",
    "nxos": "Cisco NX-OS",
    "junos": "Juniper Junos",
    "linux-rdma": "Linux RDMA device (servers)",
    "linux-netdev": "Linux network interface (servers)",
    "panel": "front-panel port label",
}
DESIGN = "design"
VENDOR_OS: dict[str, str] = {
    "nvidia": "cumulus",
    "arista": "eos",
    "cisco": "nxos",
    "juniper": "junos",
}
"""Default OS by vendor (lower case) when a model names no `default_os`."""
SERVER_OS = "linux-rdma"
NETDEV = "linux-netdev"
_IB_NETDEV = re.compile(r"^ib(?P<path>(?:P\d+)?p\d+s\d+(?:f(?P<fn>\d+))?|s\d+(?:f(?P<sfn>\d+))?)$")
_EN_NETDEV = re.compile(r"^en(?P<path>(?:P\d+)?p\d+s\d+(?:f\d+)?|s\d+(?:f\d+)?)np\d+$")


def netdev_in_mode(name: str, technology: str) -> str:
    """A ConnectX port's Linux netdev name in the mode the port runs.

    The catalog gives each NIC port one name, in the mode NVIDIA's guide lists (the DGX H100
    compute ports: InfiniBand, `ibp220s0`).  systemd names the same PCI function `ib...` in
    InfiniBand mode and `en...` with the port's `n<phys_port_name>` in Ethernet mode
    (systemd.net-naming-scheme(7): `[P<domain>]p<bus>s<slot>[f<function>][n<phys_port_name>]`;
    mlx5's phys_port_name is `p<N>`, N the PCI function), as the DGX H100 User Guide's Table 5
    pairs them: `ibp170s0f0` / `enp170s0f0np0`, `enp170s0f1np1` / `ibp170s0f1`.  So
    `ibp220s0` runs Ethernet as `enp220s0np0`.  Other names are returned as they are."""
    if technology == "ethernet":
        match = _IB_NETDEV.match(name)
        if match:
            return f"en{match.group('path')}np{match.group('fn') or match.group('sfn') or 0}"
    elif technology == "infiniband":
        match = _EN_NETDEV.match(name)
        if match:
            return f"ib{match.group('path')}"
    return name
# What this module reads of the catalog, the ports and the document.  Structural types, so the
# naming entities (which catalog_entities.py imports) need not import their importers back.
class CageGroup(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def first(self) -> int: ...
    @property
    def lanes(self) -> int: ...
    @property
    def os_names(self) -> Mapping[str, OsPortNaming]: ...
    @property
    def cage_numbers(self) -> range: ...


class DeviceModel(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def vendor(self) -> str: ...
    @property
    def default_os(self) -> str | None: ...
    @property
    def is_switch(self) -> bool: ...
    @property
    def cages(self) -> Sequence[CageGroup]: ...


class LogicalPort(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def cage(self) -> int: ...
    @property
    def leg(self) -> int: ...
    @property
    def legs(self) -> int: ...
    @property
    def group(self) -> CageGroup: ...


class FabricDocument(Protocol):
    @property
    def settings(self) -> Any: ...
    @property
    def devices(self) -> Mapping[str, Any]: ...
    def device_model(self, device: Any) -> DeviceModel: ...
    def ports(self, device_id: str) -> Mapping[str, LogicalPort]: ...
    def port(self, device_id: str, port: str) -> LogicalPort | None: ...
    def link_at(self, device_id: str, port: str) -> Any: ...


def _values(group: CageGroup, port: LogicalPort) -> dict[str, int]:
    lanes_per_leg = group.lanes // port.legs
    pos = port.cage - group.first + 1
    return {
        "cage": port.cage, "leg": port.leg, "leg0": port.leg - 1, "pos": pos,
        "n": (port.cage - group.first) * port.legs + port.leg,
        "lane0": (pos - 1) * group.lanes + (port.leg - 1) * lanes_per_leg,
        "lane1": (port.leg - 1) * lanes_per_leg + 1,
    }


def name_for(naming: OsPortNaming, group: CageGroup, port: LogicalPort) -> str | None:
    """The name `naming` gives `port` of `group`, or None when it has none for it."""
    values = _values(group, port)
    if naming.names:
        index = values["n"] - 1
        return naming.names[index] if 0 <= index < len(naming.names) else None
    pattern = naming.ports.get(str(port.legs)) or naming.ports.get("*")
    return pattern.format(**values) if pattern else None


def default_os(model: DeviceModel) -> str:
    """The OS a model runs unless the design says otherwise."""
    if model.default_os:
        return model.default_os
    if not model.is_switch:
        return SERVER_OS
    return VENDOR_OS.get(model.vendor.lower(), DESIGN)


def oses_of(*models: DeviceModel | None) -> list[str]:
    """The namings the catalog knows for a model (or its versions), `design` first."""
    found: dict[str, None] = {DESIGN: None}
    for model in models:
        for group in model.cages if model is not None else ():
            for os_name in group.os_names:
                found[os_name] = None
    return list(found)


class PortNamer:
    """OS port names of one document's devices, both ways, cached per model and breakout modes.

    `fallback` is a catalog (the local one) whose cage groups lend their `os_names` to a
    document's embedded entries that have none: a design saved before namings existed still
    gets the names the local catalog knows.  `os_by_model` overrides `Settings.port_os`.
    """

    def __init__(self, doc: FabricDocument, fallback: Mapping[str, DeviceModel] | None = None,
                 os_by_model: Mapping[str, str] | None = None) -> None:
        self.doc = doc
        self._fallback = fallback or {}
        chosen = dict(getattr(doc.settings, "port_os", {}) or {})
        chosen.update(os_by_model or {})
        self._chosen = chosen
        self._forward: dict[tuple[str, str], dict[str, str]] = {}
        self._reverse: dict[tuple[str, tuple[str, ...]], dict[str, str]] = {}

    def os_of(self, model: DeviceModel) -> str:
        chosen = self._chosen.get(model.id)
        if chosen:
            return chosen
        other = self._fallback.get(model.id)
        if model.default_os is None and other is not None and other.default_os:
            return other.default_os
        return default_os(model)

    def _namings(self, model: DeviceModel, group: CageGroup) -> Mapping[str, OsPortNaming]:
        if group.os_names:
            return group.os_names
        other = self._fallback.get(model.id)
        if other is None:
            return {}
        for candidate in other.cages:
            if candidate.name == group.name and candidate.cage_numbers == group.cage_numbers:
                return candidate.os_names
        return {}

    def _technology(self, device_id: str, port: LogicalPort) -> str | None:
        """What the link on a device's port runs (model/fit.py's `link_family`, as the analysis
        and the generators decide it); None for a port without a link."""
        link = self.doc.link_at(device_id, port.name)
        if link is None:
            return None
        far = link.b if (link.a.device, link.a.port) == (device_id, port.name) else link.a
        far_port = self.doc.port(far.device, far.port)
        fabric = fabric_family(self.doc.settings.technology)
        if far_port is None:
            return str(fabric)
        return str(link_family(port.group, self.doc.device_model(device_id),  # type: ignore[arg-type]
                               far_port.group, self.doc.device_model(far.device), fabric))

    def _os_name(self, model: DeviceModel, port: LogicalPort, os_name: str,
                 device_id: str | None = None) -> str | None:
        """The name `os_name` gives `port`; on a device, a netdev name in the mode its link
        runs (a port without a link keeps the catalog's name, the mode NVIDIA's guide lists)."""
        naming = self._namings(model, port.group).get(os_name)
        if naming is None:
            return None
        os_port = name_for(naming, port.group, port)
        if os_port is not None and os_name == NETDEV and device_id is not None:
            technology = self._technology(device_id, port)
            if technology is not None:
                os_port = netdev_in_mode(os_port, technology)
        return os_port

    def _table(self, device_id: str, os_name: str) -> dict[str, str]:
        """design port -> OS name for one device (ports without a naming are left out)."""
        device = self.doc.devices[device_id]
        model = self.doc.device_model(device)
        ports = self.doc.ports(device_id)
        per_device = device_id if os_name == NETDEV else ""  # netdev names follow the links
        key = (f"{model.id}\x00{id(ports)}\x00{per_device}", os_name)
        table = self._forward.get(key)
        if table is None:
            table = {}
            if os_name != DESIGN:
                for name, port in ports.items():
                    os_port = self._os_name(model, port, os_name, device_id)
                    if os_port is not None:
                        table[name] = os_port
            self._forward[key] = table
        return table

    def name(self, device_id: str, port: str, os_name: str | None = None) -> str:
        """The name `os_name` (default: the device model's chosen OS) gives a design port;
        the design name when that OS has no naming for it."""
        if os_name is None:
            os_name = self.os_of(self.doc.device_model(device_id))
        if os_name == DESIGN:
            return port
        return self._table(device_id, os_name).get(port, port)

    def model_port(self, model: DeviceModel, port: LogicalPort) -> str:
        """The name this document's OS for `model` gives `port` (any port of the model, not
        only a device's current ones); the design name when that OS has no naming for it."""
        os_name = self.os_of(model)
        name = self._os_name(model, port, os_name) if os_name != DESIGN else None
        return name or port.name

    def oses(self, device_id: str) -> list[str]:
        """The namings known for a device's model (`design` first)."""
        model = self.doc.device_model(device_id)
        return oses_of(model, self._fallback.get(model.id))

    def lookup(self, device_id: str, prefer: Iterable[str] = ()) -> dict[str, str]:
        """Every name a port of the device goes by -> its design port.

        Precedence when two namings give one string to different ports: the OSes in `prefer`,
        then the device's chosen OS, then design names, then the other namings of the model.
        """
        model = self.doc.device_model(device_id)
        known = oses_of(model, self._fallback.get(model.id))
        order = list(dict.fromkeys([*prefer, self.os_of(model), DESIGN, *known]))
        ports = self.doc.ports(device_id)
        key = (f"{model.id}\x00{id(ports)}\x00{device_id}", tuple(order))
        table = self._reverse.get(key)
        if table is None:
            table = {}
            for os_name in order:
                if os_name == DESIGN:
                    for name in ports:
                        table.setdefault(name, name)
                    continue
                for name, os_port in self._table(device_id, os_name).items():
                    table.setdefault(os_port, name)
            self._reverse[key] = table
        return table


def os_choices(models: Iterable[DeviceModel]) -> dict[str, list[str]]:
    """For the settings UI and `--help`: model id -> the namings its catalog entry has."""
    return {model.id: oses_of(model) for model in models}
