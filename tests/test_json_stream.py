"""json_stream.write_json: a document with members given as chunks is written byte for byte as
orjson writes the whole document, at any depth, with empty chunks, empty members and strings
that hold newlines and quotes; and `validate --json` prints exactly `AnalysisReport.to_json`."""

from __future__ import annotations

import random
from pathlib import Path

import orjson
import pytest

from aicnet_gui.json_stream import INDENTED, Streamed, write_json

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _written(data: object) -> bytes:
    pieces: list[bytes] = []
    write_json(data, pieces.append)
    return b"".join(pieces)


def _value(rng: random.Random, depth: int = 0) -> object:
    pick = rng.random()
    if depth > 3 or pick < 0.3:
        return rng.choice([1, 2.5, None, True, 'a\nb"c', "é\t", [], {}])
    if pick < 0.65:
        return {f"k{i}\n": _value(rng, depth + 1) for i in range(rng.randint(0, 4))}
    return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]


def _streamed(rng: random.Random, value: object) -> object:
    """`value` with some of its dicts and lists (the top one too) given as chunks."""
    size = rng.randint(1, 3)
    if isinstance(value, dict):
        if rng.random() < 0.5:
            items = list(value.items())
            return Streamed(dict, [{}] + [dict(items[i:i + size])
                                          for i in range(0, len(items), size)] + [{}])
        return {key: _streamed(rng, item) for key, item in value.items()}
    if isinstance(value, list):
        if rng.random() < 0.5:
            return Streamed(list, iter([value[i:i + size] for i in range(0, len(value), size)]))
        return [_streamed(rng, item) for item in value]
    return value


@pytest.mark.parametrize("seed", range(8))
def test_streamed_members_are_written_as_the_whole_document(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        value = _value(rng)
        assert _written(_streamed(rng, value)) == orjson.dumps(value, option=INDENTED)


def test_a_member_of_many_chunks_deep_in_the_document() -> None:
    links = {f"link-{i}": {"length_m": i / 3, "media": None} for i in range(1000)}
    document = {"findings": [], "metrics": {"reach": {"summary": {"links": 1000}, "links": links}}}
    items = list(links.items())
    streamed = {"findings": Streamed(list, []), "metrics": {"reach": {
        "summary": {"links": 1000},
        "links": Streamed(dict, (dict(items[i:i + 64]) for i in range(0, 1000, 64)))}}}
    assert _written(streamed) == orjson.dumps(document, option=INDENTED)


def test_a_chunk_of_the_wrong_kind_is_refused() -> None:
    with pytest.raises(TypeError, match="chunk is a list"):
        _written({"a": Streamed(dict, [[1]])})
    with pytest.raises(TypeError, match="not JSON serializable"):
        _written({"a": object()})
    with pytest.raises(ValueError, match="unsorted"):
        write_json({"a": 1}, print, option=INDENTED | orjson.OPT_SORT_KEYS)


def test_validate_json_prints_the_report_as_json(catalog, tmp_path, capsys, monkeypatch) -> None:
    """The CLI's output, its findings and links in chunks of 7, against the report's own JSON
    (both whole): 70 links without a cable, so 70 CABLE-UNSET findings among the rest."""
    from aicnet_gui.analysis import analyze, report
    from aicnet_gui.cli import main
    from aicnet_gui.cli.commands import validate
    from aicnet_gui.fileio import load_fabric, save_fabric
    from aicnet_gui.model.edits import UpdateLink

    monkeypatch.setattr(validate, "FINDINGS_CHUNK", 7)
    monkeypatch.setattr(report, "LINK_CHUNK", 7)
    doc = load_fabric(EXAMPLES / "superpod-1su.fabric", catalog)
    doc.apply([UpdateLink(link_id, {"cable": None}) for link_id in list(doc.links)[:70]])
    path = tmp_path / "uncabled.fabric"
    save_fabric(doc, path)
    code = main(["validate", "--json", str(path)])
    printed = orjson.loads(capsys.readouterr().out)
    expected = analyze(load_fabric(path, catalog)).to_json()
    assert code == (1 if any(f["severity"] == "error" for f in expected["findings"]) else 0)
    assert printed["metrics"] == expected["metrics"]
    assert len(printed["metrics"]["reach"]["links"]) == len(doc.links)
    assert [f["code"] for f in printed["findings"]] == [f["code"] for f in expected["findings"]]
    assert sum(f["code"] == "CABLE-UNSET" for f in printed["findings"]) == 70


def test_print_json_to_a_text_stream_writes_the_same_document(monkeypatch) -> None:
    """A stdout with no binary buffer (an IDE's console, a StringIO) gets the same text."""
    import io
    import sys

    from aicnet_gui.cli.common import print_json

    document = {"findings": [{"code": "X", "message": "é\n"}], "links": {"l1": {"m": 1.5}}}
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stdout", stream)
    print_json({"findings": Streamed(list, [document["findings"]]),
                "links": Streamed(dict, [{}, document["links"]])})
    assert stream.getvalue() == orjson.dumps(document, option=INDENTED).decode() + "\n"
