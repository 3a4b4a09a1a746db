"""The traffic model's settings, with NCCL's defaults and where each comes from."""

from __future__ import annotations

from dataclasses import dataclass

#: the load-balancing modes the model routes by (`--mode`); flowlet switching is modelled as
#: adaptive (least-loaded next hop), InfiniBand adaptive routing too
MODES = ("ecmp", "adaptive", "spray")


@dataclass(frozen=True)
class TrafficParams:
    """How many flows NCCL opens and how many times ECMP is drawn.

    - `channels`: NCCL's collective channels (NCCL_MIN_NCHANNELS / NCCL_MAX_NCHANNELS); None:
      NCCL's own, its ring graph's channels doubled at run time (src/graph/connect.cc,
      "Duplication should be complete now"): 16 on a DGX H100 with 8 NDR NICs, two per NIC;
    - `qps_per_connection`: queue pairs per channel connection, each a flow of its own
      (NCCL_IB_QPS_PER_CONNECTION, default 1: `NCCL_PARAM(IbQpsPerConn, "IB_QPS_PER_CONNECTION",
      1)`, src/transport/net_ib/connect.cc);
    - `p2p_channels_per_peer`: an all-to-all's channels to each peer (NCCL_NCHANNELS_PER_NET_PEER;
      across nodes NCCL halves it until every peer fits in one round, src/graph/paths.cc: 1 at
      scale);
    - `pxn`: PXN on (NCCL_PXN_DISABLE=0, NCCL's default: NVIDIA/nccl issue 918): a GPU's data
      for another rail crosses NVLink first and the network on the rail;
    - `seeds`: ECMP draws (and scattered placements) per mode; the result is their mean and
      5th / 95th percentile;
    - `hottest`, `bins`: how many hottest links to name, histogram bins over 0-100 % load.
    """

    channels: int | None = None
    qps_per_connection: int = 1
    p2p_channels_per_peer: int = 1
    pxn: bool = True
    seeds: int = 20
    seed: int = 0
    hottest: int = 10
    bins: int = 10

    def __post_init__(self) -> None:
        for name in ("qps_per_connection", "p2p_channels_per_peer", "seeds", "bins"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        if self.channels is not None and not 1 <= self.channels <= 64:
            raise ValueError("channels must be 1 to 64 (NCCL's MAXCHANNELS)")
        if self.hottest < 0:
            raise ValueError("hottest must be 0 or more")
