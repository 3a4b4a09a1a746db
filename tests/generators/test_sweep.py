"""Every generator template the README documents, at a small size, on every switch model of
the catalog that can be a leaf, with every GPU server: what the generator accepts passes its
own checks (no error finding, every link with media, none out of reach), and what it refuses
it refuses with a reason.  The one error left is IB-SUBNET-MANAGER on fabrics of externally
managed switches (QM9790): the catalog has no UFM / OpenSM host to add, and the generator says
so in a note."""

from __future__ import annotations

import pytest

from aicnet_gui.analysis import Severity, analyze
from aicnet_gui.catalog import builtin_catalog
from aicnet_gui.generators import (
    GeneratorError,
    RailOptimizedParams,
    ThreeTierParams,
    TwoTierParams,
    generate,
)
from aicnet_gui.model.document import FabricDocument

SERVERS = ("nvidia-dgx-h100", "generic-hgx-8-gpu-b3140h", "nvidia-dgx-b200", "nvidia-dgx-b300",
           "nvidia-gb200-nvl72-compute-tray", "nvidia-gb300-nvl72-compute-tray")
NVL72 = {"nvidia-gb200-nvl72-compute-tray", "nvidia-gb300-nvl72-compute-tray"}


def _size(server: str, servers: int) -> int:
    """`servers`, or whole NVL72 racks of 18 trays (at least as many) for a compute tray."""
    return -(-servers // 18) * 18 if server in NVL72 else servers


TEMPLATES = {
    "two-tier": lambda server, leaf: TwoTierParams(servers=_size(server, 8), server=server,
                                                   leaf=leaf),
    "rail-optimized": lambda server, leaf: RailOptimizedParams(
        sus=1, nodes_per_su=_size(server, 8), server=server, leaf=leaf),
    "three-tier": lambda server, leaf: ThreeTierParams(servers=_size(server, 128), server=server,
                                                       leaf=leaf),
}
LEAVES = sorted(m.id for m in builtin_catalog().devices.values()
                if m.is_switch and m.role.value in ("leaf", "spine"))
MEDIA_CODES = {"CABLE-UNSET", "REACH-EXCEEDED", "MEDIA-MISMATCH"}
GENERATED: set[tuple[str, str, str]] = set()
ATTEMPTED: set[tuple[str, str, str]] = set()


@pytest.mark.parametrize("server", SERVERS)
@pytest.mark.parametrize("leaf", LEAVES)
@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_what_the_generator_accepts_passes_its_own_checks(template, leaf, server, catalog):
    ATTEMPTED.add((template, leaf, server))
    doc = FabricDocument(catalog)
    try:
        result = generate(doc, TEMPLATES[template](server, leaf))
    except GeneratorError as exc:
        assert str(exc) and "Traceback" not in str(exc)
        return
    GENERATED.add((template, leaf, server))
    assert result.unresolved == []
    report = analyze(doc)
    errors = [f"{f.code}: {f.message}" for f in report.findings if f.severity == Severity.ERROR]
    if any(note.startswith("no switch of this fabric can run the InfiniBand subnet manager")
           for note in result.notes):
        errors = [e for e in errors if not e.startswith("IB-SUBNET-MANAGER")]
    assert errors == []
    assert not {f.code for f in report.findings} & MEDIA_CODES


def test_the_sweep_generated_most_combinations():
    """Runs after the sweep (file order): the refusals are the exception, not the rule."""
    if len(ATTEMPTED) < len(TEMPLATES) * len(LEAVES) * len(SERVERS):
        pytest.skip("the whole sweep did not run in this session")
    assert len(GENERATED) >= 140
    for must in [("rail-optimized", "nvidia-q3400-ra", "nvidia-dgx-b300"),
                 ("rail-optimized", "nvidia-qm9700", "nvidia-dgx-h100"),
                 ("two-tier", "nvidia-sn5600", "generic-hgx-8-gpu-b3140h"),
                 ("three-tier", "arista-7060x6-64pe", "nvidia-dgx-b200")]:
        assert must in GENERATED
