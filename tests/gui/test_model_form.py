"""The generated forms read as a user would write them: numbers without float noise (storage's
4:3 target shows 1.33, not 1.333333, and still comes back exactly 4/3), workload kinds by their
names ("Inference, wide expert parallelism", not "Inference wide ep")."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QFormLayout, QLabel

from aicnet_gui.model.fabric import OversubscriptionTargets, Requirement, WorkloadKind


@pytest.mark.parametrize(("value", "decimals"), [
    (4 / 3, 2), (1.0, 2), (2.6, 2), (0.04445, 5), (0.004, 3), (0.1 + 0.2, 2), (1 / 30, 4),
    (123456.789, 3)])
def test_decimals_show_the_value_as_typed_or_three_significant_digits(value, decimals):
    from aicnet_gui.gui.dialogs.model_form import decimals_for

    assert decimals_for(value) == decimals


def test_field_titles_keep_acronyms_upper_case():
    from aicnet_gui.gui.dialogs.model_form import field_title

    assert field_title("inference_wide_ep") == "Inference wide EP"
    assert field_title("nodes_per_su") == "Nodes per SU"


def _rows(form) -> dict[str, str]:  # noqa: ANN001
    """Label -> what the field shows, for the form's spin boxes."""
    layout = form.findChild(QFormLayout)
    rows = {}
    for row in range(layout.rowCount()):
        label = layout.itemAt(row, QFormLayout.ItemRole.LabelRole).widget()
        field = layout.itemAt(row, QFormLayout.ItemRole.FieldRole).widget()
        if isinstance(label, QLabel) and isinstance(field, QDoubleSpinBox):
            rows[label.text()] = field.text()
    return rows


def test_the_oversubscription_targets_read_as_written(qtbot, catalog):
    from aicnet_gui.gui.dialogs.model_form import ModelForm

    form = ModelForm(OversubscriptionTargets, catalog)
    qtbot.addWidget(form)
    assert _rows(form) == {
        "Training": "1.00", "Storage": "1.33", "Inference": "3.00",
        "Inference, disaggregated prefill/decode": "1.00",
        "Inference, wide expert parallelism": "1.00"}
    assert form.values()["storage"] == 4 / 3  # shown rounded, kept exact


def test_the_requirement_forms_workload_kinds_read_by_their_names(qtbot, catalog):
    from aicnet_gui.gui.compare.requirement_form import RequirementForm

    requirement = Requirement(servers=32, workloads=[{"id": "w1", "kind": "inference-wide-ep"}])
    form = RequirementForm(catalog, requirement, None, Path("out"))
    qtbot.addWidget(form)
    kind = form.workloads.cellWidget(0, 1)
    assert isinstance(kind, QComboBox)
    assert kind.currentText() == "Inference, wide expert parallelism"
    assert [kind.itemText(i) for i in range(kind.count())] == [
        "Training", "Inference", "Storage", "Inference, disaggregated prefill/decode",
        "Inference, wide expert parallelism"]
    assert form.requirement().workloads[0].kind is WorkloadKind.INFERENCE_WIDE_EP
    assert "Inference, wide expert parallelism" in _rows(form.targets)
