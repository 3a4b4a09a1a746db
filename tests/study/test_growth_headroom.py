"""Growth headroom is `aicnet grow`'s answer: the largest growth that moves no existing cable,
adds no tier and (within the same spines) no spine, found here by trying every step with the
grow command itself and counting the grown design's spines."""

from __future__ import annotations

import json

import pytest

from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.cli import main
from aicnet_gui.fileio import load_fabric
from aicnet_gui.model.catalog_entities import Role
from aicnet_gui.model.fabric import Requirement
from aicnet_gui.study import Study, run_study


def _grown(capsys, file: str, sus: int, out) -> tuple[dict, int, int]:
    """(bill, spines, cores) of `aicnet grow FILE --add-sus N -o OUT`."""
    code = main(["grow", file, "--add-sus", str(sus), "-o", str(out), "--json"])
    bill = json.loads(capsys.readouterr().out)["bill"]
    assert code in (0, 1)
    doc = load_fabric(out, builtin_catalog())
    roles = [doc.role_of(d) for d in doc.devices.values()]
    return bill, roles.count(Role.SPINE), roles.count(Role.CORE)


@pytest.mark.parametrize(("servers", "leaf", "target", "headroom"), [
    (16, "nvidia-sn5600", 64, 16),  # 1 SU of 16 on 128-port spines: one more SU fits
    (64, "nvidia-qm9700", 128, 0),  # 2 SUs of 32 on full 64-port spines: none fits
])
def test_headroom_is_the_largest_growth_the_grow_command_fits(catalog, tmp_path, capsys,
                                                              servers, leaf, target, headroom):
    study = Study.prepare(Requirement(servers=servers, leaves=[leaf],
                                      growth={"servers": target}), catalog)
    result = run_study(study, tmp_path, workers=0)
    candidate = result.candidates[0]
    growth = candidate.metrics.growth
    doc = load_fabric(candidate.file, catalog)
    spines = sum(1 for d in doc.devices.values() if doc.role_of(d) == Role.SPINE)
    sus = {d.tags["su"] for d in doc.devices.values() if doc.role_of(d) == Role.GPU_SERVER}
    per_su = servers // len(sus)  # the generator's rail groups: 16 on SN5600, 32 on QM9700
    fits = []
    for step in range(1, (target - servers) // per_su + 1):
        bill, grown_spines, cores = _grown(capsys, candidate.file, step, tmp_path / f"g{step}")
        fits.append(bill["cables_to_move"] == 0 and bill["cables_to_remove"] == 0
                    and grown_spines == spines and cores == 0)
    best = max((i + 1 for i, ok in enumerate(fits) if ok and all(fits[:i + 1])), default=0)
    assert growth.headroom_servers == best * per_su == headroom
    assert growth.fits == all(fits)
    assert growth.target_servers == target
    bill, grown_spines, _cores = _grown(capsys, candidate.file, len(fits), tmp_path / "last")
    assert growth.cables_moved == bill["cables_to_move"]
    assert growth.spines_added == grown_spines - spines
    assert growth.devices_added == bill["devices_to_add"]
