"""Fixtures for the as-built tests: the examples opened with the built-in catalog, a namer."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def builtin(catalog):
    return catalog


def open_example(catalog, name: str):
    from aicnet_gui.fileio import load_fabric

    return load_fabric(EXAMPLES / name, catalog)


@pytest.fixture
def small_hgx(catalog):
    return open_example(catalog, "small-hgx.fabric")


@pytest.fixture
def superpod(catalog):
    return open_example(catalog, "superpod-1su.fabric")


@pytest.fixture
def roce(catalog):
    return open_example(catalog, "roce-enterprise.fabric")


def namer_for(doc, catalog, **kwargs):
    from aicnet_gui.model.port_names_os import PortNamer

    return PortNamer(doc, fallback=catalog.devices, **kwargs)
