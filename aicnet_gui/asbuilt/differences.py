"""Compare what was observed with what was designed: the differences, each of one kind.

Names first: an observed host is a design device when its name (after `--map`, case-insensitive,
with or without a domain suffix) is a device's name or id; an observed port is a design port
when any naming of that device's model gives that name (`PortNamer.lookup`: the input's own
namings first, e.g. InfiniBand port numbers and `mlx5_N` for ibnetdiscover).  Then links:

* a planned link seen between its two ports is **matched** (and checked for its **speed** when
  the input reports one);
* two planned links seen crossed (`a-d` and `c-b` instead of `a-b` and `c-d`) are one
  **swapped** pair, or **wrong_rail** when the two links belong to different rails;
* an observed link with one end on a planned port and the other on another port of the right
  device is **wrong_port**; on another device, **wrong_device**, or **wrong_rail** when that
  device serves another rail;
* a planned link not seen is **missing** (for LLDP only when one of its devices was observed);
  a seen link that no planned link explains is **unexpected**;
* a host name that is no device of the design is one **unknown_device** difference.

Every fault is reported once: a link or observation that explains one difference is not used
again.  When a server's port cannot be named (no naming for its model) but its device is right,
the link counts as matched and `Comparison.notes` says how many ends were matched by device only.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ..model.document import FabricDocument
from ..model.fabric import Link
from ..model.port_names_os import PortNamer
from ..report.netbox_devicetypes import template_names
from .observed import Observation, ObservedEnd, ObservedLink

KIND_TITLES: dict[str, str] = {
    "missing": "missing cable",
    "unexpected": "unexpected cable",
    "wrong_port": "wrong port on the right device",
    "wrong_device": "wrong device",
    "swapped": "pair swapped",
    "wrong_rail": "wrong rail",
    "wrong_speed": "wrong speed",
    "unknown_device": "device not in the plan",
}
Port = tuple[str, str]
MANAGEMENT_PORT = re.compile(r"^(eth\d+|mgmt\d*|management\d+|em\d+|fxp\d+|re\d+:mgmt-\d+)$",
                             re.IGNORECASE)
"""Out-of-band management interfaces (Cumulus `eth0`, NX-OS `mgmt0`, EOS `Management1`, Junos
`em0`/`fxp0`/`re0:mgmt-0`): a neighbour seen there is the management network, not a fabric cable,
unless the design models that port."""


@dataclass(frozen=True)
class Difference:
    """One thing to fix, with the planned links and design ports it concerns."""

    kind: str
    links: tuple[str, ...]
    message: str
    action: str
    devices: tuple[str, ...] = ()
    ports: tuple[Port, ...] = ()
    """Design ports where something is wrong (the GUI marks them)."""
    observed: tuple[str, ...] = ()
    """Observed ends as the input printed them."""
    where: str = ""

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "links": list(self.links), "message": self.message,
                "action": self.action, "devices": list(self.devices),
                "ports": [list(p) for p in self.ports], "observed": list(self.observed),
                "where": self.where}


@dataclass
class Comparison:
    differences: list[Difference] = field(default_factory=list)
    matched: int = 0
    checked: int = 0
    unchecked: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.differences

    def counts(self) -> dict[str, int]:
        return dict(Counter(d.kind for d in self.differences))


class _Resolver:
    """Observed host and port names -> design device ids and ports (cached)."""

    def __init__(self, doc: FabricDocument, namer: PortNamer, host_map: dict[str, str],
                 prefer: tuple[str, ...]) -> None:
        self.doc, self.namer, self.prefer = doc, namer, prefer
        self.host_map = host_map
        names: dict[str, str] = {}
        for device in doc.devices.values():
            names.setdefault(device.name, device.id)
        for device in doc.devices.values():
            names.setdefault(device.id, device.id)
            names.setdefault(device.name.lower(), device.id)
        self.names = names
        self._hosts: dict[str, str | None] = {}
        self._lower: dict[int, dict[str, str]] = {}
        self._tables: dict[str, dict[str, str]] = {}
        self._cages: dict[str, dict[str, int]] = {}

    def host(self, name: str) -> str | None:
        if name in self._hosts:
            return self._hosts[name]
        mapped = self.host_map.get(name, name)
        short = mapped.split(".", 1)[0]
        found = None
        for candidate in (mapped, mapped.lower(), short, short.lower()):
            found = self.names.get(candidate)
            if found is not None:
                break
        self._hosts[name] = found
        return found

    def port(self, device_id: str, name: str) -> str | None:
        table = self._tables.get(device_id)
        if table is None:
            table = self._tables[device_id] = self.namer.lookup(device_id, self.prefer)
        port = table.get(name)
        if port is None:
            lower = self._lower.get(id(table))
            if lower is None:
                lower = self._lower[id(table)] = {k.lower(): v for k, v in table.items()}
            port = lower.get(name.lower())
        return port

    def cage_of(self, device_id: str, name: str) -> int | None:
        """The cage whose unsplit interface is `name` (as a NetBox device type names it, with
        the device's OS names or aicnet's), or None."""
        model_id = self.doc.devices[device_id].model
        table = self._cages.get(model_id)
        if table is None:
            model = self.doc.device_model(device_id)
            table = {}
            for naming in (template_names(model, self.namer), template_names(model)):
                for cage, names in naming.items():
                    if len(names) == 1:
                        table.setdefault(names[0], cage)
                        table.setdefault(names[0].lower(), cage)
            self._cages[model_id] = table
        return table.get(name, table.get(name.lower()))

    def legs(self, device_id: str, cage: int) -> list[str]:
        """The design ports of a cage, leg by leg."""
        ports = [p for p in self.doc.ports(device_id).values() if p.cage == cage]
        return [p.name for p in sorted(ports, key=lambda p: p.leg)]

    def end(self, device_id: str, end: ObservedEnd, other: Port | None = None) -> str | None:
        """The design port of an observed end: by name, or position N of an unsplit interface
        (leg N of its cage; position 0: the leg planned to `other`, else the first)."""
        if end.position is None:
            return self.port(device_id, end.port)
        cage = self.cage_of(device_id, end.port)
        if cage is None:
            return self.port(device_id, end.port)
        legs = self.legs(device_id, cage)
        if end.position == 0:
            for leg in legs:
                link = self.doc.link_at(device_id, leg)
                if link is not None and other is not None and other in (tuple(link.a),
                                                                        tuple(link.b)):
                    return leg
            return legs[0] if legs else None
        return legs[end.position - 1] if end.position <= len(legs) else None


@dataclass
class _Seen:
    x: Port
    y: tuple[str, str | None]
    link: ObservedLink
    x_text: str
    y_text: str


def _other(link: Link, end: Port) -> Port:
    a = (link.a.device, link.a.port)
    return (link.b.device, link.b.port) if a == end else a


class _Engine:
    def __init__(self, doc: FabricDocument, namer: PortNamer) -> None:
        self.doc, self.namer = doc, namer
        self.result = Comparison()
        self.used_links: set[str] = set()
        self._rails: dict[str, frozenset[int]] = {}

    def name(self, end: tuple[str, str | None]) -> str:
        device = self.doc.devices[end[0]].name
        return f"{device}:{end[1]}" if end[1] is not None else device

    def link_text(self, link: Link) -> str:
        return f"{self.name(link.a)} - {self.name(link.b)}"

    def rails_of(self, device_id: str) -> frozenset[int]:
        """The rails a device's planned links carry (empty: it serves no particular rail)."""
        if device_id not in self._rails:
            self._rails[device_id] = frozenset(
                link.rail for link in self.doc.links_of(device_id) if link.rail is not None)
        return self._rails[device_id]

    def add(self, diff: Difference) -> None:
        self.result.differences.append(diff)
        self.used_links.update(diff.links)


