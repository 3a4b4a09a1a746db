"""What a generator run reports: counts per tier, racks, BOM-ish totals, sizing and notes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..media import Unresolved
from ..model.wording import counted


@dataclass
class GenerationResult:
    template: str
    name: str
    tiers: int
    speed_gbps: int
    technology: str
    gpus: int
    devices_by_role: dict[str, int]
    devices_by_model: dict[str, int]
    links_by_tier: dict[str, int]
    racks: int
    server_racks: int
    network_racks: int
    rows: int
    servers_per_rack: int
    transceivers: dict[str, int] = field(default_factory=dict)
    cables: dict[str, int] = field(default_factory=dict)
    optics_power_w: float = 0.0
    longest_link_m: float = 0.0
    cost_usd: float | None = None
    unresolved: list[Unresolved] = field(default_factory=list)
    sizing: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def links(self) -> int:
        return sum(self.links_by_tier.values())

    @property
    def unresolved_links(self) -> int:
        return sum(len(u.links) for u in self.unresolved)

    def as_dict(self) -> dict:
        data = asdict(self)
        data["links"] = self.links
        data["unresolved"] = [
            {"links": list(u.links), "reason": u.reason} for u in self.unresolved
        ]
        return data

    def lines(self) -> list[str]:
        """A readable summary for the command line."""
        out = [f"{self.name}: {self.template}, {counted(self.tiers, 'tier')}, {self.technology}, "
               f"{self.speed_gbps}G ports, {self.gpus} GPUs"]
        out += [f"  {line}" for line in self.sizing]
        out.append("devices:")
        for role, count in self.devices_by_role.items():
            out.append(f"  {role:<12} {count}")
        out += [f"  {model:<28} x{count}" for model, count in self.devices_by_model.items()]
        out.append(f"links: {self.links}")
        for tier, count in self.links_by_tier.items():
            out.append(f"  {tier:<12} {count}")
        out.append(
            f"racks: {self.racks} ({self.server_racks} server, {self.network_racks} network) in "
            f"{self.rows} rows; {self.servers_per_rack} servers per rack"
        )
        if self.transceivers:
            out.append("transceivers (one per cage):")
            out += [f"  {part:<28} {count}" for part, count in self.transceivers.items()]
        if self.cables:
            out.append("cables (part @ ordered length; a splitter or twin cable counts once):")
            out += [f"  {part:<28} {count}" for part, count in self.cables.items()]
        if self.optics_power_w:
            out.append(f"optics power: {self.optics_power_w / 1000:.1f} kW; "
                       f"longest link {self.longest_link_m:g} m")
        out.append("cost: unknown (the catalog has no prices)" if self.cost_usd is None
                   else f"cost: {self.cost_usd:,.0f} USD for the parts with a price")
        if self.unresolved:
            out.append(f"no media found for {self.unresolved_links} link(s):")
            out += [f"  {u.reason}" for u in self.unresolved[:5]]
            if len(self.unresolved) > 5:
                out.append(f"  ... and {len(self.unresolved) - 5} more component(s)")
        out += [f"note: {note}" for note in self.notes]
        return out
