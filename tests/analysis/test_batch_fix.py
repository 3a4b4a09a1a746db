"""Fix at scale: the one-click fixes of many findings merged, checked together, one step.

Every case starts from the 1-SU SuperPOD example and breaks it through the document API.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aicnet_gui.analysis import Analyzer, Severity
from aicnet_gui.cli import main
from aicnet_gui.fileio import load_fabric, save_fabric
from aicnet_gui.model.edits import UpdateDevice, UpdateLink
from aicnet_gui.repair import FixChecker
from aicnet_gui.repair.batch import batch_fix, by_code, merge_ops, same_fix

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "superpod-1su.fabric"


@pytest.fixture
def su1(catalog):
    return load_fabric(EXAMPLE, catalog)


def _checker(doc):
    analyzer = Analyzer(doc)
    report = analyzer.full()
    return FixChecker(doc, analyzer, report), report


def test_sixty_four_unset_cables_are_fixed_in_one_step(su1):
    """64 cables without media (bulk wiring leaves them so): 64 CABLE-UNSET warnings, one
    batch; after it no CABLE-UNSET is left and no error appeared."""
    ids = sorted(su1.links)[:64]
    su1.apply([UpdateLink(i, {"cable": None}) for i in ids])
    checker, report = _checker(su1)
    unset = by_code(report.findings, "CABLE-UNSET")
    assert len(unset) == 64
    batch = batch_fix(checker, unset)
    assert batch.applicable and batch.cleared == 64
    assert batch.description == "fix 64 CABLE-UNSET findings"
    su1.apply(list(batch.ops))
    after = Analyzer(su1).full()
    assert not after.by_code("CABLE-UNSET") and after.errors == 0


def test_findings_that_share_a_cause_share_one_operation(su1):
    """Leaf-01's cage 1 set to 4x200G breaks both its server links (400G NICs): the findings
    of that cause carry the same fix; merged, the batch is each distinct operation once."""
    leaf = su1.device_by_name("leaf-01")
    from aicnet_gui.model.fabric import CageConfig

    cages = dict(leaf.cages)
    cages[1] = CageConfig(mode="4x200G", transceiver=cages[1].transceiver)
    su1.apply([UpdateDevice(leaf.id, {"cages": cages})])
    checker, report = _checker(su1)
    fixable = [f for f in report.findings if f.fix is not None and f.fix.ops]
    assert fixable
    like = fixable[0]
    alike = same_fix(report.findings, like)
    assert like in alike and len(alike) >= 2, [f.code for f in fixable]
    merged = merge_ops(f.fix.ops for f in alike)
    assert len(merged) == len(like.fix.ops)  # one cause, one set of operations
    batch = batch_fix(checker, alike)
    assert batch.applicable and batch.cleared == len(alike)


def test_a_batch_that_would_add_an_error_is_not_offered(su1):
    """Single-mode cords on SR4 (multimode) optics at 70 m: MEDIA-MISMATCH and REACH-EXCEEDED.
    The rules' own cord fixes alone would leave the reach error, so the batch falls back to
    re-choosing the media (optics at both ends and the cord) and clears the mismatches."""
    ids = [lk.id for lk in sorted(su1.links.values(), key=lambda x: x.id)
           if lk.cable == "nvidia-mfp7e10"][:4]
    su1.apply([UpdateLink(i, {"cable": "nvidia-mfp7e30", "length_m": 70.0}) for i in ids])
    checker, report = _checker(su1)
    broken = [f for f in report.findings if f.objects and f.objects[0] in ids]
    assert broken
    batch = batch_fix(checker, broken)
    assert batch.applicable
    su1.apply(list(batch.ops))
    after = Analyzer(su1).full()
    assert after.errors == 0
    assert not [f for f in after.findings if f.objects and f.objects[0] in ids
                and f.severity != Severity.INFO]


def test_nothing_fixable_says_why(su1):
    checker, report = _checker(su1)
    notes = by_code(report.findings, "PORTS-EXHAUSTED")
    batch = batch_fix(checker, notes)
    assert not batch.applicable and batch.reason


def test_cli_fix_writes_the_fixed_design(su1, tmp_path, capsys):
    ids = sorted(su1.links)[:10]
    su1.apply([UpdateLink(i, {"cable": None}) for i in ids])
    broken, fixed = tmp_path / "broken.fabric", tmp_path / "fixed.fabric"
    save_fabric(su1, broken)
    assert main(["fix", str(broken), "--code", "CABLE-UNSET", "--dry-run"]) == 0
    assert not fixed.exists() and "dry run" in capsys.readouterr().out
    assert main(["fix", str(broken), "--code", "cable-unset", "-o", str(fixed)]) == 0
    out = capsys.readouterr().out
    assert "10 finding(s) cleared" in out
    assert main(["validate", str(fixed)]) == 0
    assert "CABLE-UNSET" not in capsys.readouterr().out
    assert main(["fix", str(fixed), "--code", "CABLE-UNSET"]) == 1  # nothing left to fix
