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


@pytest.fixture(params=["forked", "spawned"])
def halves_for_small_files(request, monkeypatch):
    """A links section of any size read in halves, the second in a forked child (also when
    other tests loaded Qt in this process: no Qt thread runs here) or in a spawned one (as the
    editor reads it); `pieces.children` lists what each child sent back (None: it failed)."""
    from aicnet_gui import forked, spawned
    from aicnet_gui.fileio import pieces

    monkeypatch.setattr(pieces, "HALVES_BYTES", 0)
    if request.param == "forked":
        monkeypatch.setattr(forked, "qt_loaded", lambda: False)
        if not forked.fork_useful():
            pytest.skip("no fork here")
    else:
        monkeypatch.setattr(pieces, "fork_useful", lambda: False)
        if not spawned.spawn_useful():
            pytest.skip("one CPU here: no child is spawned")
    children: list[object] = []
    kind = pieces.Forked if request.param == "forked" else pieces.Spawned

    class Recorded(kind):  # type: ignore[misc, valid-type]
        def result(self):  # noqa: ANN202
            value = super().result()
            children.append(value)
            return value

    monkeypatch.setattr(pieces, "Forked" if request.param == "forked" else "Spawned", Recorded)
    monkeypatch.setattr(pieces, "children", children, raising=False)
    return pieces


def _with_fields_in_one_half(raw: bytes) -> bytes:
    """The links with a colour in the first half only and notes in the second half only."""
    links = json.loads(raw)["links"]
    for link in links[:100]:
        link["colour"] = "blue"
    for link in links[400:]:
        link["notes"] = "rack B"
    return dumps_like_aicnet(raw, links)


def test_halves_give_the_columns_of_the_whole(raw, halves_for_small_files):
    mixed = _with_fields_in_one_half(raw)
    whole = validate_in_pieces(mixed, 1000)
    halves = validate_in_pieces(mixed, 1000, halves=True)
    assert whole is not None and halves is not None
    assert halves[1].values == whole[1].values and halves[1].values["colour"][:100] == ["blue"] * 100
    assert halves[1].values["notes"][:400] == [""] * 400  # the default where the half had none
    assert LinkTable(halves[1]).values() == Fabric.model_validate_json(mixed).links
    plain = validate_in_pieces(raw, 1000, halves=True)
    assert plain[1].values == validate_in_pieces(raw, 1000)[1].values
    assert plain[1].values["notes"] is None  # no link has notes: none in either half
    # each half read by the child, not by this process after a failed child
    assert len(halves_for_small_files.children) == 2
    assert all(isinstance(child, dict) for child in halves_for_small_files.children)


@pytest.mark.parametrize("bad_links", [(300,), (20, 300)], ids=["second half", "both halves"])
def test_a_bad_link_read_in_halves_fails_as_in_the_whole(raw, catalog, halves_for_small_files,
                                                         bad_links):
    """A half that does not validate fails the fast path as the whole does; the careful path
    then names the first bad link (which half it is in does not matter)."""
    links = json.loads(raw)["links"]
    for index in bad_links:
        links[index]["b"][1] = ""
    bad = dumps_like_aicnet(raw, links)
    with pytest.raises(ValidationError):
        validate_in_pieces(bad, 1000)
    with pytest.raises(ValidationError):
        validate_in_pieces(bad, 1000, halves=True)
    for parallel in (False, True):
        with pytest.raises(FabricFileError) as loaded:
            loads_fabric(bad, catalog, "bad.fabric", parallel=parallel)
        assert loaded.value.json_path == f"$.links[{bad_links[0]}].b[1]"


def test_a_bad_device_read_beside_the_halves_fails_as_in_the_whole(raw, catalog,
                                                                   halves_for_small_files):
    """The rest of the file is validated while the child reads the second half: its error is
    the one reading alone gives, named at its place, and no child is left running."""
    import multiprocessing

    start = raw.index(b'\n  "devices": [\n') + len(b'\n  "devices": [\n')
    lines = raw[start:].split(b"\n", 2)  # the first two devices' lines, the rest
    device = json.loads(lines[1].strip().rstrip(b","))
    device["rack"] = 7  # not a rack id
    lines[1] = b"    " + json.dumps(device, separators=(",", ":")).encode() + b","
    bad = raw[:start] + b"\n".join(lines)
    with pytest.raises(ValidationError) as alone:
        validate_in_pieces(bad, 1000)
    with pytest.raises(ValidationError) as in_halves:
        validate_in_pieces(bad, 1000, halves=True)
    assert in_halves.value.errors() == alone.value.errors()
    assert not multiprocessing.active_children()
    with pytest.raises(FabricFileError) as loaded:
        loads_fabric(bad, catalog, "bad.fabric", parallel=True)
    assert loaded.value.json_path == "$.devices[1].rack"


