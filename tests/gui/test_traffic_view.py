"""Traffic on the drawn fabric in the editor (issue 35): the canvas coloured by the loads the
traffic model gives, the Workloads dock's numbers, a hottest link selected from the dock, runs
after edits with stale results dropped, Cancel, and the load-balancing mode in the settings
dialog, undoable; far out, the overview's trunks in their most loaded cable's colour.  The
figures are checked against `traffic_for`, the model's own call."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from aicnet_gui.editing.traffic_run import run_traffic
from aicnet_gui.fileio import save_fabric
from aicnet_gui.generators import TwoTierParams, generate
from aicnet_gui.gui import load_ramp
from aicnet_gui.gui.canvas.overview_layer import OVERVIEW_SCALE
from aicnet_gui.gui.panels.traffic_section import gbs
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import UpdateDevice, UpdateSettings
from aicnet_gui.traffic import TrafficParams, traffic_for

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HGX = "generic-hgx-8-gpu-b3140h"
CISCO = "cisco-n9364e-sg2-o"
WAIT_MS = 60_000


@pytest.fixture
def tor_window(window, tmp_path):  # noqa: ANN001, ANN201
    """The window with 64 HGX on top-of-rack leaves, 2:1 to the spines, static ECMP."""
    doc = FabricDocument(window.document.fabric.catalog)
    generate(doc, TwoTierParams(servers=64, oversubscription=2.0, attach="tor", server=HGX,
                                leaf=CISCO, spine=CISCO, technology="rocev2"))
    doc.apply([UpdateSettings({"load_balancing": "ecmp"})])
    path = tmp_path / "tor.fabric"
    save_fabric(doc, path)
    assert window.open_path(path, ask=False)
    yield window
    window.traffic.runner.wait()


def workload_id(window) -> str:  # noqa: ANN001
    (wl_id,) = window.document.fabric.workloads
    return wl_id


def show_on_canvas(qtbot, window, seeds: int):  # noqa: ANN001, ANN201
    """Colour the canvas by load with `seeds` ECMP draws; the run for the design as it is."""
    panel = window.traffic
    panel.section.seeds.setValue(seeds)
    window.set_colour_mode("traffic")
    qtbot.waitUntil(panel.runner.current, timeout=WAIT_MS)
    return panel.runner.result


def in_dock(qtbot, window, seeds: int):  # noqa: ANN001, ANN201
    """The Workloads dock in front with `seeds` ECMP draws; its traffic section, once current."""
    window.workloads.show()
    window.workloads.raise_()
    panel = window.traffic
    panel.section.seeds.setValue(seeds)
    qtbot.waitUntil(panel.runner.current, timeout=WAIT_MS)
    return panel.section


def test_the_canvas_colours_each_cable_by_the_load_traffic_for_gives(qtbot, tor_window):
    window = tor_window
    run = show_on_canvas(qtbot, window, seeds=1)
    doc = window.document.fabric
    loads = traffic_for(doc, workload_id(window), "ecmp", TrafficParams(seeds=1)).link_load
    assert run.fabric_mode == "ecmp" and window.traffic.section.mode == "ecmp"
    links = window.topology.links
    assert links.mode == "traffic"
    hot = max(loads, key=loads.get)
    cool = next(link for link, load in sorted(loads.items(), key=lambda i: i[1])
                if load > 0 and load_ramp.load_bin(load) < load_ramp.load_bin(loads[hot]))
    for link_id in (hot, cool):
        assert links.line_colour(link_id) == load_ramp.colour_of(loads[link_id])
    assert links.line_colour(hot) != links.line_colour(cool)
    assert QColor(links.line_colour(hot)).lightness() < QColor(links.line_colour(cool)).lightness()
    # zoomed out, the bundle of the hottest cable takes its colour
    assert load_ramp.colour_of(loads[hot]) in links.bundle_colours()
    assert window.legend.title().startswith("Traffic load · ECMP")
    section = window.traffic.section
    picture = section.picture()
    marked = window.topology.traffic.marked()
    ranked = [link for link, rank in marked if rank]
    # the canvas numbers the hottest links that are hotter than every link left out, as the
    # dock lists them
    assert 0 < picture.ranked <= len(picture.hottest)
    assert ranked == [hot.link_id for hot in picture.hottest[:picture.ranked]]
    assert [rank for _link, rank in marked if rank] == list(range(1, picture.ranked + 1))


def test_the_dock_shows_the_numbers_traffic_for_gives(qtbot, tor_window):
    window = tor_window
    section = in_dock(qtbot, window, seeds=4)
    doc = window.document.fabric
    rows = section._mode_rows  # noqa: SLF001 - the table's cells by mode
    assert set(rows) == {"ecmp", "adaptive", "spray"}
    for mode, cells in rows.items():
        expected = traffic_for(doc, workload_id(window), mode, TrafficParams(seeds=4))
        _button, busbw, time, ratio = cells[:4]
        assert busbw.text() == gbs(expected.busbw_gbps)
        assert time.text() == f"{expected.time_ms:.2f} ms"
        assert ratio.text() == f"{expected.ratio:.0%}"
        if mode == "ecmp":
            spread = cells[4].text()
            assert f"{gbs(expected.busbw_p5_gbps)} – {gbs(expected.busbw_p95_gbps)}" in spread
            assert "over 4 draws" in spread
    counts = section.histogram.counts()
    assert counts == [b.links for b in section.picture().result.histogram]


def test_a_hottest_link_clicked_in_the_dock_is_selected_and_centred(qtbot, tor_window):
    window = tor_window
    hottest = in_dock(qtbot, window, seeds=1).hottest
    item = hottest.item(0)
    link_id = item.data(Qt.ItemDataRole.UserRole)
    window.topology_view.set_zoom(2.0)
    qtbot.mouseClick(hottest.viewport(), Qt.MouseButton.LeftButton,
                     pos=hottest.visualItemRect(item).center())
    assert window.topology.links.selected_ids() == {link_id}
    view = window.topology_view
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    assert shown.contains(window.topology.mirror.link_line(link_id).center())


def test_an_edit_runs_it_again_and_a_stale_result_is_dropped(qtbot, tor_window):
    window = tor_window
    panel = window.traffic
    runner = panel.runner
    release = threading.Event()
    revisions: list[int] = []

    def held(doc, wl_id, seeds, progress, cancel, failed):  # noqa: ANN001, ANN202
        revisions.append(doc.revision)
        release.wait(WAIT_MS / 1000)  # deaf to cancel: its result comes in late
        return run_traffic(doc, wl_id, seeds, progress, None, failed)

    runner.compute = held
    panel.section.seeds.setValue(1)
    with qtbot.waitSignal(runner.busy, timeout=WAIT_MS):
        window.set_colour_mode("traffic")
    before = window.document.fabric.revision
    device = next(iter(window.document.fabric.devices.values()))
    window.document.execute([UpdateDevice(device.id, {"name": device.name + "-x"})], "Rename")
    with qtbot.waitSignal(runner.dropped, timeout=WAIT_MS) as dropped:
        release.set()
    assert dropped.args == [before]
    with qtbot.waitSignal(runner.result_ready, timeout=WAIT_MS) as shown:
        pass
    assert shown.args[0].revision == window.document.fabric.revision == before + 1
    assert revisions == [before, before + 1]
    assert runner.current() and panel.section.run is shown.args[0]


def test_cancel_stops_a_run(qtbot, tor_window):
    window = tor_window
    panel = window.traffic
    runner = panel.runner
    panel.section.seeds.setValue(200)  # ~3 s of draws: the cancel lands long before the end
    window.workloads.show()
    window.workloads.raise_()
    with qtbot.waitSignal(runner.progress, timeout=WAIT_MS):
        runner.run_now()
    assert panel.section.cancel_button.isEnabled()
    with qtbot.assertNotEmitted(runner.result_ready), \
            qtbot.waitSignal(runner.busy, timeout=WAIT_MS,
                             check_params_cb=lambda busy: not busy):
        qtbot.mouseClick(panel.section.cancel_button, Qt.MouseButton.LeftButton)
    assert not runner.running() and not runner.current()
    assert panel.section.status.text() == "cancelled"
    assert not panel.section.cancel_button.isEnabled() and panel.section.run_button.isEnabled()


def test_the_settings_dialog_sets_the_load_balancing_mode_and_undo_takes_it_back(qtbot,
                                                                                tor_window):
    window = tor_window
    doc = window.document.fabric
    dialog = window.editor.open_fabric_settings(window)
    form = dialog.load_balancing
    if form.support is None:
        qtbot.waitSignal(form.support_ready, timeout=WAIT_MS).wait()
    assert form.value() == "ecmp"
    form.set_value("spray")
    # Cisco DLB does per-packet spraying and the SuperNICs reorder: it runs as asked
    assert form.outcome_text() == "Every fabric switch runs packet spraying."
    assert "N9364E" in form.hardware.text() or "cisco" in form.hardware.text().lower()
    dialog.accept()
    assert doc.settings.load_balancing == "spray"
    assert window.document.undo_stack.undoText() == "Edit fabric settings"
    window.document.undo_stack.undo()
    assert window.document.fabric.settings.load_balancing == "ecmp"
    window.document.undo_stack.redo()
    assert window.document.fabric.settings.load_balancing == "spray"
    run = show_on_canvas(qtbot, window, seeds=1)
    assert run.fabric_mode == "spray"  # the traffic view follows: the fabric's own mode,
    assert window.traffic.section.mode == "spray"  # shown until the user picks another
    assert window.legend.title() == "Traffic load · packet spraying"


def test_far_out_each_trunk_takes_the_load_of_its_most_loaded_cable(qtbot, window):
    assert window.open_path(EXAMPLES / "superpod-4su.fabric", ask=False)
    show_on_canvas(qtbot, window, seeds=1)
    window.traffic.section.choose_mode("ecmp")
    doc = window.document.fabric
    loads = traffic_for(doc, workload_id(window), "ecmp", TrafficParams(seeds=1)).link_load
    overview = window.topology.overview
    level, bundles = overview.level(OVERVIEW_SCALE / 2)
    peaks = overview.bundle_loads(level, bundles)
    titles = [block.title for block in level.blocks]
    spines = next(i for i, block in enumerate(level.blocks) if block.key.kind != "su"
                  and "spine" in block.counts)
    for su in ("1", "4"):
        block = titles.index(f"SU {su}")
        pair = (min(block, spines), max(block, spines))
        at = next(i for i, ab in enumerate(zip(bundles.a.tolist(), bundles.b.tolist(),
                                               strict=True)) if ab == pair)
        uplinks = [load for link_id, load in loads.items()
                   if {doc.devices[doc.links[link_id].a.device].tags.get("su"),
                       doc.devices[doc.links[link_id].b.device].tags.get("su")} == {su, None}]
        assert uplinks and peaks[at] == pytest.approx(max(uplinks), abs=1e-4)
