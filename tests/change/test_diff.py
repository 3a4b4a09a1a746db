"""`aicnet diff`: semantic matching of two revisions and the MACD work order."""

from __future__ import annotations

import json

from pypdf import PdfReader

from aicnet_gui.analysis import compute_bom
from aicnet_gui.change import diff_documents
from aicnet_gui.cli import main
from aicnet_gui.fileio import save_fabric
from aicnet_gui.model.edits import AddDevice, AddLink, RemoveLink
from aicnet_gui.model.fabric import CageConfig, Endpoint
from aicnet_gui.report.workorder import build_work_order, write_work_order
from tests.doc_edits import remove_link, update_device, update_link, update_settings


def test_a_design_diffed_against_itself_is_empty(example):
    old, new = example("superpod-1su"), example("superpod-1su")
    diff = diff_documents(old, new)
    assert diff.empty
    assert not any(diff.counts().values())
    assert diff.bom is not None and diff.bom.lines == ()


def test_one_cable_moved_to_another_port_is_exactly_one_retermination(example):
    old, new = example("small-hgx"), example("small-hgx")
    free = new.free_ports("leaf-01")[0]
    update_link(new, "c001", b=Endpoint("leaf-01", free))
    diff = diff_documents(old, new)
    assert [r.new.id for r in diff.links_reterminated] == ["c001"]
    (moved,) = diff.links_reterminated[0].moved
    assert moved == (Endpoint("leaf-01", "swp1s0"), Endpoint("leaf-01", free))
    counts = diff.counts()
    assert counts["cables_reterminated"] == 1
    assert sum(counts.values()) == 1  # nothing else changed


def test_regenerated_ids_match_by_endpoints_and_are_no_change(example):
    old, new = example("small-hgx"), example("small-hgx")
    links = list(new.links.values())
    new.apply([RemoveLink(lk.id) for lk in links]
              + [AddLink(lk.model_copy(update={"id": f"x-{lk.id}"})) for lk in links])
    diff = diff_documents(old, new)
    assert diff.empty
    assert len(diff.link_renamed) == len(links)


def test_a_cable_with_a_new_id_and_one_end_moved_is_a_retermination(example):
    old, new = example("small-hgx"), example("small-hgx")
    link = new.links["c001"]
    free = new.free_ports("leaf-01")[0]
    new.apply([RemoveLink("c001"),
               AddLink(link.model_copy(update={"id": "new-1", "b": Endpoint("leaf-01", free)}))])
    diff = diff_documents(old, new)
    assert [(r.old.id, r.new.id) for r in diff.links_reterminated] == [("c001", "new-1")]
    assert not diff.links_added and not diff.links_removed


def test_removed_cable_moved_device_optic_and_setting(example):
    old, new = example("small-hgx"), example("small-hgx")
    remove_link(new, "c002")
    gpu = new.devices["gpu-001"]
    update_device(new, "gpu-001", ru=gpu.ru + 10)
    leaf = new.devices["leaf-01"]
    cages = dict(leaf.cages)
    cages[30] = CageConfig(mode="2x400G", transceiver="nvidia-mma4z00-ns")
    update_device(new, "leaf-01", cages=cages)
    update_settings(new, mtu=4200)
    diff = diff_documents(old, new)
    assert [lk.id for lk in diff.links_removed] == ["c002"]
    assert [(m.device, m.ru_before, m.ru_after) for m in diff.devices_moved] == [
        ("gpu-001", gpu.ru, gpu.ru + 10)]
    cage = next(c for c in diff.cage_changes if c.cage == 30)
    assert (cage.optic_before, cage.optic_after) == (None, "nvidia-mma4z00-ns")
    assert [(c.field, c.before, c.after) for c in diff.settings] == [("mtu", old.settings.mtu, 4200)]
    # the BOM delta is the difference of the two `aicnet bom` counts
    before, after = compute_bom(old), compute_bom(new)
    cables = {line.part: line.delta for line in diff.bom.section("cables")}
    for part, delta in cables.items():
        assert after.cables.get(part, 0) - before.cables.get(part, 0) == delta
    assert sum(cables.values()) == -1
    optics = {line.part: line.delta for line in diff.bom.section("transceivers")}
    assert optics == {"nvidia-mma4z00-ns": 1}


def test_work_order_lists_moves_and_labels_only_changed_cables(example, tmp_path):
    old, new = example("small-hgx"), example("small-hgx")
    free = new.free_ports("leaf-01")[0]
    update_link(new, "c001", b=Endpoint("leaf-01", free))
    remove_link(new, "c002")
    diff = diff_documents(old, new)
    work = build_work_order(diff)
    steps = [(r.rack, action, s.what) for r in work.racks for action, ss in r.steps.items()
             for s in ss]
    assert sorted(steps) == sorted([("R01", "move", "cable end"), ("R02", "remove", "cable")])
    # one straight cable re-terminated: its two ends get new labels, nothing else is printed
    assert len(work.labels) == 2 and {e.row.link_id for e in work.labels} == {"c001"}
    out = tmp_path / "wo.pdf"
    write_work_order(diff, out)
    text = "\n".join(p.extract_text() for p in PdfReader(out).pages)
    assert "Rack R01" in text and f"{free}" in text and "re-label" in text
    assert "Remove (1)" in text


