"""The File > Export dialog and the New-from-template wizard list what the registries hold: each
export format with its title, default target and (for the PDF) its options; each template with
its title and form."""

from __future__ import annotations

from pathlib import Path


def test_export_dialog_offers_every_registered_format(qtbot, tmp_path):
    from aicnet_gui.gui.dialogs.export_dialog import ExportDialog
    from aicnet_gui.report.export_registry import EXPORT_FORMATS

    dialog = ExportDialog(tmp_path / "hall-a.fabric")
    qtbot.addWidget(dialog)
    offered = [(dialog.kind.itemText(i), dialog.kind.itemData(i)) for i in range(dialog.kind.count())]
    assert offered == [(fmt.title, fmt.key) for fmt in EXPORT_FORMATS]
    for index, fmt in enumerate(EXPORT_FORMATS):
        dialog.kind.setCurrentIndex(index)
        assert dialog.target.text() == str(tmp_path / f"hall-a{fmt.stem}{fmt.suffix}")
        assert dialog.pdf_box.isVisibleTo(dialog) == ("options" in fmt.takes)
    assert Path(dialog.target.text()).name == "hall-a-slurm"


def test_template_wizard_lists_every_registered_template(window):
    from aicnet_gui.generators import GENERATOR_TEMPLATES
    from aicnet_gui.gui.dialogs.template_wizard import TemplateWizard

    wizard = TemplateWizard(window.catalog, window)
    titles = [wizard.templates.item(i).text() for i in range(wizard.templates.count())]
    assert titles == [template.title for template in GENERATOR_TEMPLATES]
    assert wizard.template() == "rail-optimized"
    for row, template in enumerate(GENERATOR_TEMPLATES):
        wizard.templates.setCurrentRow(row)
        assert wizard.template() == template.name
        assert wizard.description.text() == (template.params.__doc__ or "").strip()
    wizard.reject()
