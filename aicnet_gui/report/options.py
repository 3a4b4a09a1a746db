"""What an export produces: `ExportOptions` (paper, sections, label stock, offsets, profile).

The GUI's File > Export dialog fills one of these; the CLI builds one from its flags.
`validate()` raises ValueError with a message a user understands.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from reportlab.lib.pagesizes import A4, LETTER

from ..catalog.prices import PriceList
from ..model.fabric import LabelProfile
from .label_layout import AVERY_5160, AVERY_L7651, MM, STOCKS, LabelStock

SECTIONS: tuple[str, ...] = (
    "cover", "topology", "analysis", "findings", "traffic", "bom", "design", "schedule", "labels",
)
SECTION_TITLES = {
    "cover": "Cover",
    "topology": "Topology",
    "analysis": "Oversubscription and workload bandwidth",
    "findings": "Findings",
    "traffic": "Traffic and acceptance sheet",
    "schedule": "Cable schedule",
    "labels": "Label sheets",
    "bom": "Bill of materials",
    "design": "Design report",
}
PAPERS = {"a4": A4, "letter": LETTER}
LABEL_CHOICES = ("avery-5160", "avery-l7651", "custom", "none")
PORT_NAME_CHOICES = ("design", "os")


@dataclass
class ExportOptions:
    """Options of `export_pdf`; defaults give the whole plan on A4 with L7651 labels."""

    paper: str = "a4"
    sections: tuple[str, ...] = SECTIONS
    labels: str | None = None
    """avery-5160, avery-l7651, custom (then `custom_labels`), none; None: the paper's stock."""
    custom_labels: LabelStock | None = None
    label_start: int = 0
    """Used labels to skip on the first sheet (0 = start at the top left)."""
    label_offset_mm: tuple[float, float] = (0.0, 0.0)
    """Printer calibration: shift every label by (+x right, +y up) millimetres."""
    label_qr: bool = True
    calibration_page: bool = True
    profile: str | None = None
    """tia-606 or iso-14763; None: the project's Settings.label_profile."""
    generated: datetime | None = None
    """The date printed on the plan; None: now."""
    port_names: str = "design"
    """design: aicnet's port names; os: each device's OS names (Settings.port_os)."""
    prices: PriceList | None = None
    """The user's price list for the BOM's cost (catalog/prices.py); None: no prices."""

    @property
    def page_size(self) -> tuple[float, float]:
        return PAPERS[self.paper]

    def label_stock(self) -> LabelStock | None:
        """The label sheet to print on, or None for no label sheets."""
        choice = self.labels or ("avery-5160" if self.paper == "letter" else "avery-l7651")
        if choice == "none":
            return None
        if choice == "custom":
            return self.custom_labels
        return STOCKS[choice]

    def validate(self) -> None:
        if self.paper not in PAPERS:
            raise ValueError(f"paper must be one of {', '.join(PAPERS)}, not {self.paper!r}")
        unknown = [s for s in self.sections if s not in SECTIONS]
        if unknown:
            raise ValueError(
                f"unknown section {unknown[0]!r}; sections are {', '.join(SECTIONS)}"
            )
        if not self.sections:
            raise ValueError("choose at least one section")
        if self.labels is not None and self.labels not in LABEL_CHOICES:
            raise ValueError(f"labels must be one of {', '.join(LABEL_CHOICES)}")
        if self.labels == "custom":
            if self.custom_labels is None:
                raise ValueError("labels=custom needs a custom label grid")
            self.custom_labels.check()
        stock = self.label_stock()
        if stock is not None and not 0 <= self.label_start < stock.per_page:
            raise ValueError(
                f"label start must be 0..{stock.per_page - 1} for {stock.title}, "
                f"not {self.label_start}"
            )
        if stock is not None:
            self._check_offset(stock)
        if self.port_names not in PORT_NAME_CHOICES:
            raise ValueError(f"port names must be {' or '.join(PORT_NAME_CHOICES)}")
        if self.profile is not None:
            try:
                LabelProfile(self.profile)
            except ValueError:
                raise ValueError(
                    f"label profile must be {' or '.join(p.value for p in LabelProfile)}"
                ) from None


    def _check_offset(self, stock: LabelStock) -> None:
        """The printer calibration shift must be a number that keeps every label on the page
        (`nan` or `1e9` would print blank or broken sheets without a word)."""
        dx, dy = self.label_offset_mm
        if not (math.isfinite(dx) and math.isfinite(dy)):
            raise ValueError(f"label offset must be two numbers in mm, not {dx:g},{dy:g}")
        rects = [stock.slot_rect(slot) for slot in range(stock.per_page)]
        left = min(x for x, _, _, _ in rects) / MM + dx
        right = max(x + w for x, _, w, _ in rects) / MM + dx
        bottom = min(y for _, y, _, _ in rects) / MM + dy
        top = max(y + h for _, y, _, h in rects) / MM + dy
        page_w, page_h = stock.page_w / MM, stock.page_h / MM
        if left < -0.01 or bottom < -0.01 or right > page_w + 0.01 or top > page_h + 0.01:
            raise ValueError(
                f"label offset {dx:g},{dy:g} mm moves labels off the page of {stock.title}: "
                f"the sheet leaves {rects_margin(left - dx, right - dx, page_w)} mm left/right "
                f"and {rects_margin(bottom - dy, top - dy, page_h)} mm bottom/top"
            )


def rects_margin(low: float, high: float, size: float) -> str:
    """`4.8/4.8`: the room a label grid leaves on each side of a page, in mm."""
    return f"{round(low, 2):g}/{round(size - high, 2):g}"


__all__ = ["AVERY_5160", "AVERY_L7651", "ExportOptions", "SECTIONS", "SECTION_TITLES"]
