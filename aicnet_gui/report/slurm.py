"""Slurm network topology of a fabric: `topology.conf` (topology/tree) and `topology.yaml`
(Slurm 25.05+: a tree topology and, where the design has GB200 NVL72 racks, a block topology),
so the scheduler places jobs by the fabric aicnet designed.

Formats: `topology.conf(5)` (`SwitchName=NAME Switches=LIST` / `Nodes=LIST`, hostlist
expressions, `#` comments) and `topology.yaml(5)` (a list of topologies, each `topology: NAME`
first, `cluster_default`, and one of `tree: {switches: [{switch, children, nodes}]}` or
`block: {block_sizes: [...], blocks: [{block, nodes}]}`; `children` and `nodes` are hostlist
strings, as in Slurm's own test `children: s[1-2]`).

The tree follows the links.  Nodes are the servers (tier 0), under a leaf "switch" per distinct
set of leaves they are cabled to: a server on one leaf sits under that leaf; the 32 servers of
a rail-optimized SU, each cabled to the same 8 rail leaves, sit under one switch named after
those leaves (`leaf-01-to-leaf-08`), since Slurm's tree wants one leaf switch per node.  Above
that, each switch lists the lower-tier switches it is cabled to (a spine every leaf group it
reaches, a core every spine).

Blocks are NVLink domains (model/nvlink_domains.py): one block per domain, the trays of an
NVL72 rack (or of the racks sharing an `nvlink_domain` id), named by the domain's id, top RU
first; NVIDIA's topograph writes one block per NVLink domain (per `ClusterUUID`) too.
`block_sizes` follows topograph's rule (`pkg/translate/block.go`, `getBlockSize`, when no sizes
are requested): the smallest block's node count as the base, then base x 2^i for i = 1 ..
floor(log2(number of blocks)) -- each a power of two larger than the prior one, and every block
holding at least the base, as topology.yaml(5) requires.

slurmctld reads these files as root, so nothing in them may read as more than the one value it
is: a node or switch name Slurm's parser would read otherwise (a space, `#`, a backslash, a
comma, a bracket, a line break, over 64 bytes: model/text_safety.py `slurm_name_problem`)
refuses the export with the name and the reason (`OutputRefused`); a name aicnet makes up (a
leaf group, an NVLink block after its rack) falls back to a plain numbered one; the design's
name and every warning stay on their comment line (`config_comment`).
"""

from __future__ import annotations

import math
import os
import re
from collections import defaultdict
from pathlib import Path

import yaml

from ..fileio.atomic import atomic_output
from ..model.document import FabricDocument
from ..model.fabric import Device
from ..model.nvlink_domains import nvlink_domains
from ..model.text_safety import OutputRefused, config_comment, slurm_name_problem

_NUMBERED = re.compile(r"^(.*?)(\d+)$")
#: the unsafe names an `OutputRefused` message lists
SHOWN_NAMES = 5


def hostlist(names: list[str]) -> str:
    """Names as a Slurm hostlist expression: runs of `prefixNNN` become `prefix[001-032]`."""
    runs: dict[tuple[str, int], list[int]] = defaultdict(list)
    plain: list[str] = []
    for name in names:
        match = _NUMBERED.match(name)
        if match:
            runs[(match.group(1), len(match.group(2)))].append(int(match.group(2)))
        else:
            plain.append(name)
    parts = sorted(plain)
    for (prefix, width), numbers in sorted(runs.items()):
        numbers = sorted(set(numbers))
        if len(numbers) == 1:
            parts.append(f"{prefix}{numbers[0]:0{width}d}")
            continue
        ranges, start = [], numbers[0]
        for prev, cur in zip(numbers, numbers[1:] + [None], strict=True):
            if cur != prev + 1:
                ranges.append(f"{start:0{width}d}" if start == prev
                              else f"{start:0{width}d}-{prev:0{width}d}")
                start = cur
        parts.append(f"{prefix}[{','.join(ranges)}]")
    return ",".join(parts)


