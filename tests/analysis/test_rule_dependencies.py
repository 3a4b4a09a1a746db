"""A rule says which of its keys an edit makes dirty (`Rule.dirty`, given the update's Delta);
a rule that says nothing gets its scope's default; `Analyzer.update` re-runs each rule on
exactly those keys."""

from __future__ import annotations

from conftest import MMF, two_leaf_fabric

from aicnet_gui.analysis import Analyzer, Finding, Rule
from aicnet_gui.analysis.delta import Delta
from aicnet_gui.analysis.dirty import SCOPE_DEFAULTS, dependency_of, switch_peers
from aicnet_gui.analysis.engine import DEFAULT_RULES
from aicnet_gui.analysis.findings import WARNING
from aicnet_gui.analysis.state import SCOPES
from aicnet_gui.model.edits import RemoveLink
from tests.doc_edits import remove_device, remove_link, update_device, update_link, update_settings


def _long_link(state, row):
    length = state.link(row).length_m
    if length is not None and length > 50:
        yield Finding("TEST-LONG", WARNING, "long", (state.link_id(row),))


def _x_named(state, row):
    if state.name(row).startswith("x-"):
        yield Finding("TEST-X", WARNING, "x", (state.dev_id(row),))


def test_a_rule_runs_on_the_keys_its_dependency_names(build):
    two_leaf_fabric(build)
    seen: list[Delta] = []

    def edited_links(state, delta):
        seen.append(delta)
        return [state.store.link_row[i] for i in sorted(delta.changes.links)
                if i in state.store.link_row]

    rules = [*DEFAULT_RULES, Rule("long", "link", _long_link, dirty=edited_links),
             Rule("long-again", "link", _long_link, dirty=edited_links)]
    analyzer = Analyzer(build.doc, rules=rules)
    assert not analyzer.full().by_code("TEST-LONG")
    report = analyzer.update(update_link(build.doc, "s11", length_m=70.0).changes)
    assert [f.objects for f in report.by_code("TEST-LONG")] == [("s11",), ("s11",)]
    # one call per update however many rules share the dependency, with what the edit changed
    assert len(seen) == 1 and seen[0].links == {"s11"}
    assert report == Analyzer(build.doc, rules=rules).full()


def test_a_dependency_that_names_no_key_leaves_the_rule_alone(build):
    two_leaf_fabric(build)
    update_link(build.doc, "s11", length_m=70.0)
    rules = [*DEFAULT_RULES, Rule("long", "link", _long_link, dirty=lambda state, delta: [])]
    analyzer = Analyzer(build.doc, rules=rules)
    assert analyzer.full().by_code("TEST-LONG")
    report = analyzer.update(update_link(build.doc, "s11", length_m=3.0).changes)
    assert report.by_code("TEST-LONG")  # not re-checked: the finding of the full run stays


def test_a_rule_that_declares_nothing_gets_its_scopes_default(build):
    two_leaf_fabric(build)
    rules = [*DEFAULT_RULES, Rule("x-named", "device", _x_named)]
    analyzer = Analyzer(build.doc, rules=rules)
    assert not analyzer.full().by_code("TEST-X")
    report = analyzer.update(update_device(build.doc, "leaf-2", name="x-leaf").changes)
    assert [f.objects for f in report.by_code("TEST-X")] == [("leaf-2",)]
    report = analyzer.update(remove_device(build.doc, "leaf-2").changes)
    assert not report.by_code("TEST-X")
    for scope in SCOPES:
        assert dependency_of(Rule("r", scope, _x_named)) is SCOPE_DEFAULTS[scope]


def test_depends_peers_is_the_older_spelling_of_the_switch_peers_dependency():
    assert dependency_of(Rule("r", "device", _x_named, depends="peers")) is switch_peers
    (ecmp,) = [r for r in DEFAULT_RULES if r.name == "ecmp"]
    assert dependency_of(ecmp) is switch_peers


