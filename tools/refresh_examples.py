"""Keep the shipped examples' embedded catalog entries equal to the built-in catalog.

A `.fabric` file embeds the catalog entries it uses, and they win over the local catalog (a
design does not change because someone's catalog did).  So when a catalog entry is corrected
(a reach, a power figure, a source), the examples keep the old version, and a fresh install
opens them with "N catalog entries of this design differ from your catalog".  This script
lists the stale entries of every example and, unless `--check`, takes the built-in versions
into the files the way Edit › Update Catalog Entries does (`catalog.updates.updated_catalog`,
applied as one `ReplaceCatalog` edit: the whole design is checked against the new entries, and
a design they no longer fit is reported, not written).  Nothing else in the files changes.

    .venv/bin/python tools/refresh_examples.py            # refresh, say what changed
    .venv/bin/python tools/refresh_examples.py --check    # exit 1 when an example is stale

`tests/test_examples_catalog.py` runs the check, so a catalog correction that leaves an example
stale fails the tests and names the example.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.catalog.updates import EntryUpdate, entry_updates, updated_catalog
from aicnet_gui.fileio import load_fabric, save_fabric
from aicnet_gui.model.catalog import Catalog
from aicnet_gui.model.document import ModelError
from aicnet_gui.model.edits import ReplaceCatalog

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def stale_entries(path: Path, catalog: Catalog) -> list[EntryUpdate]:
    """The entries the example at `path` embeds that differ from `catalog`'s."""
    return entry_updates(load_fabric(path, catalog), catalog)


def refresh(path: Path, catalog: Catalog) -> list[EntryUpdate]:
    """Take `catalog`'s version of every stale entry into the example; returns what changed.
    ModelError when the design does not fit the new entries (the file is left alone)."""
    doc = load_fabric(path, catalog)
    updates = entry_updates(doc, catalog)
    if updates:
        doc.apply([ReplaceCatalog(updated_catalog(doc, catalog, [u.entry_id for u in updates]))])
        save_fabric(doc, path, keep_backup=False)
    return updates


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only list the stale examples; exit 1 when there is one")
    parser.add_argument("files", nargs="*", type=Path,
                        help="the examples (default: every examples/*.fabric)")
    args = parser.parse_args(argv)
    catalog = builtin_catalog()
    stale = 0
    for path in args.files or sorted(EXAMPLES.glob("*.fabric")):
        try:
            updates = stale_entries(path, catalog) if args.check else refresh(path, catalog)
        except ModelError as exc:
            print(f"{path.name}: the design does not fit the catalog's entries: {exc}",
                  file=sys.stderr)
            return 2
        stale += bool(updates)
        verb = "stale" if args.check else "refreshed"
        if updates:
            print(f"{path.name}: {verb} {len(updates)} entries:")
            for update in updates:
                print(f"  {update.describe()}")
        else:
            print(f"{path.name}: up to date")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
