"""The network settings each fabric technology starts with: one table for the generators and
for the editor, which applies them when a design changes technology.

- **InfiniBand**: MTU 4096, the largest InfiniBand MTU (256 ... 4096 bytes; the subnet manager
  sets one of these, see analysis/rules_fabric.IB_MTUS); no PFC, ECN or DCB (InfiniBand's
  credit-based flow control is lossless by itself); adaptive routing.
- **RoCEv2**: MTU 9000 (a 4096-byte RDMA path MTU needs an Ethernet MTU of at least ~4200:
  rules_fabric.ROCE_MIN_MTU; 9000 is the usual jumbo-frame host MTU), PFC and ECN (RDMA needs a
  lossless class and DCQCN congestion control: ROCE-NO-PFC-ECN) with DCB to carry them;
  adaptive routing (Spectrum-X; `load_balancing` adaptive: the mode the traffic model routes
  by, model/load_balancing_modes.py).
- **Ethernet** (best effort): MTU 9000, no lossless class; a 5-tuple ECMP hash.
"""

from __future__ import annotations

from typing import Any

from .fabric import FabricTechnology

_DEFAULTS: dict[FabricTechnology, dict[str, Any]] = {
    FabricTechnology.INFINIBAND: {"mtu": 4096, "pfc": False, "ecn": False, "dcb": False,
                                  "ecmp_policy": "adaptive routing", "load_balancing": "adaptive"},
    FabricTechnology.ROCEV2: {"mtu": 9000, "pfc": True, "ecn": True, "dcb": True,
                              "ecmp_policy": "adaptive routing", "load_balancing": "adaptive"},
    FabricTechnology.ETHERNET: {"mtu": 9000, "pfc": False, "ecn": False, "dcb": False,
                                "ecmp_policy": "5-tuple hash", "load_balancing": "ecmp"},
}


def network_defaults(technology: FabricTechnology) -> dict[str, Any]:
    """MTU, PFC, ECN, DCB, ECMP policy and load-balancing mode for a fabric of `technology` (a new dict)."""
    return dict(_DEFAULTS[FabricTechnology(technology)])
