"""Help > About: the version of aicnet, the versions of the catalog files it reads, and where
the user's own catalog lives (the folder to put YAML files in)."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QMessageBox, QWidget

from ... import __version__
from ...catalog.versions import CatalogFileVersion, catalog_versions
from ...model.wording import counted


def _files(files: list[CatalogFileVersion]) -> str:
    rows = []
    for f in files:
        version = "unreadable" if f.version is None else f"version {f.version}"
        entries = "" if f.entries is None else f", {counted(f.entries, 'entry')}"
        rows.append(f"<li>{escape(f.name)}: {version}{entries}</li>")
    return "<ul>" + "".join(rows) + "</ul>"


def about_html() -> str:
    """The text of the About box."""
    versions = catalog_versions()
    folder = escape(str(versions.user_folder))
    if versions.user:
        user = f"<p>Your catalog: <code>{folder}</code></p>{_files(versions.user)}"
    else:
        user = (f"<p>Your catalog: <code>{folder}</code> (no files yet: put catalog YAML files "
                "there to add or override models, optics and cables)</p>")
    return (f"<h3>aicnet {escape(__version__)}</h3>"
            "<p>Design the network of an AI/GPU cluster, validate it while you draw, print the "
            "cabling plan.</p>"
            f"<p>Catalog format: version {versions.reads_up_to}. Built-in catalog files:</p>"
            f"{_files(versions.builtin)}{user}")


def show_about(parent: QWidget) -> None:
    QMessageBox.about(parent, "About aicnet", about_html())