def compare(doc: FabricDocument, observation: Observation, namer: PortNamer | None = None,
            host_map: dict[str, str] | None = None) -> Comparison:
    """The differences between `doc` (as designed) and `observation` (as built)."""
    namer = namer or PortNamer(doc)
    resolver = _Resolver(doc, namer, host_map or {}, observation.prefer)
    engine = _Engine(doc, namer)
    engine.result.notes.extend(observation.notes)
    gathered = _gather(engine, resolver, observation)
    covered = {resolver.host(h) for h in observation.hosts} - {None}
    matched, by_device_only, unmatched = _match_planned(engine, gathered.seen)
    _swaps(engine, unmatched)
    _singles(engine, unmatched)
    _unknown_devices(engine, gathered, observation.kind)
    _missing(engine, observation, covered)
    engine.result.matched = matched
    _add_notes(engine.result, gathered.management, by_device_only)
    return engine.result


@dataclass
class _Gathered:
    """The observation read against the design: each cable seen (once, by its two ends), the
    observed hosts that are no device, and how many management links were left out."""

    seen: dict[frozenset, _Seen] = field(default_factory=dict)
    unknown: defaultdict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    """Host -> what was seen on it ("port to other end")."""
    unknown_ports: defaultdict[str, set[Port]] = field(default_factory=lambda: defaultdict(set))
    """Host -> the design ports its cables land on."""
    management: int = 0


