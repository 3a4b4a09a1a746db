"""As built vs as designed: read what was observed on the installed cluster and compare it with
the design (no Qt).

    read_lldp(paths) / read_ibnetdiscover(path) / read_netbox_cables(path) -> Observation
    read_host_map(path) -> {observed host: design name}
    compare(doc, observation, namer, host_map) -> Comparison      # the differences
    rework_list(doc, comparison) -> [ReworkItem]                   # by rack, with label ids

Bad input files raise `fileio.errors.FabricFileError` naming the file and the place.  The CLI
(`aicnet verify`) and the GUI (File > Verify Against As-Built...) both use this package.
"""

from .differences import KIND_TITLES, Comparison, Difference, compare
from .hostmap import read_host_map
from .ibnet import read_ibnetdiscover
from .lldp import read_lldp
from .netbox_csv import read_netbox_cables
from .observed import Observation, ObservedEnd, ObservedLink
from .rework import ReworkItem, render_text, rework_list, to_json, write_csv_list

__all__ = [
    "KIND_TITLES",
    "Comparison",
    "Difference",
    "ObservedEnd",
    "ObservedLink",
    "Observation",
    "ReworkItem",
    "compare",
    "read_host_map",
    "read_ibnetdiscover",
    "read_lldp",
    "read_netbox_cables",
    "render_text",
    "rework_list",
    "to_json",
    "write_csv_list",
]
