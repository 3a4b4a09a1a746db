"""A user's price list: CSV rows `part,unit_price,currency,date` that fill the BOM's cost.

aicnet invents no prices and the built-in catalogs carry none.  A price list is the user's own
(a quote, a distributor's sheet): one row per part, where `part` is a catalog id
(`nvidia-qm9700`), a vendor part number (`MFP7E10-N003`, `MQM9700-NS2F`), or for a cable a
catalog id at one stock length in metres (`nvidia-mfp7e10@3`, the key `aicnet bom` prints).  Every row
uses one currency; `date` is the price's date (ISO `YYYY-MM-DD`), and the list's date is the
latest one.  Where one is found: `--prices FILE`, else `<design>.prices.csv` or `prices.csv`
next to the design, else `prices.csv` in the user catalog folder.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .loader import user_catalog_path

PRICE_COLUMNS = ("part", "unit_price", "currency", "date")
PRICES_FILE = "prices.csv"


class PriceListError(ValueError):
    """A price list that cannot be read; the message names the file and the line."""


class PriceRow(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    part: str = Field(min_length=1)
    unit_price: float = Field(ge=0, allow_inf_nan=False)
    currency: str = Field(pattern=r"^[A-Z]{3}$", description="ISO 4217 code, e.g. USD, EUR")
    date: dt.date

    @field_validator("part", "currency", mode="before")
    @classmethod
    def _strip(cls, value: object) -> object:
        return value.strip() if isinstance(value, str) else value


@dataclass(frozen=True)
class PriceList:
    """The rows of one price list file, looked up by part (case-insensitive)."""

    name: str
    currency: str
    date: dt.date
    rows: dict[str, PriceRow] = field(default_factory=dict)

    def price(self, keys: Iterable[str]) -> float | None:
        """The unit price of the first of `keys` (most specific first) that the list has."""
        for key in keys:
            row = self.rows.get(key.strip().lower())
            if row is not None:
                return row.unit_price
        return None

    def describe(self) -> str:
        """`prices.csv (EUR, 2026-11-30)`: what a report says about the list it used."""
        return f"{self.name} ({self.currency}, {self.date.isoformat()})"


def load_price_list(path: str | Path) -> PriceList:
    """Read a price list CSV; raise `PriceListError` naming the file and line of a bad row."""
    path = Path(path)
    text = _read_text(path)
    lines = text.splitlines()
    first = lines[0] if lines else ""
    tabbed = "\t" in first and "," not in first  # Excel's "Unicode text" is tab-separated
    reader = csv.DictReader(lines, dialect="excel-tab" if tabbed else "excel")
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    twice = sorted({h for h in header if h and header.count(h) > 1})
    if twice:
        raise PriceListError(f"{path}: line 1: the header names {', '.join(twice)} twice; "
                             "which column holds the price would be a guess")
    missing = [c for c in PRICE_COLUMNS if c not in header]
    if missing:
        raise PriceListError(
            f"{path}: line 1: the header needs the columns {', '.join(PRICE_COLUMNS)}; "
            f"missing {', '.join(missing)}"
        )
    rows: dict[str, PriceRow] = {}
    for line, raw in enumerate(reader, start=2):
        if None in raw:  # more values than the header has columns
            raise PriceListError(f"{path}: line {line}: {len(header) + len(raw[None])} values "
                                 f"under a header of {len(header)} columns (a comma in a "
                                 "price or part? quote it)")
        values = {(k or "").strip().lower(): v for k, v in raw.items()}
        if not any((values.get(c) or "").strip() for c in PRICE_COLUMNS):
            continue
        try:
            row = PriceRow.model_validate({c: values.get(c) for c in PRICE_COLUMNS})
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            raise PriceListError(f"{path}: line {line}: {where}: {first.get('msg')}") from None
        key = row.part.lower()
        if key in rows:
            raise PriceListError(f"{path}: line {line}: part {row.part!r} is listed twice")
        rows[key] = row
    if not rows:
        raise PriceListError(f"{path}: the price list has no rows")
    currencies = sorted({row.currency for row in rows.values()})
    if len(currencies) > 1:
        raise PriceListError(
            f"{path}: the rows mix currencies ({', '.join(currencies)}); one list, one currency"
        )
    return PriceList(path.name, currencies[0], max(row.date for row in rows.values()), rows)


def _read_text(path: Path) -> str:
    """The file as text: UTF-8 (a BOM allowed), or UTF-16 with its BOM (Excel's "Unicode
    text"); anything else is refused with the place of the first byte that is not UTF-8."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise PriceListError(f"{path}: cannot read the price list: {exc.strerror or exc}") from None
    encoding = "utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise PriceListError(
            f"{path}: line {line}: not UTF-8 text (byte {exc.start + 1}); save the price list "
            "as 'CSV UTF-8'") from None


def find_price_list(design: str | Path | None) -> Path | None:
    """The price list that goes with `design`: `<design>.prices.csv` or `prices.csv` next to
    it, else `prices.csv` in the user catalog folder; None when there is none."""
    candidates: list[Path] = []
    if design is not None:
        design = Path(design)
        candidates += [design.with_name(design.stem + ".prices.csv"), design.with_name(PRICES_FILE)]
    candidates.append(user_catalog_path() / PRICES_FILE)
    return next((p for p in candidates if p.is_file()), None)
