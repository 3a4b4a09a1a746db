"""Shared fixtures: the real built-in catalog and small documents built from it."""

from __future__ import annotations

import os

import pytest

from tests.doc_edits import add_device, add_link, add_rack, add_workload, update_settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(scope="session")
def catalog():
    from aicnet_gui.catalog.loader import builtin_catalog

    return builtin_catalog()


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory, monkeypatch):
    """Keep tests away from the real per-user catalog and state folders."""
    base = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("AICNET_USER_CATALOG_DIR", str(base / "catalogs"))
    monkeypatch.setenv("XDG_STATE_HOME", str(base / "state"))
    monkeypatch.setenv("XDG_DATA_HOME", str(base / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(base / "config"))


@pytest.fixture
def doc(catalog):
    from aicnet_gui.model.document import FabricDocument

    return FabricDocument(catalog)


@pytest.fixture
def small(doc):
    """A rack, a QM9700 leaf with one optic, a DGX H100, one link and one workload."""
    from aicnet_gui.model.fabric import CageConfig, Device, Endpoint, Link, Rack, Workload

    update_settings(doc, mtu=4096)
    add_rack(doc, Rack(id="r1", name="R01", row=1, position=1))
    add_device(doc, Device(id="leaf1", name="leaf-01", model="nvidia-qm9700", rack="r1", ru=40,
                           cages={5: CageConfig(transceiver="nvidia-mma4z00-ns")}))
    add_device(doc, Device(id="gpu1", name="gpu-001", model="nvidia-dgx-h100", rack="r1", ru=2,
                           position=(10.0, 200.0)))
    add_link(doc, Link(id="l1", a=Endpoint(device="gpu1", port="p1"), b=Endpoint(device="leaf1", port="5/1"),
                       cable="nvidia-mfp7e10", length_m=17.4, rail=1))
    add_workload(doc, Workload(id="w1", name="train", members=["gpu1"]))
    return doc


@pytest.fixture(autouse=True)
def _clear_clipboard_after_gui_tests():
    """Qt (offscreen) crashes at interpreter exit when the clipboard still owns data we put there."""
    yield
    import sys

    if "PySide6.QtWidgets" in sys.modules:
        from PySide6.QtWidgets import QApplication

        app = QApplication.instance()
        if app is not None:
            app.clipboard().clear()


@pytest.fixture
def override_local_entry():  # noqa: ANN201
    """Put a changed copy of a built-in catalog entry into the (test's) per-user catalog folder."""
    import os
    from pathlib import Path

    import yaml

    from aicnet_gui.catalog.loader import load_catalog

    def override(entry_id: str, **changes: object) -> None:
        entry = load_catalog(include_user=False).catalog.get(entry_id)
        data = {"kind": entry.kind, **entry.model_dump(mode="json", exclude_defaults=True), **changes}
        folder = Path(os.environ["AICNET_USER_CATALOG_DIR"])
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{entry_id}.yaml").write_text(
            yaml.safe_dump({"format": "aicnet.catalog", "version": 1, "entries": [data]}),
            encoding="utf-8")

    return override
