"""Every command of the main window, declared: id, text, shortcut, icon, tip, handler, enabled-when.

The window makes its QActions from `ACTIONS` (actions.py) and places them by id in the menus and
the toolbar (window_menus.py).  A handler is a dotted path from the window: `files.*` are the
file commands (file_commands.py), `edits.*` the editing verbs on the selection
(edit_commands.py), `change_tools.*`, `asbuilt.*`, `validator.*` and `editor.*` the window's
other parts, a bare name a method of the window itself.  `tests/gui/test_window_parts.py`
checks that every handler resolves.

To add a command: one `ActionSpec` here, its id in a menu or the toolbar in window_menus.py.
"""

from __future__ import annotations

from PySide6.QtGui import QKeySequence

from . import colouring
from .actions import ActionContext, ActionSpec

KEY = QKeySequence.StandardKey


def _devices(c: ActionContext) -> bool:
    return bool(c.devices)


def _aligned(c: ActionContext) -> bool:
    return c.topology and len(c.devices) >= 2


ALIGN_TEXTS = (("left", "Align Left"), ("hcenter", "Align Centres Horizontally"),
               ("right", "Align Right"), ("top", "Align Top"),
               ("vcenter", "Align Middles Vertically"), ("bottom", "Align Bottom"),
               ("hdistribute", "Distribute Horizontally"), ("vdistribute", "Distribute Vertically"))
COLLAPSE_TEXTS = (("su", "Scalable Units"), ("rack", "Racks"), ("rail", "Rails"), ("plane", "Planes"))

FILE_ACTIONS = (
    ActionSpec("new", "&New", "files.new_document", shortcut=KEY.New, tip="start an empty fabric"),
    ActionSpec("new-template", "New from &Template…", "files.new_from_template",
               shortcut="Ctrl+Shift+N", tip="generate a fabric from a template"),
    ActionSpec("new-comparison", "New &Comparison…", "comparison.new_comparison",
               icon="new-template", shortcut="Ctrl+Alt+N",
               tip="which fabric to buy: state the requirement, compare every candidate design "
               "side by side (cost, power, performance), use the one you choose"),
    ActionSpec("open", "&Open…", "files.open_dialog", shortcut=KEY.Open, tip="open a .fabric file"),
    ActionSpec("save", "&Save", "files.save", shortcut=KEY.Save, tip="save the fabric"),
    ActionSpec("save-as", "Save &As…", "files.save_as", shortcut=KEY.SaveAs,
               tip="save under a new name"),
    ActionSpec("revert", "&Revert", "files.revert", tip="reload the saved file, dropping changes"),
    ActionSpec("export-pdf", "&Export…", "files.export", shortcut="Ctrl+E",
               tip="the cabling plan PDF, cable schedule and label CSVs, NetBox import files"),
    ActionSpec("verify-asbuilt", "&Verify Against As-Built…", "asbuilt.choose_and_run",
               icon="validate", tip="compare LLDP, ibnetdiscover or NetBox data of the installed "
               "cluster with this design"),
    ActionSpec("import-devicetypes", "Import &Device Types…", "files.import_device_types",
               icon="open", tip="add NetBox device-type library YAML files to your catalog"),
    ActionSpec("quit", "&Quit", "close", shortcut=KEY.Quit, icon="quit"),
)

EDIT_ACTIONS = (
    ActionSpec("undo", "&Undo", shortcut=KEY.Undo, icon="undo",
               make=lambda w: w.document.undo_stack.createUndoAction(w, "&Undo")),
    ActionSpec("redo", "&Redo", shortcut=(KEY.Redo, "Ctrl+Y"),
               icon="redo", make=lambda w: w.document.undo_stack.createRedoAction(w, "&Redo")),
    ActionSpec("cut", "Cu&t", "edits.cut", shortcut=KEY.Cut, enabled_when=_devices),
    ActionSpec("copy", "&Copy", "edits.copy", shortcut=KEY.Copy, enabled_when=_devices),
    ActionSpec("paste", "&Paste", "edits.paste", shortcut=KEY.Paste),
    ActionSpec("duplicate", "&Duplicate", "edits.duplicate", shortcut="Ctrl+D",
               tip="copy and paste the selected devices", enabled_when=_devices),
    ActionSpec("delete", "De&lete", "edits.delete_selection",
               shortcut=(KEY.Delete, "Backspace"),
               tip="remove the selection", enabled_when=lambda c: c.anything),
    ActionSpec("select-all", "Select &All", "edits.select_all", shortcut=KEY.SelectAll),
    ActionSpec("find", "&Find Device…", "edits.find", shortcut=KEY.Find, icon="search",
               tip="go to a device by its name or id (completion as you type)"),
    ActionSpec("update-catalog", "Update Catalog &Entries…", "files.update_catalog_entries",
               tip="take newer data (prices, power, reach) for the parts this design uses from "
               "your catalog"),
    ActionSpec("fabric-settings", "Fabric &Settings…", "edits.fabric_settings", shortcut="Ctrl+,",
               tip="site, labels, network, oversubscription targets, cable lengths, naming, "
               "design notes"),
)