def _gather(engine: _Engine, resolver: _Resolver, observation: Observation) -> _Gathered:
    """Every observed link sorted into management, unknown host or seen between design ports
    (a link neither of whose ports is a design port is an `unexpected` difference at once)."""
    gathered = _Gathered()
    for obs in observation.links:
        da, db = resolver.host(obs.a.host), resolver.host(obs.b.host)
        if _on_management_port(resolver, obs, da, db):
            gathered.management += 1
        elif da is None or db is None:
            _note_unknown_hosts(resolver, gathered, obs, da, db)
        else:
            _add_seen(engine, resolver, gathered.seen, obs, da, db)
    return gathered


def _on_management_port(resolver: _Resolver, obs: ObservedLink, da: str | None,
                        db: str | None) -> bool:
    """Whether an end of `obs` on a design device is a management interface the design does
    not model."""
    return any(dev is not None and MANAGEMENT_PORT.match(end.port)
               and resolver.port(dev, end.port) is None
               for dev, end in ((da, obs.a), (db, obs.b)))


def _note_unknown_hosts(resolver: _Resolver, gathered: _Gathered, obs: ObservedLink,
                        da: str | None, db: str | None) -> None:
    """Record what was seen on an end whose host is no device, and the design port at the
    other end when there is one."""
    for end, dev, other, odev in ((obs.a, da, obs.b, db), (obs.b, db, obs.a, da)):
        if dev is not None:
            continue
        gathered.unknown[end.host].append(f"{end.port} to {other}")
        if odev is not None:
            port = resolver.port(odev, other.port)
            if port is not None:
                gathered.unknown_ports[end.host].add((odev, port))


def _design_ports(resolver: _Resolver, obs: ObservedLink, da: str,
                  db: str) -> tuple[str | None, str | None]:
    """The design ports of both ends of `obs`; an end at position 0 of an unsplit interface is
    resolved after the other, so that it takes the leg planned to that end."""
    if obs.a.position == 0:
        pb = resolver.end(db, obs.b)
        pa = resolver.end(da, obs.a, (db, pb) if pb is not None else None)
    else:
        pa = resolver.end(da, obs.a)
        pb = resolver.end(db, obs.b, (da, pa) if pa is not None else None)
    return pa, pb