def test_cli_diff_json_and_pdf(example, tmp_path, capsys):
    old, new = example("small-hgx"), example("small-hgx")
    update_link(new, "c001", b=Endpoint("leaf-01", new.free_ports("leaf-01")[0]))
    save_fabric(old, tmp_path / "a.fabric")
    save_fabric(new, tmp_path / "b.fabric")
    assert main(["diff", str(tmp_path / "a.fabric"), str(tmp_path / "b.fabric"), "--json",
                 "--pdf", str(tmp_path / "wo.pdf")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["counts"]["cables_reterminated"] == 1 and not data["empty"]
    assert (tmp_path / "wo.pdf").stat().st_size > 0
    assert main(["diff", str(tmp_path / "a.fabric"), str(tmp_path / "a.fabric")]) == 0
    assert "no changes" in capsys.readouterr().out


def test_cli_diff_bad_file_names_it(tmp_path, capsys):
    bad = tmp_path / "bad.fabric"
    bad.write_text("{not json")
    assert main(["diff", str(bad), str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.fabric" in err and "Traceback" not in err


def _mixed_revision(doc, seed: int):  # noqa: ANN001, ANN202
    """A revision with every kind of cable change: lengths, colours, swapped ends, removed,
    re-added under a new id, a renamed device (matched by name), links in another order."""
    import random

    from aicnet_gui.model.edits import RemoveDevice, UpdateLink

    rng = random.Random(seed)
    ids = list(doc.links)
    pick = rng.sample(ids, len(ids) // 3)
    ops = [UpdateLink(i, {"length_m": float(rng.randint(2, 20))}) for i in pick[:5]]
    ops += [UpdateLink(i, {"colour": "red"}) for i in pick[5:9]]
    for x, y in zip(pick[9:13:2], pick[10:14:2], strict=True):
        a, b = doc.links[x], doc.links[y]
        ops += [RemoveLink(x), RemoveLink(y), AddLink(a.model_copy(update={"b": b.b})),
                AddLink(b.model_copy(update={"b": a.b}))]
    ops += [RemoveLink(i) for i in pick[13:16]]
    for i in pick[16:]:  # removed and put back last: another order, some under a new id
        link = doc.links[i]
        ops += [RemoveLink(i), AddLink(link.model_copy(update={"id": i + "-r"} if rng.random()
                                                       < 0.5 else {}))]
    doc.apply(ops)
    device = next(d for d in doc.devices.values() if doc.tier_of(d) == 0)
    moved = [doc.links[i] for i in list(doc.links) if device.id in (doc.links[i].a.device,
                                                                   doc.links[i].b.device)]
    renamed = device.model_copy(update={"id": device.id + "-new"})

    def end(e):  # noqa: ANN001, ANN202
        return Endpoint(renamed.id, e.port) if e.device == device.id else e

    doc.apply([RemoveLink(lk.id) for lk in moved] + [RemoveDevice(device.id), AddDevice(renamed)]
              + [AddLink(lk.model_copy(update={"a": end(lk.a), "b": end(lk.b)})) for lk in moved])
    return doc


def test_links_the_same_in_both_revisions_are_matched_as_one_by_one(example):
    """The column pass (`same_links`) changes no match: the matching with it gives what the
    object-by-object matching of every link gives, in the same order."""
    from aicnet_gui.change.diff import match_devices, match_links, same_links

    for seed in range(4):
        old = example("superpod-1su")
        new = _mixed_revision(example("superpod-1su"), seed)
        device_map = match_devices(old, new)
        assert any(k != v for k, v in device_map.items())
        same = same_links(old, new, device_map)
        assert 0 < len(same) < len(old.links)
        fast = match_links(old, new, device_map, same)
        slow = match_links(old, new, device_map, set())
        assert list(fast[0].items()) == list(slow[0].items())
        assert [(r.old.id, r.new.id, r.moved) for r in fast[1]] == \
            [(r.old.id, r.new.id, r.moved) for r in slow[1]]


def test_a_revision_without_cables_diffs_as_every_cable_removed(example):
    # the cables of a design against its racks and devices alone (before cabling, or every
    # cable deleted): the same-rows step indexed the empty new table (IndexError)
    old, new = example("small-hgx"), example("small-hgx")
    new.apply([RemoveLink(link_id) for link_id in list(new.links)])
    diff = diff_documents(old, new)
    assert [lk.id for lk in diff.links_removed] == list(old.links)
    assert not diff.links_added and not diff.links_reterminated
    back = diff_documents(new, old)
    assert [lk.id for lk in back.links_added] == list(old.links) and not back.links_removed