CONNECT_ACTIONS = (
    ActionSpec("connect-next", "Connect to &Next Free Port", "edits.connect_next_free",
               shortcut="Ctrl+L",
               tip="one cable between the next free same-speed ports of two selected devices",
               enabled_when=lambda c: len(c.devices) == 2),
    ActionSpec("connect-mesh", "&Full Mesh…", "edits.full_mesh", shortcut="Ctrl+M",
               tip="every lower-tier device to every upper-tier device",
               enabled_when=lambda c: len(c.tiers) >= 2),
    ActionSpec("connect-rail", "&Rail Wiring", "edits.rail_wiring", shortcut="Ctrl+Shift+W",
               tip="NIC i of every selected server to the leaf of rail i",
               enabled_when=lambda c: 0 in c.tiers and 1 in c.tiers),
    ActionSpec("choose-media", "Choose &Media for Selection", "edits.choose_media",
               shortcut="Ctrl+Shift+M",
               tip="optics and cords that reach, for the selected cables (or every cable of the "
               "selected devices), as the templates choose them; one undo step",
               enabled_when=lambda c: bool(c.links or c.devices)),
)

ARRANGE_ACTIONS = (
    ActionSpec("auto-layout", "Auto-&Layout by Tier", "editor.auto_layout",
               shortcut="Ctrl+Shift+L", tip="tidy the topology: core, spines, leaves, servers",
               enabled_when=lambda c: c.topology and c.has_devices),
    *(ActionSpec(f"align-{how}", text, "edits.align", args=(how,), enabled_when=_aligned)
      for how, text in ALIGN_TEXTS),
    ActionSpec("add-rack", "Add &Rack", "edits.add_rack", shortcut="Ctrl+Shift+R",
               tip="a 48U rack at the end of row 1"),
)

VIEW_ACTIONS = (
    ActionSpec("view-topology", "&Topology", "show_tab", args=(0,), shortcut="Ctrl+1"),
    ActionSpec("view-floor", "&Floor", "show_tab", args=(1,), shortcut="Ctrl+2"),
    ActionSpec("zoom-in", "Zoom &In", "zoom_by", args=(1.25,),
               shortcut=(KEY.ZoomIn, "Ctrl+=")),
    ActionSpec("zoom-out", "Zoom &Out", "zoom_by", args=(0.8,), shortcut=KEY.ZoomOut),
    ActionSpec("fit", "&Fit to View", "fit_current", shortcut="Ctrl+0", tip="show the whole fabric"),
    ActionSpec("snap-grid", "&Snap to Grid", "set_snap", checkable=True, checked=True,
               takes_checked=True),
    ActionSpec("legend", "&Legend", "legend.setVisible", checkable=True, checked=True,
               takes_checked=True),
    ActionSpec("validate", "&Validate Now", "validator.revalidate", shortcut="F5", icon="validate",
               tip="check the whole fabric again"),
    ActionSpec("compare", "Compare &With…", "change_tools.compare_dialog", icon="open",
               tip="select what differs from another revision of this design"),
    ActionSpec("whatif", "Failure &What-If…", "change_tools.whatif_selection",
               shortcut="Ctrl+Shift+F", icon="severity-warning",
               tip="what failing devices and cables (the selection, or chosen by name) does to "
               "every workload"),
    ActionSpec("failure-mode", "&Failure Mode", "change_tools.set_failure_mode",
               icon="severity-warning", checkable=True, takes_checked=True, enabled=False,
               tip="grey out the devices and cables of the last failure what-if (the design is "
               "not edited)"),
    *(ActionSpec(f"colour-{mode}", f"By {title.lower()}" if mode != "cable" else title,
                 "set_colour_mode", args=(mode,), icon="colour-mode", checkable=True,
                 checked=mode == "cable", group="colour")
      for mode, title in colouring.MODES.items()),
    ActionSpec("traffic-layer", "&Traffic Load", "traffic.set_shown", shortcut="Ctrl+Shift+T",
               icon="colour-mode", checkable=True, takes_checked=True,
               tip="colour every cable by its load under the workload and load-balancing mode "
               "the Workloads dock shows (computed in the background)"),
    *(ActionSpec(f"collapse-{kind}", f"Collapse All {title}", "collapse_all", args=(kind,),
                 icon="collapse",
                 tip=f"draw each {kind if kind != 'su' else 'scalable unit'} as one box")
      for kind, title in COLLAPSE_TEXTS),
    ActionSpec("expand-all", "E&xpand All Groups", "expand_all", icon="expand",
               tip="show every device of the collapsed groups"),
    ActionSpec("about", "&About aicnet", "about", icon="aicnet-small"),
)

ACTIONS: tuple[ActionSpec, ...] = (FILE_ACTIONS + EDIT_ACTIONS + CONNECT_ACTIONS + ARRANGE_ACTIONS
                                   + VIEW_ACTIONS)
"""Every command of the main window, in the order the window makes them."""