def block_sizes(block_nodes: list[int]) -> list[int]:
    """topograph's block sizes for blocks of `block_nodes` nodes (NVIDIA/topograph
    pkg/translate/block.go `getBlockSize` without requested sizes): the smallest block as the
    base, then base x 2, x 4 ... up to base x 2^floor(log2(number of blocks))."""
    if not block_nodes:
        return []
    base = min(block_nodes)
    levels = int(math.log2(len(block_nodes)))
    return [base * 2 ** i for i in range(levels + 1)]


class SlurmTopology:
    """The tree (switch -> child switches, leaf switch -> nodes) and the NVLink blocks."""

    def __init__(self, doc: FabricDocument) -> None:
        self.doc = doc
        self.problems: list[str] = []
        self.switch_nodes: dict[str, list[str]] = {}
        self.switch_children: dict[str, list[str]] = {}
        self.blocks: dict[str, list[str]] = {}
        self._tree()
        self._blocks()

    def _neighbours(self, device: Device) -> set[str]:
        found = set()
        for link in self.doc.links_of(device.id):
            other = link.b.device if link.a.device == device.id else link.a.device
            found.add(other)
        return found

    def _tree(self) -> None:
        names = {d.id: d.name for d in self.doc.devices.values()}
        group_of_leaf = self._leaf_switches(names, self._servers_by_leaves(names))
        self._upper_switches(names, group_of_leaf)
        _refuse_unsafe([*self.switch_nodes, *self.switch_children,
                        *(n for nodes in self.switch_nodes.values() for n in nodes),
                        *(n for names in self.switch_children.values() for n in names)])

    def _servers_by_leaves(self, names: dict[str, str]) -> dict[tuple[str, ...], list[str]]:
        """The servers' names by the leaves they are cabled to (a problem noted for a server
        under no leaf)."""
        doc = self.doc
        servers = sorted((d for d in doc.devices.values() if doc.tier_of(d) == 0),
                         key=lambda d: d.name)
        by_leaves: dict[tuple[str, ...], list[str]] = defaultdict(list)
        for server in servers:
            leaves = tuple(sorted((n for n in self._neighbours(server) if doc.tier_of(n) == 1),
                                  key=lambda i: names[i]))
            if not leaves:
                self.problems.append(f"{server.name} is cabled to no leaf switch: Slurm needs "
                                     "every node under a switch")
                continue
            by_leaves[leaves].append(server.name)
        return by_leaves

    def _leaf_switches(self, names: dict[str, str],
                       by_leaves: dict[tuple[str, ...], list[str]]) -> dict[str, list[str]]:
        """One Slurm leaf switch per set of leaves with its nodes (a set of several leaves
        named after its first and last); returns leaf id -> the Slurm leaf names it is in."""
        group_of_leaf: dict[str, list[str]] = defaultdict(list)  # leaf id -> slurm leaf names
        taken: set[str] = set()
        for leaves, nodes in sorted(by_leaves.items(), key=lambda kv: [names[i] for i in kv[0]]):
            if len(leaves) == 1:
                name = names[leaves[0]]
            else:  # a name of aicnet's: a plain numbered one when the leaves' names do not fit
                name = f"{names[leaves[0]]}-to-{names[leaves[-1]]}"
                if slurm_name_problem(name) is not None:
                    name = f"leafgroup-{len(taken) + 1}"
            if name in taken:
                name = f"leafgroup-{len(taken) + 1}"
            taken.add(name)
            self.switch_nodes[name] = nodes
            for leaf in leaves:
                group_of_leaf[leaf].append(name)
        return group_of_leaf

    def _upper_switches(self, names: dict[str, str], group_of_leaf: dict[str, list[str]]) -> None:
        """Every switch above the leaves with the switches one tier below it (a spine: the
        Slurm leaf switches its leaves are in)."""
        doc = self.doc
        upper = sorted((d for d in doc.devices.values() if doc.tier_of(d) >= 2),
                       key=lambda d: (doc.tier_of(d), d.name))
        for switch in upper:
            tier = doc.tier_of(switch)
            children: set[str] = set()
            for other in self._neighbours(switch):
                if doc.tier_of(other) == tier - 1:
                    children.update(group_of_leaf[other] if tier == 2 else [names[other]])
            if children:
                self.switch_children[switch.name] = sorted(children)

    def _blocks(self) -> None:
        doc = self.doc
        for domain in nvlink_domains(doc):
            name = domain.id
            if slurm_name_problem(name) is not None or name in self.blocks:
                name = f"nvl-block-{len(self.blocks) + 1}"  # the domain's id does not fit
            self.blocks[name] = [doc.devices[d].name for d in domain.devices]

    def conf(self) -> str:
        lines = [f"# Slurm topology.conf (topology/tree) for {self._design()}: written by "
                 "aicnet from its cabling.",
                 "# TopologyPlugin=topology/tree in slurm.conf.  Leaf switches list nodes,",
                 "# the switches above list the switches they are cabled to."]
        lines += [f"# warning: {config_comment(p)}" for p in self.problems]
        for name, nodes in self.switch_nodes.items():
            lines.append(f"SwitchName={name} Nodes={hostlist(nodes)}")
        for name, children in self.switch_children.items():
            lines.append(f"SwitchName={name} Switches={hostlist(children)}")
        return "\n".join(lines) + "\n"

    def yaml_data(self) -> list[dict[str, object]]:
        switches: list[dict[str, object]] = [
            {"switch": name, "children": hostlist(children)}
            for name, children in self.switch_children.items()]
        switches += [{"switch": name, "nodes": hostlist(nodes)}
                     for name, nodes in self.switch_nodes.items()]
        data: list[dict[str, object]] = [
            {"topology": "fabric", "cluster_default": True, "tree": {"switches": switches}}]
        if self.blocks:
            data.append({"topology": "nvlink", "cluster_default": False, "block": {
                "block_sizes": block_sizes([len(nodes) for nodes in self.blocks.values()]),
                "blocks": [{"block": name, "nodes": hostlist(nodes)}
                           for name, nodes in self.blocks.items()]}})
        return data

    def yaml(self) -> str:
        head = (f"# Slurm topology.yaml for {self._design()}: written by aicnet from its "
                "cabling.\n"
                "# 'fabric': topology/tree from the links; 'nvlink' (if present): "
                "topology/block, one block per NVLink domain (an NVL72 rack).\n")
        head += "".join(f"# warning: {config_comment(p)}\n" for p in self.problems)
        return head + yaml.safe_dump(self.yaml_data(), sort_keys=False, width=100)

    def _design(self) -> str:
        """`NAME, revision R` for a comment line (the name cannot end the comment)."""
        metadata = self.doc.metadata
        return config_comment(f"{metadata.name}, revision {metadata.revision}")


