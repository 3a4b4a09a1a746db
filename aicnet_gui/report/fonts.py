"""The TrueType fonts every PDF of aicnet embeds, so that non-ASCII names print correctly.

reportlab's built-in Helvetica and its bundled Vera fonts stop at Latin-1: a device called
`leaf-Łódź-01` would print with black boxes.  We embed DejaVu Sans (regular, bold, condensed,
condensed bold), which covers Latin Extended, Greek and Cyrillic.  The TTF files come from the
PyPI package `rinoh-typeface-dejavusans` (found without importing it, so its rinohtype dependency
is not needed); a copy in `resources/fonts/`, matplotlib's copy or the Debian `fonts-dejavu-core`
files are used when that package is missing.  If no DejaVu file is found at all we fall back to
Helvetica and say so in `FontSet.warning`.

Font names registered with reportlab: `FONT`, `FONT_BOLD`, `FONT_COND`, `FONT_COND_BOLD`.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ..paths import data_dir

FONT = "aicnet-Sans"
FONT_BOLD = "aicnet-Sans-Bold"
FONT_COND = "aicnet-SansCond"
FONT_COND_BOLD = "aicnet-SansCond-Bold"

_FILES = {
    FONT: "DejaVuSans.ttf",
    FONT_BOLD: "DejaVuSans-Bold.ttf",
    FONT_COND: "DejaVuSansCondensed.ttf",
    FONT_COND_BOLD: "DejaVuSansCondensed-Bold.ttf",
}
# Where a condensed face is missing (matplotlib ships only the regular widths) the normal one
# stands in.
_STAND_IN = {FONT_COND: FONT, FONT_COND_BOLD: FONT_BOLD}
PACKAGE = "rinoh-typeface-dejavusans"


@dataclass(frozen=True)
class FontSet:
    regular: str
    bold: str
    cond: str
    cond_bold: str
    source: str
    warning: str = ""


def _package_dir(module: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _candidate_dirs() -> list[tuple[str, Path]]:
    dirs: list[tuple[str, Path]] = []
    package = _package_dir("rinoh_typeface_dejavusans")
    if package is not None:
        dirs.append((f"PyPI package {PACKAGE}", package))
    dirs.append(("aicnet resources/fonts", data_dir("resources") / "fonts"))
    mpl = _package_dir("matplotlib")
    if mpl is not None:
        dirs.append(("matplotlib", mpl / "mpl-data" / "fonts" / "ttf"))
    dirs.append(("system fonts-dejavu", Path("/usr/share/fonts/truetype/dejavu")))
    return dirs


def _find_files() -> tuple[str, dict[str, Path]]:
    for source, folder in _candidate_dirs():
        found = {name: folder / file for name, file in _FILES.items() if (folder / file).is_file()}
        if FONT in found and FONT_BOLD in found:
            return source, found
    return "", {}


@cache
def fonts() -> FontSet:
    """Register the fonts once per process and say which names to use."""
    source, files = _find_files()
    if not files:
        return FontSet(
            "Helvetica", "Helvetica-Bold", "Helvetica", "Helvetica-Bold",
            "reportlab standard fonts",
            warning=(
                f"no DejaVu TrueType font found (install the Python package {PACKAGE}); "
                "characters outside Latin-1 print as boxes"
            ),
        )
    for name, path in files.items():
        pdfmetrics.registerFont(TTFont(name, str(path)))
    for name, stand_in in _STAND_IN.items():
        if name not in files:
            pdfmetrics.registerFont(TTFont(name, str(files[stand_in])))
    return FontSet(FONT, FONT_BOLD, FONT_COND, FONT_COND_BOLD, source)