def _add_seen(engine: _Engine, resolver: _Resolver, seen: dict[frozenset, _Seen],
              obs: ObservedLink, da: str, db: str) -> None:
    """Add `obs` to `seen` by its design ends (a port, or only the device where the port has
    no design name); a cable seen twice keeps the observation that reports a speed."""
    pa, pb = _design_ports(resolver, obs, da, db)
    if pa is None and pb is None:
        engine.add(Difference(
            "unexpected", (), f"cable {obs.a} - {obs.b}: neither port is a port of the design",
            "identify the ports; remove the cable if it does not belong", (da, db), (),
            (str(obs.a), str(obs.b)), obs.where))
        return
    if pa is None:
        x, y, xt, yt = (db, pb), (da, None), str(obs.b), str(obs.a)
    else:
        x, y, xt, yt = (da, pa), (db, pb), str(obs.a), str(obs.b)
    if x == y:
        return
    key = frozenset((x, y))
    known = seen.get(key)
    if known is None:
        seen[key] = _Seen(x, y, obs, xt, yt)
    elif known.link.speed_gbps is None and obs.speed_gbps is not None:
        known.link = obs


def _explains(link: Link, item: _Seen) -> bool:
    """Whether the planned `link` at `item`'s first end is what was seen (its far end the
    seen one, or on the seen device where the seen port has no design name)."""
    want = _other(link, item.x)
    return want == item.y or (item.y[1] is None and want[0] == item.y[0])


def _match_planned(engine: _Engine, seen: dict[frozenset, _Seen]) -> tuple[int, int, list[_Seen]]:
    """Match each seen cable with the planned link it is (checking its speed); return the
    number matched, how many of them by device only, and the cables left unexplained."""
    unmatched: list[_Seen] = []
    matched: set[str] = set()
    by_device_only = 0
    for item in seen.values():
        link = engine.doc.link_at(*item.x)
        if link is not None and link.id not in matched and _explains(link, item):
            matched.add(link.id)
            by_device_only += item.y[1] is None
            _check_speed(engine, link, item)
        else:
            unmatched.append(item)
    engine.used_links.update(matched)
    return len(matched), by_device_only, unmatched


def _unknown_devices(engine: _Engine, gathered: _Gathered, where: str) -> None:
    """One `unknown_device` difference per observed host that is no device of the design,
    with the planned links its cables took (those no other difference explains)."""
    for host, ports in sorted(gathered.unknown.items()):
        engine.add(_unknown_device(engine, host, ports,
                                   sorted(gathered.unknown_ports.get(host, ())), where))


def _unknown_device(engine: _Engine, host: str, ports: list[str], ends: list[Port],
                    where: str) -> Difference:
    doc = engine.doc
    links = tuple(dict.fromkeys(
        link.id for end in ends
        if (link := doc.link_at(*end)) is not None and link.id not in engine.used_links))
    shown = "; ".join(ports[:4]) + (f"; and {len(ports) - 4} more" if len(ports) > 4 else "")
    planned = ""
    if links:
        devices = sorted({doc.devices[e[0]].name for link_id in links
                          for e in (doc.links[link_id].a, doc.links[link_id].b)
                          if e not in ends})
        planned = f"; its cables are planned for {', '.join(devices)}"
    return Difference(
        "unknown_device", links,
        f"{host} is not a device of the design (seen: {shown}){planned}",
        f"check the host name of {host}, or name its design device with --map",
        tuple(sorted({end[0] for end in ends})), tuple(ends), (host,), where)


def _missing(engine: _Engine, observation: Observation, covered: set[str | None]) -> None:
    """A `missing` difference for every planned link that could be checked (the input is
    complete, or shows one of its devices) and that no difference explains; count the
    checked and unchecked links."""
    result = engine.result
    for link in engine.doc.links.values():
        if not observation.complete and link.a.device not in covered \
                and link.b.device not in covered:
            result.unchecked += 1
            continue
        result.checked += 1
        if link.id in engine.used_links:
            continue
        engine.add(Difference(
            "missing", (link.id,), f"{engine.link_text(link)} is not cabled (not seen)",
            f"install the cable {engine.link_text(link)}",
            (link.a.device, link.b.device), (tuple(link.a), tuple(link.b))))


