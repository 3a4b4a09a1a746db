"""The requirement's workloads as workloads of a candidate design.

A workload of a given size takes consecutive servers from the first one no earlier workload
took, in the generator's server order (SU by SU, leaf group by leaf group): the placement of a
topology-aware scheduler.  A workload with no size spans every server.  With no workload in
the requirement, the generated design keeps the generator's own (one training job over every
server).  GPUs are rounded up to whole servers.
"""

from __future__ import annotations

from ..model.fabric import Requirement, Workload, WorkloadKind, WorkloadNeed
from ..model.wording import counted


def servers_of(need: WorkloadNeed, gpus_per_server: int) -> int | None:
    """The servers `need` takes, or None for every server."""
    if need.servers is not None:
        return need.servers
    if need.gpus is not None:
        return -(-need.gpus // max(gpus_per_server, 1))
    return None


def sized_servers(requirement: Requirement, gpus_per_server: int) -> int:
    """The servers the sized workloads take together."""
    return sum(servers_of(w, gpus_per_server) or 0 for w in requirement.workloads)


def _pattern(need: WorkloadNeed) -> str:
    if need.pattern is not None:
        return need.pattern
    return "ring-allreduce" if need.kind == WorkloadKind.TRAINING else "all-to-all"


def workloads_for(requirement: Requirement, servers: list[str],
                  gpus_per_server: int) -> list[Workload]:
    """The design's workloads for the requirement's, over `servers` in the generator's order."""
    out: list[Workload] = []
    start = 0
    for need in requirement.workloads:
        count = servers_of(need, gpus_per_server)
        if count is None:
            members = list(servers)
        else:
            members = servers[start:start + count]
            start += count
        gpus = len(members) * gpus_per_server
        name = need.name or f"{need.kind.value} ({counted(gpus, 'GPU')})"
        out.append(Workload(id=need.id, name=name, kind=need.kind, members=members,
                            pattern=_pattern(need),  # type: ignore[arg-type]
                            algorithm=need.algorithm or "auto", message_mb=need.message_mb))
    return out
