"""The built-in catalog's YAML is parsed once per content and kept as JSON in the user's cache
folder (issue 38): the same entries and problems as a fresh parse, a changed file parsed again,
a broken or foreign cache ignored and written anew."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from aicnet_gui.catalog import loader, yaml_read
from aicnet_gui.catalog.yaml_cache import CACHE_ENV, CACHE_NAME, YamlCache
from aicnet_gui.paths import data_dir


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    return folder


def _parsed_never(monkeypatch):
    def refuse(text: str):  # noqa: ARG001
        raise AssertionError("parsed although the cache has the file")

    monkeypatch.setattr(yaml_read, "read_yaml", refuse)


def _load(folder: Path) -> tuple[list, list]:
    cache = YamlCache.open()
    loaded, problems = loader._load_folder(folder, cache)
    cache.save()
    return loaded, problems


def test_the_builtin_catalog_from_the_cache_is_the_parsed_one(cache_dir, monkeypatch):
    loader.clear_cache()
    fresh = loader._builtin()
    assert (cache_dir / CACHE_NAME).is_file()
    loader.clear_cache()
    _parsed_never(monkeypatch)
    cached = loader._builtin()
    assert [(e.model_dump(), o) for e, o in cached[0]] == [(e.model_dump(), o) for e, o in fresh[0]]
    assert cached[1] == fresh[1]
    loader.clear_cache()


def test_a_file_with_other_bytes_is_parsed_again(cache_dir, tmp_path, monkeypatch):
    folder = tmp_path / "catalogs"
    shutil.copytree(data_dir("catalogs"), folder)
    first = _load(folder)
    one = next(folder.rglob("*.yaml"))
    stat = one.stat()
    text = one.read_text(encoding="utf-8")
    entry_id = next(e.id for e, origin in first[0] if origin.endswith(one.name))
    one.write_text(text.replace(f"id: {entry_id}\n", f"id: {entry_id}-x\n", 1), encoding="utf-8")
    os.utime(one, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same time: keyed by content
    ids = {e.id for e, _ in _load(folder)[0]}
    assert f"{entry_id}-x" in ids and entry_id not in ids
    _parsed_never(monkeypatch)
    assert {e.id for e, _ in _load(folder)[0]} == ids  # and kept for the next run


def test_a_broken_or_foreign_cache_is_ignored_and_written_anew(cache_dir, tmp_path, monkeypatch):
    folder = tmp_path / "catalogs"
    shutil.copytree(data_dir("catalogs"), folder)
    expected = {e.id for e, _ in _load(folder)[0]}
    path = cache_dir / CACHE_NAME
    stamp = orjson.loads(path.read_bytes())["stamp"]
    for bad in (b"{\"stamp\": tru", b"[]", orjson.dumps({"stamp": {**stamp, "aicnet": "0.0"},
                                                         "documents": {}})):
        path.write_bytes(bad)
        assert {e.id for e, _ in _load(folder)[0]} == expected
        assert orjson.loads(path.read_bytes())["stamp"] == stamp
    # a cache whose documents are not what the files say would be wrong: keyed by the bytes,
    # another file's document is never found for this one
    data = orjson.loads(path.read_bytes())
    assert all(len(key) == 64 for key in data["documents"])


def test_a_document_json_cannot_keep_is_parsed_every_time(cache_dir, tmp_path):
    folder = tmp_path / "catalogs"
    folder.mkdir()
    (folder / "dated.yaml").write_text(
        "format: aicnet.catalog\nversion: 1\nchecked: 2024-05-01\nentries: []\n", encoding="utf-8")
    first = _load(folder)
    assert not orjson.loads((cache_dir / CACHE_NAME).read_bytes())["documents"] \
        if (cache_dir / CACHE_NAME).exists() else True
    assert _load(folder) == first and first[1] and "unknown top-level keys" in str(first[1][0])


def test_a_cache_folder_that_cannot_be_written_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "cache"))
    folder = tmp_path / "catalogs"
    shutil.copytree(data_dir("catalogs"), folder)
    assert _load(folder)[0]


def test_a_command_with_the_catalog_cached_loads_no_yaml_parser(cache_dir):
    probe = ("import sys\n"
             "from aicnet_gui.catalog.loader import load_catalog\n"
             "load_catalog()\n"
             "print('yaml' in sys.modules)\n")
    env = dict(os.environ)
    runs = [subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           env=env, check=True).stdout.split() for _ in range(2)]
    assert runs == [["True"], ["False"]]  # parsed and cached, then read from the cache