def _add_notes(result: Comparison, management: int, by_device_only: int) -> None:
    """What the comparison left out or matched loosely, in words."""
    if management:
        result.notes.append(f"{management} observed links on management ports (eth0, mgmt0 ...) "
                            "that the design does not model were left out")
    if by_device_only:
        result.notes.append(
            f"{by_device_only} links matched by device only: the input's names for their server "
            "ports are not known for that server model")
    if result.unchecked:
        result.notes.append(
            f"{result.unchecked} planned links were not checked: neither of their devices was "
            "observed (give an lldpctl file for one of them)")


def _check_speed(engine: _Engine, link: Link, item: _Seen) -> None:
    speed = item.link.speed_gbps
    if speed is None:
        return
    doc = engine.doc
    ports = [doc.ports(link.a.device).get(link.a.port), doc.ports(link.b.device).get(link.b.port)]
    planned = min((p.speed_gbps for p in ports if p is not None), default=None)
    if planned is None or abs(planned - speed) < 1e-6:
        return
    engine.add(Difference(
        "wrong_speed", (link.id,),
        f"{engine.link_text(link)} is up at {speed:g} Gb/s, planned {planned:g} Gb/s",
        "check the optic or cable part and the port's breakout mode at both ends",
        (link.a.device, link.b.device), (tuple(link.a), tuple(link.b)),
        (item.x_text, item.y_text), item.link.where))


def _swaps(engine: _Engine, unmatched: list[_Seen]) -> None:
    """Two unexplained cables that are two planned links with their far ends exchanged: one
    `swapped` (or `wrong_rail`) difference; both leave `unmatched`."""
    pairs = {frozenset((s.x, s.y)): i for i, s in enumerate(unmatched) if s.y[1] is not None}
    done: set[int] = set()
    for i, item in enumerate(unmatched):
        if i in done or item.y[1] is None:
            continue
        found = _swap_partner(engine, item, pairs)
        if found is None or found[0] == i or found[0] in done:
            continue
        j, lx, ly = found
        done.update((i, j))
        engine.add(_swap_difference(engine, item, unmatched[j], lx, ly))
    unmatched[:] = [s for k, s in enumerate(unmatched) if k not in done]


def _swap_partner(engine: _Engine, item: _Seen,
                  pairs: dict[frozenset, int]) -> tuple[int, Link, Link] | None:
    """The index of the seen cable between the far ends of the two planned links at `item`'s
    ends, with those links (neither explained yet), or None."""
    x, y = item.x, (item.y[0], item.y[1])
    lx, ly = engine.doc.link_at(*x), engine.doc.link_at(*y)
    if lx is None or ly is None or lx.id == ly.id or lx.id in engine.used_links \
            or ly.id in engine.used_links:
        return None
    j = pairs.get(frozenset((_other(lx, x), _other(ly, y))))
    return None if j is None else (j, lx, ly)


def _swap_place(engine: _Engine, x: Port, y: Port, xb: Port, yb: Port) -> str:
    """Where the two crossed cables are to be exchanged: at the device they share, else at
    the two ports."""
    if x[0] == yb[0]:
        at, p, q = x[0], x[1], yb[1]
    elif xb[0] == y[0]:
        at, p, q = y[0], xb[1], y[1]
    else:
        at, p, q = "", engine.name(x), engine.name(yb)
    return f"at {engine.doc.devices[at].name}, ports {p} and {q}" if at else f"at {p} and {q}"


