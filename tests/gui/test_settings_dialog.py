"""Fabric settings dialog: every setting editable, checked by the file's models, one undo step."""

from __future__ import annotations

import pytest

from aicnet_gui.model.fabric import (
    LabelProfile,
    LengthEstimation,
    Notes,
    OversubscriptionTargets,
    Settings,
)
from tests.doc_edits import add_device, update_settings


@pytest.fixture
def dialog(qtbot, doc, catalog):  # noqa: ANN001, ANN201
    from aicnet_gui.gui.dialogs.settings_dialog import FabricSettingsDialog

    # values a spin box would round or clamp, text a form would trim
    update_settings(doc, oversubscription=OversubscriptionTargets(storage=4 / 3, inference=0.004),
                         lengths=LengthEstimation(in_rack_m=1e-7), allreduce_message_mb=2e6,
                         notes=Notes(general="first line\nsecond line\n"),
                         naming={**Settings().naming, "border": "", "leaf": " leaf-{n:02d}"})
    box = FabricSettingsDialog(doc, catalog)
    qtbot.addWidget(box)
    return box


def test_an_untouched_dialog_changes_nothing(dialog):
    assert dialog.operations() == []
    dialog.accept()
    assert dialog.result_ops == []


def test_every_tab_edits_the_settings_in_one_edit(dialog, doc):
    dialog.general.set_values({"revision": "C", "author": "N. Architect"})
    dialog.place.set_values({"site": "DC2", "label_profile": LabelProfile.ISO_14763})
    dialog.network.set_values({"mtu": 9000, "pfc": True, "allreduce_message_mb": 256.0})
    dialog.targets.set_values({"training": 1.5})
    dialog.lengths.set_values({"slack_m": 2.0, "row_pitch_m": 3.6})
    dialog.naming.edits["leaf"].setText("lf{n:03d}")
    dialog.notes.edits["nccl"].setPlainText("NCCL_IB_HCA=mlx5")
    dialog.accept()
    assert dialog.result() == dialog.DialogCode.Accepted
    applied = doc.apply(dialog.result_ops)
    settings, metadata = doc.settings, doc.metadata
    assert (metadata.revision, metadata.author) == ("C", "N. Architect")
    assert (settings.site, settings.label_profile) == ("DC2", LabelProfile.ISO_14763)
    assert (settings.mtu, settings.pfc, settings.allreduce_message_mb) == (9000, True, 256.0)
    assert settings.oversubscription.training == 1.5
    assert settings.oversubscription.storage == 4 / 3  # untouched, exact
    assert settings.lengths.in_rack_m == 1e-7 and settings.oversubscription.inference == 0.004
    assert (settings.lengths.slack_m, settings.lengths.row_pitch_m) == (2.0, 3.6)
    assert settings.lengths.ru_height_m == 0.04445
    assert settings.naming["leaf"] == "lf{n:03d}" and settings.naming["spine"] == "spine-{n:02d}"
    assert settings.naming["border"] == ""
    assert settings.notes.nccl == "NCCL_IB_HCA=mlx5"
    assert settings.notes.general == "first line\nsecond line\n"
    before = doc.settings
    doc.apply(applied.inverse)  # one undo step gives every old value back
    assert doc.settings.mtu == 4096 and doc.settings.naming["leaf"] == " leaf-{n:02d}"
    assert doc.settings != before
    assert doc.metadata.revision == "A"


def test_a_naming_pattern_without_a_number_keeps_the_dialog_open(dialog, doc):
    dialog.naming.edits["spine"].setText("spine")
    assert "every device gets one name" in dialog.naming.previews["spine"].text()
    dialog.accept()
    assert dialog.result() != dialog.DialogCode.Accepted
    assert dialog.error.isVisibleTo(dialog)
    assert "Naming: Spine switches" in dialog.error.text()
    assert doc.settings.naming["spine"] == "spine-{n:02d}"


def test_the_inspector_opens_the_dialog_and_ok_is_one_undo_step(window, qtbot):
    from PySide6.QtWidgets import QPushButton

    from aicnet_gui.gui.dialogs.settings_dialog import FabricSettingsDialog

    button = next(b for b in window.inspector.findChildren(QPushButton)
                  if b.text() == "All fabric settings…")
    button.click()
    dialog = next(d for d in window.findChildren(FabricSettingsDialog) if d.isVisible())
    dialog.place.set_values({"site": "DC9"})
    dialog.targets.set_values({"inference": 2.0})
    dialog.accept()
    assert (window.document.fabric.settings.site, window.document.fabric.settings.oversubscription.inference) \
        == ("DC9", 2.0)
    assert window.document.undo_stack.undoText() == "Edit fabric settings"
    window.document.undo_stack.undo()
    assert window.document.fabric.settings.site == "1A"


def test_edit_menu_has_the_fabric_settings(window):
    from PySide6.QtWidgets import QMenu

    from aicnet_gui.gui.dialogs.settings_dialog import FabricSettingsDialog

    action = window.actions_by_name["fabric-settings"]
    edit_menu = next(m for m in window.menuBar().findChildren(QMenu) if m.title() == "&Edit")
    assert action in edit_menu.actions()
    action.trigger()
    dialog = next(d for d in window.findChildren(FabricSettingsDialog) if d.isVisible())
    dialog.reject()
    assert not window.document.undo_stack.canUndo()


def test_subnet_managers_and_firmware_baselines_are_edited_by_name(qtbot, doc, catalog):
    from aicnet_gui.gui.dialogs.settings_dialog import FabricSettingsDialog
    from aicnet_gui.model.fabric import Device

    add_device(doc, Device(id="sw1", name="spine-01", model="nvidia-qm9700"))
    add_device(doc, Device(id="sw2", name="spine-02", model="nvidia-qm9700"))
    update_settings(doc, subnet_managers=["sw2"], firmware_baselines={"quantum-2": "31.2010"})
    box = FabricSettingsDialog(doc, catalog)
    qtbot.addWidget(box)
    assert box.services.subnet_managers.text() == "spine-02"
    assert box.services.firmware.text() == "quantum-2 = 31.2010"
    assert box.operations() == []  # shown as they are, nothing changes
    box.services.subnet_managers.setText("spine-01, spine-02")
    box.services.firmware.setText("quantum-2 = 31.2012.1068, spectrum-4=5.10")
    box.accept()
    doc.apply(box.result_ops)
    assert doc.settings.subnet_managers == ["sw1", "sw2"]
    assert doc.settings.firmware_baselines == {"quantum-2": "31.2012.1068", "spectrum-4": "5.10"}
    box = FabricSettingsDialog(doc, catalog)
    qtbot.addWidget(box)
    box.services.subnet_managers.setText("spine-09")
    box.accept()
    assert box.result() != box.DialogCode.Accepted
    assert "no device is named 'spine-09'" in box.error.text()