def test_too_many_links_read_in_halves_are_refused_before_any_is_parsed(raw, catalog,
                                                                        halves_for_small_files,
                                                                        monkeypatch):
    """The links are counted while the child (started first) reads its half: too many stop it
    and refuse the file before this process parses a link, as reading alone does."""
    import multiprocessing

    pieces = halves_for_small_files
    parsed: list[int] = []
    real_pieces = pieces._pieces
    monkeypatch.setattr(pieces, "_pieces", lambda *args: (parsed.append(1), real_pieces(*args))[1])
    monkeypatch.setattr(pieces, "MAX_LINKS", 10)
    with pytest.raises(pieces.TooMany) as refused:
        validate_in_pieces(raw, 1000, halves=True)
    assert refused.value.count == len(json.loads(raw)["links"]) > 10
    assert parsed == [] and halves_for_small_files.children == []
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("parallel", [False, True], ids=["alone", "halves"])
def test_a_workload_with_a_link_id_is_refused_at_its_place(raw, catalog, parallel,
                                                           monkeypatch):
    """The loader tells the workloads' ids from the link ids with the set it checked the
    links with (`LinkColumns.absent`): one that is a link's id is still refused, named."""
    from aicnet_gui.fileio import pieces

    monkeypatch.setattr(pieces, "HALVES_BYTES", 0)
    link_id = json.loads(raw)["links"][7]["id"]
    bad = raw.replace(b'{"id":"workload-1",', b'{"id":"' + link_id.encode() + b'",', 1)
    assert bad != raw
    with pytest.raises(FabricFileError) as loaded:
        loads_fabric(bad, catalog, "bad.fabric", parallel=parallel)
    assert loaded.value.json_path == "$.workloads[0]"
    assert f"id {link_id!r} is already used" in str(loaded.value)
    doc = loads_fabric(raw, catalog, "good.fabric", parallel=parallel)
    assert "workload-1" in doc.workloads and doc.links.as_loaded().absent == {"workload-1"}
    assert "workload-1" not in doc.links and link_id in doc.links


def _relative(old_raw: bytes, new_raw: bytes):  # noqa: ANN202
    """`new_raw`'s links read with `old_raw`'s lines known, and read whole."""
    from aicnet_gui.fileio.pieces import known_links

    _fabric, old_columns = validate_in_pieces(old_raw)
    known = known_links(old_raw, old_columns)
    assert known is not None
    return validate_in_pieces(new_raw, known=known), validate_in_pieces(new_raw)


def _same_links(read, whole) -> None:  # noqa: ANN001
    assert read[0] == whole[0]
    for name in whole[1].values:
        assert LinkTable(read[1]).column(name) == LinkTable(whole[1]).column(name), name
    assert LinkTable(read[1]).values() == LinkTable(whole[1]).values()


def test_a_revision_read_beside_its_parent_has_the_links_read_whole(raw):
    """Lines the parent has take its values; changed, moved, added and removed lines, and
    fields only the new lines or only the parent's lines have, come out as reading the whole
    revision gives them."""
    links = json.loads(raw)["links"]
    for link in links[:3]:
        link["notes"] = "old only"
    parent = dumps_like_aicnet(raw, links)
    edited = json.loads(json.dumps(links))
    edited[7]["length_m"] = 7.0  # changed where it stands
    edited[8]["colour"] = "red"  # a field no parent line has
    for link in edited[:3]:  # the parent's only notes gone
        del link["notes"]
    for revision in (edited, edited[:100] + edited[101:] + [edited[100]],  # one moved last
                     edited[5:] + [dict(edited[0], id="new-1")]):  # removed and added
        read, whole = _relative(parent, dumps_like_aicnet(raw, revision))
        _same_links(read, whole)
    read, whole = _relative(parent, parent)  # no line changed
    _same_links(read, whole)


def test_a_bad_line_beside_the_parent_is_read_whole_and_named(raw, catalog):
    links = json.loads(raw)["links"]
    links[300]["b"][1] = ""
    bad = dumps_like_aicnet(raw, links)
    parent = loads_fabric(raw, catalog, "a.fabric")
    with pytest.raises(FabricFileError) as beside:
        loads_fabric(bad, catalog, "b.fabric", like=parent)
    assert beside.value.json_path == "$.links[300].b[1]"
    edited = loads_fabric(raw, catalog, "a.fabric")
    from tests.doc_edits import update_link

    update_link(edited, links[5]["id"], length_m=9.0)  # an edited parent: nothing taken from it
    assert len(loads_fabric(raw, catalog, "c.fabric", like=edited).links) == 512