def _swap_difference(engine: _Engine, item: _Seen, partner: _Seen, lx: Link,
                     ly: Link) -> Difference:
    x, y = item.x, (item.y[0], item.y[1])
    xb, yb = _other(lx, x), _other(ly, y)
    where = _swap_place(engine, x, y, xb, yb)
    rails = (lx.rail, ly.rail)
    crossed = None not in rails and rails[0] != rails[1]
    kind = "wrong_rail" if crossed else "swapped"
    detail = f" (rails {rails[0]} and {rails[1]} crossed)" if crossed else ""
    return Difference(
        kind, (lx.id, ly.id),
        f"{engine.link_text(lx)} and {engine.link_text(ly)} are swapped {where}{detail}",
        f"exchange the two cables {where}",
        tuple(dict.fromkeys((x[0], xb[0], y[0], yb[0]))), (x, y, xb, yb),
        (item.x_text, item.y_text, partner.x_text, partner.y_text),
        item.link.where)


@dataclass(frozen=True)
class _Anchored:
    """An unexplained cable read as a planned link with one end in the wrong place."""

    kind: str  # wrong_port (the far end on the planned device) or wrong_device
    link: Link
    anchor: Port  # the end that is where the plan has it
    far: tuple[str, str | None]  # where the other end is
    far_text: str
    want: Port  # where the plan has the other end


def _singles(engine: _Engine, unmatched: list[_Seen]) -> None:
    """Each cable still unexplained: a planned link with one end misplaced (`wrong_port`,
    `wrong_device`, `wrong_rail`), else `unexpected`."""
    for item in unmatched:
        anchored = _anchored(engine, item)
        if anchored is None:
            engine.add(Difference(
                "unexpected", (),
                f"cable {engine.name(item.x)} - {engine.name(item.y)} is not in the plan",
                "remove the cable, or add the link to the design",
                (item.x[0], item.y[0]), tuple(e for e in (item.x, item.y) if e[1] is not None),
                (item.x_text, item.y_text), item.link.where))
        else:
            engine.add(_misplaced_end(engine, item, anchored))


def _anchored(engine: _Engine, item: _Seen) -> _Anchored | None:
    """The planned link not yet explained at one of `item`'s ends, preferring one whose far
    end is on the right device (the first end first), or None."""
    ends = [(item.x, item.y, item.y_text)]
    if item.y[1] is not None:
        ends.append(((item.y[0], item.y[1]), item.x, item.x_text))
    chosen = None
    for anchor, far, far_text in ends:
        link = engine.doc.link_at(*anchor)
        if link is None or link.id in engine.used_links:
            continue
        want = _other(link, anchor)
        if want[0] == far[0]:
            return _Anchored("wrong_port", link, anchor, far, far_text, want)
        if chosen is None:
            chosen = _Anchored("wrong_device", link, anchor, far, far_text, want)
    return chosen


def _misplaced_end(engine: _Engine, item: _Seen, anchored: _Anchored) -> Difference:
    kind, link, anchor, far, far_text, want = (
        anchored.kind, anchored.link, anchored.anchor, anchored.far, anchored.far_text,
        anchored.want)
    far_name = engine.name(far) if far[1] is not None else f"{far_text}"
    if kind == "wrong_port":
        message = (f"{engine.link_text(link)} ends at {far_name} instead of "
                   f"{engine.name(want)}")
        action = f"move the end at {engine.doc.devices[want[0]].name} from " \
                 f"{far[1] or far_text} to {want[1]}"
    else:
        rails = engine.rails_of(far[0])
        if link.rail is not None and rails and link.rail not in rails:
            kind = "wrong_rail"
        served = ", ".join(str(r) for r in sorted(rails))
        suffix = (f" (a device of rail {served}; the link is rail {link.rail})"
                  if kind == "wrong_rail" else "")
        message = (f"{engine.link_text(link)} ends at {far_name} instead of "
                   f"{engine.name(want)}{suffix}")
        action = f"move the end from {far_name} to {engine.name(want)}"
    ports = tuple(p for p in (anchor, want, far) if p[1] is not None)
    return Difference(kind, (link.id,), message, action,
                      tuple(dict.fromkeys((anchor[0], want[0], far[0]))),
                      ports, (item.x_text, item.y_text), item.link.where)  # type: ignore[arg-type]
