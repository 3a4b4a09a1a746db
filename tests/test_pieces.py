"""Links read a piece at a time into columns are exactly the links of the whole file; anything
that is not aicnet's layout is left to whole-file validation, and errors keep their place."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from aicnet_gui.fileio import FabricFileError
from aicnet_gui.fileio.fabric_file import dumps_fabric, loads_fabric
from aicnet_gui.fileio.pieces import validate_in_pieces
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.fabric import Fabric
from aicnet_gui.model.link_table import LinkTable


def pieced_links(raw: bytes, piece_bytes: int = 256 * 1024) -> list:
    """The links `validate_in_pieces` reads from `raw`, as Link objects."""
    read = validate_in_pieces(raw, piece_bytes)
    assert read is not None
    fabric, columns = read
    assert fabric.links == []
    return LinkTable(columns).values()


@pytest.fixture(scope="module")
def raw(catalog) -> bytes:
    from aicnet_gui.model.document import FabricDocument

    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, leaf="nvidia-qm9700"))
    return dumps_fabric(doc)


def test_pieces_give_the_links_of_the_whole_file(raw):
    whole = Fabric.model_validate_json(raw)
    assert len(whole.links) == 512
    for piece_bytes in (1, 1000, 20_000, len(raw)):  # one link a piece ... all in one
        assert pieced_links(raw, piece_bytes) == whole.links
        fabric, _columns = validate_in_pieces(raw, piece_bytes)
        assert fabric == whole.model_copy(update={"links": []})


def test_another_layout_is_left_to_whole_file_validation(raw, catalog):
    one_line = json.dumps(json.loads(raw)).encode()
    assert validate_in_pieces(one_line) is None
    assert len(loads_fabric(one_line, catalog).links) == 512
    # indented by a JSON tool, links still start their lines at four spaces: read in pieces
    indented = json.dumps(json.loads(raw), indent=2).encode()
    assert pieced_links(indented, 1000) == Fabric.model_validate_json(raw).links
    # a second "links" key: only the whole file says which one counts
    twice = raw.replace(b'\n  "racks": [', b'\n  "links": [],\n  "racks": [', 1)
    assert twice != raw and validate_in_pieces(twice) is None


def test_a_bad_link_in_a_later_piece_is_reported_at_its_place(raw, catalog):
    data = json.loads(raw)
    data["links"][300]["b"][1] = ""
    bad = dumps_like_aicnet(raw, data["links"])
    with pytest.raises(ValidationError):
        validate_in_pieces(bad, 1000)
    with pytest.raises(FabricFileError) as info:
        loads_fabric(bad, catalog, "plan.fabric")
    assert info.value.json_path == "$.links[300].b[1]"


def dumps_like_aicnet(raw: bytes, links: list[dict]) -> bytes:
    """`raw` with its links section replaced by `links`, one per line as aicnet writes them."""
    start = raw.index(b'\n  "links": [\n') + len(b'\n  "links": [\n')
    end = raw.index(b"\n  ]", start)
    body = b",\n".join(b"    " + json.dumps(x, separators=(",", ":")).encode() for x in links)
    return raw[:start] + body + raw[end:]


def test_the_links_end_is_found_whatever_follows_them(raw):
    whole = Fabric.model_validate_json(raw).links
    start = raw.index(b'\n  "workloads": ')
    stop = raw.index(b"\n  ]", start) + len(b"\n  ]")
    workloads = raw[start + 1:stop]  # the key and its list, without the line break before
    moved = raw[:start - 1] + raw[stop:]  # no workloads after the links ...
    moved = moved.replace(b'\n  "racks": [', b"\n" + workloads + b',\n  "racks": [', 1)  # ... before
    assert moved != raw and json.loads(moved) == json.loads(raw)
    assert pieced_links(moved, 1000) == whole


def test_a_link_on_a_port_its_device_does_not_have_is_refused_at_its_place(raw, catalog):
    data = json.loads(raw)
    data["links"][10]["a"] = [data["links"][10]["a"][0], "zz"]
    bad = dumps_like_aicnet(raw, data["links"])
    assert validate_in_pieces(bad) is not None  # well formed: the document says what is wrong
    with pytest.raises(FabricFileError, match="has no port 'zz'") as info:
        loads_fabric(bad, catalog, "plan.fabric")
    assert info.value.json_path == "$.links[10]"


def test_links_whose_neighbours_use_other_port_names_keep_their_columns(raw, catalog):
    data = json.loads(raw)
    for link in data["links"][::2]:  # every other link written the other way round
        link["a"], link["b"] = link["b"], link["a"]
    doc = loads_fabric(dumps_like_aicnet(raw, data["links"]), catalog)
    assert doc.links._base is not None and len(doc.links) == 512  # taken as columns


def test_another_array_before_the_workloads_key_still_reads_in_pieces(raw):
    data = json.loads(raw)
    order = ["format", "schema_version", "metadata", "settings", "links", "racks", "devices",
             "workloads", "catalog"]
    text = json.dumps({key: data[key] for key in order}, indent=2).encode()
    assert pieced_links(text, 1000) == Fabric.model_validate_json(raw).links
