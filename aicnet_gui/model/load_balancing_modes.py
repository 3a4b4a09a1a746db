"""How a fabric's switches spread traffic over equal-cost paths: the load-balancing modes.

One mode per fabric (`Settings.load_balancing`); each switch runs it when its catalog model
documents it (`DeviceModel.load_balancing`), else static hashing (analysis/load_balancing.py
decides per switch and says why; the traffic model routes by it):

- `ecmp`: static per-flow hashing (Ethernet: the 5-tuple, a RoCEv2 QP's UDP source port;
  InfiniBand: the subnet manager's per-destination forwarding tables or hash-based forwarding);
- `flowlet`: dynamic load balancing of flowlets, bursts of one flow separated by idle gaps
  long enough to move them without reordering (Cisco DLB flowlet mode); works with plain
  RoCEv2 NICs;
- `adaptive`: per-packet adaptive routing by queue occupancy and port load (InfiniBand AR set
  up by the subnet manager; Spectrum-X RoCE adaptive routing, only on routed physical ports);
  the NICs must place packets that arrive out of order;
- `spray`: per-packet spraying over every equal-cost path (Ultra Ethernet, Cisco DLB
  per-packet mode); needs NICs that reorder.

Sources: NVIDIA Cumulus Linux NVUE reference, "Adaptive Routing" (not on subinterfaces, SVIs,
bonds or bond members; Spectrum-4 since Cumulus Linux 5.6); NVIDIA InfiniBand Cluster Bring-up
Procedure, "Adaptive Routing" (the SM configures AR groups of minimal-hop ports) and "HBF";
Cisco Nexus 9000 NX-OS QoS guide 10.6(x), "Policy-driven Dynamic Load Balancing" (flowlet and
per-packet modes; per-packet "where the endpoints allow for packet re-ordering").
"""

from __future__ import annotations

import re
from typing import Literal, get_args

LoadBalancing = Literal["ecmp", "flowlet", "adaptive", "spray"]
MODES: tuple[str, ...] = get_args(LoadBalancing)

#: the modes that send the packets of one flow over several paths (the NICs must reorder)
PER_PACKET = frozenset({"adaptive", "spray"})

_SPRAY = re.compile(r"spray|per[- ]packet", re.IGNORECASE)
_FLOWLET = re.compile(r"flowlet|\bdlb\b", re.IGNORECASE)
_ADAPTIVE = re.compile(r"adaptive|\bar\b", re.IGNORECASE)


def mode_of_policy(text: str | None) -> LoadBalancing:
    """The mode a free-text ECMP policy (`Settings.ecmp_policy`, the only place before schema
    version 4 said it) names: spraying, adaptive routing, flowlets, else static hashing ("adaptive routing with
    flowlet ECMP": adaptive)."""
    policy = text or ""
    if _SPRAY.search(policy):
        return "spray"
    if _ADAPTIVE.search(policy):
        return "adaptive"
    if _FLOWLET.search(policy):
        return "flowlet"
    return "ecmp"
