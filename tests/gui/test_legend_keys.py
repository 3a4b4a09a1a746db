"""The cable and rail legends follow each edit's cables (gui/legend_keys.py): after every edit
the values counted are the values the cables have, and an edit says "redraw" exactly when that
set changed (checked against a recount of every cable)."""

from __future__ import annotations

from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.fileio import load_fabric
from aicnet_gui.gui.legend_keys import LegendKeys
from aicnet_gui.model.edits import RemoveLink, UpdateLink


def test_the_legend_keys_follow_colour_edits_removals_and_undo_as_a_recount_does(example_path):
    doc = load_fabric(example_path, builtin_catalog())
    keys = LegendKeys()

    def present() -> set:
        return set(doc.links.column("colour"))

    ids = sorted(doc.links)
    first = doc.apply([UpdateLink(ids[0], {"colour": "violet"})])
    assert keys.update(doc, "cable", first.changes.links)  # the first call counts
    edits = [[UpdateLink(ids[1], {"colour": "violet"})],  # a colour already there
             [UpdateLink(ids[0], {"colour": "pink"}), UpdateLink(ids[1], {"colour": "pink"})],
             [RemoveLink(ids[2])],
             [UpdateLink(i, {"colour": "yellow"}) for i in ids[3:]]]
    applied = []
    for ops in edits:
        before = present()
        edit = doc.apply(ops)
        applied.append(edit)
        assert keys.update(doc, "cable", edit.changes.links) == (present() != before)
        assert keys.values() == present()
    for edit in reversed(applied):  # undo, the removed cable back with its colour
        before = present()
        back = doc.apply(edit.inverse)
        assert keys.update(doc, "cable", back.changes.links) == (present() != before)
        assert keys.values() == present()
