"""Cabling plan exports (reportlab, pure Python, no Qt): PDF, label sheets and CSV files.

The API the GUI's File > Export dialog and the `aicnet export` command use:

    export_pdf(doc, out_path, options: ExportOptions, progress=None, cancelled=None)
        -> ExportResult        # raises ExportCancelled (nothing written) when cancelled()
    export_csv(doc, out_path)              # the cable schedule
    export_labels_csv(doc, out_path)       # one row per label end (P-touch, Brady, Dymo)
    export_netbox(doc, out_dir)            # NetBox bulk-import CSVs
    export_p2p(doc, out_path)              # NVIDIA Cable Validation Tool P2P sheet

`progress(fraction, message)` gets 0..1 from the exporting thread; `cancelled()` is polled at
least once per page.  `build_plan(doc)` gives the cable plan (rows, rack sections, label ends)
that all of them share; `identifiers.Identifiers` formats TIA-606 / ISO 14763 identifiers.
"""

from .cables import CablePlan, build_plan
from .csv_exports import export_csv, export_labels_csv, export_p2p
from .identifiers import Identifiers, cable_number
from .label_layout import AVERY_5160, AVERY_L7651, LabelStock, label_rects, parse_custom_stock
from .netbox import export_netbox
from .options import SECTIONS, ExportOptions
from .plan_pdf import ExportResult, export_pdf
from .progress import ExportCancelled

__all__ = [
    "AVERY_5160",
    "AVERY_L7651",
    "SECTIONS",
    "CablePlan",
    "ExportCancelled",
    "ExportOptions",
    "ExportResult",
    "Identifiers",
    "LabelStock",
    "build_plan",
    "cable_number",
    "export_csv",
    "export_labels_csv",
    "export_netbox",
    "export_p2p",
    "export_pdf",
    "label_rects",
    "parse_custom_stock",
]
