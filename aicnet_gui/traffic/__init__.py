"""Traffic on the drawn fabric: NCCL's flows for a workload's collective, routed by the fabric's
load-balancing mode (static ECMP hashing, adaptive / flowlet least-loaded next hops, packet
spraying), rates by max-min fairness, and the bus bandwidth nccl-tests will show; plus the
acceptance sheet a bring-up team holds nccl-tests output against.

Pure and vectorised (numpy / scipy, no Qt), beside the analysis: it reads the analysis store's
columns (analysis/store.py) and NCCL's tuning model (analysis/nccl_tuning.py).  The modules:

- network.py: directed links, capacities, equal-cost next hops (failed links left out);
- flows.py: ring, tree and all-to-all flows as NCCL opens them (channels x queue pairs);
- routing.py: per switch, ECMP / least-loaded / spraying;
- fairness.py: max-min fair rates by progressive filling;
- model.py: one workload under one or more modes (`TrafficModel`, `traffic_for`);
- acceptance.py: the all_reduce_perf / alltoall_perf sheet (`acceptance_sheet`);
- result.py, results_text.py: the results and their text.
"""

from .acceptance import AcceptanceRow, acceptance_sheet, write_acceptance_csv
from .model import Cancelled, TrafficModel, UnknownWorkload, traffic_for
from .params import MODES, TrafficParams
from .result import LinkLoad, ModeResult, WorkloadTraffic

__all__ = ["MODES", "AcceptanceRow", "Cancelled", "LinkLoad", "ModeResult", "TrafficModel",
           "TrafficParams", "UnknownWorkload", "WorkloadTraffic", "acceptance_sheet",
           "traffic_for", "write_acceptance_csv"]