def test_moving_one_uplink_rechecks_the_switches_sharing_its_spine(build):
    two_leaf_fabric(build)
    keys: list[str] = []

    def peers(state, delta):
        rows = switch_peers(state, delta)
        keys.extend(state.dev_id(r) for r in rows)
        return rows

    rules = [*DEFAULT_RULES, Rule("x-named", "device", _x_named, dirty=peers)]
    analyzer = Analyzer(build.doc, rules=rules)
    analyzer.full()
    # fewer links to spine-1: only leaf-1's own spread changes
    analyzer.update(remove_link(build.doc, "u10").changes)
    assert keys == ["leaf-1"]
    keys.clear()
    # leaf-1 has no link left to spine-1, but what leaf-2 reaches through its spines is what it
    # was (leaf-2 still reaches spine-1 and spine-2): only leaf-1 is checked again
    edit = build.doc.apply([RemoveLink(i) for i in ("u11", "u14", "u15")])
    report = analyzer.update(edit.changes)
    assert keys == ["leaf-1"]
    assert report == Analyzer(build.doc, rules=rules).full()
    keys.clear()
    # leaf-2 leaves spine-1 too: the lows of spine-2 now reach spine-2 alone, so both leaves,
    # compared over spine-2, are checked again
    edit = build.doc.apply([RemoveLink(i) for i in ("u20", "u21", "u24", "u25")])
    report = analyzer.update(edit.changes)
    assert sorted(keys) == ["leaf-1", "leaf-2"]
    assert report == Analyzer(build.doc, rules=rules).full()


def test_a_device_moved_on_the_canvas_checks_nothing_again_and_reports_as_a_full_run(build):
    """No rule reads a device's canvas position: a drag re-runs no rule (a fabric rule walks
    every link: ~90 ms at 1.2M links), and the report is what a full run of the moved design
    gives."""
    two_leaf_fabric(build)
    runs: list[str] = []

    def counted(state, key):
        runs.append(key)
        return iter(())

    rules = [*DEFAULT_RULES, Rule("every-edit", "fabric", counted)]
    analyzer = Analyzer(build.doc, rules=rules)
    analyzer.full()
    runs.clear()
    moved = update_device(build.doc, "leaf-1", position=(640.0, 80.0))
    report = analyzer.update(moved.changes)
    assert runs == []
    assert report == Analyzer(build.doc, rules=rules).full()
    # a change a rule does read still re-runs the fabric rules
    runs.clear()
    report = analyzer.update(update_device(build.doc, "leaf-1", name="x-leaf").changes)
    assert runs == [None]
    assert report == Analyzer(build.doc, rules=rules).full()


def test_load_balancing_is_checked_again_when_a_servers_nic_links_change_not_their_lengths(build):
    """On RoCE the fabric asks for packet spraying, which a DGX H100's ConnectX-7 NICs are not
    known to reorder for: the finding names that server.  A cable's length leaves the rule
    alone (it walks every link: ~35 ms at 1.2M links); the server's NIC link removed takes it
    out of the finding, put back brings it in again, as a full run says each time."""
    two_leaf_fabric(build)
    build.dev("dgx-1", "nvidia-dgx-h100", rack="rc", ru=33)
    build.link("x1", "dgx-1", "p1", "leaf-2", "swp9s0", cable=MMF)
    doc = build.doc
    update_settings(doc, technology="rocev2", load_balancing="spray")
    analyzer = Analyzer(doc)

    def nic_finding(report):
        found = [f for f in report.by_code("LOAD-BALANCING") if "out of order" in f.message]
        return found[0].objects if found else ()

    assert nic_finding(analyzer.full()) == ("dgx-1",)
    report = analyzer.update(update_link(doc, "s11", length_m=9.0).changes)
    assert report == Analyzer(doc).full()
    removed = remove_link(doc, "x1")
    report = analyzer.update(removed.changes)
    assert nic_finding(report) == ()
    assert report == Analyzer(doc).full()
    report = analyzer.update(doc.apply(removed.inverse).changes)
    assert nic_finding(report) == ("dgx-1",)
    assert report == Analyzer(doc).full()