def _refuse_unsafe(names: list[str]) -> None:
    """Raise `OutputRefused` naming the first names Slurm would not read as one name."""
    unsafe = [(name, problem) for name in dict.fromkeys(names)
              if (problem := slurm_name_problem(name)) is not None]
    if not unsafe:
        return
    shown = "; ".join(f"{name!r}: {problem}" for name, problem in unsafe[:SHOWN_NAMES])
    more = f"; and {len(unsafe) - SHOWN_NAMES} more" if len(unsafe) > SHOWN_NAMES else ""
    raise OutputRefused(f"Slurm topology not written: {len(unsafe)} device name"
                        f"{'s' if len(unsafe) > 1 else ''} Slurm cannot read as one name "
                        f"({shown}{more}); rename the device{'s' if len(unsafe) > 1 else ''}")


def export_slurm(doc: FabricDocument, out_dir: str | os.PathLike[str]) -> dict[str, int]:
    """Write `topology.conf` and `topology.yaml` into `out_dir`; return entries per file."""
    topology = SlurmTopology(doc)  # refuses unsafe names before anything is written
    conf, yaml_text = topology.conf().encode("utf-8"), topology.yaml().encode("utf-8")
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    # both files are written whole before either replaces the old one: a full disk or an
    # error leaves the old pair, never a new topology.conf beside an old topology.yaml
    with atomic_output(folder / "topology.conf") as conf_out, \
            atomic_output(folder / "topology.yaml") as yaml_out:
        conf_out.write(conf)
        yaml_out.write(yaml_text)
    return {"topology.conf": len(topology.switch_nodes) + len(topology.switch_children),
            "topology.yaml blocks": len(topology.blocks)}
