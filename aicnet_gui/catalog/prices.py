"""A user's price list: CSV rows `part,unit_price,currency,date` that fill the BOM's cost.

aicnet invents no prices and the built-in catalogs carry none.  A price list is the user's own
(a quote, a distributor's sheet): one row per part, where `part` is a catalog id
(`nvidia-qm9700`), a vendor part number (`MFP7E10-N003`, `MQM9700-NS2F`), or for a cable a
catalog id at one stock length in metres (`nvidia-mfp7e10@3`, the key `aicnet bom` prints).  Every row
uses one currency; `date` is the price's date (ISO `YYYY-MM-DD`), and the list's date is the
latest one.  The file is read a line at a time (at most `MAX_PRICE_BYTES`, `MAX_PRICE_ROWS`
rows, `MAX_PRICE_LINE` bytes a line); anything else is a message naming the file and the line.
Where one is found: `--prices FILE`, else `<design>.prices.csv` or `prices.csv`
next to the design, else `prices.csv` in the user catalog folder.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
from collections.abc import Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any, BinaryIO

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..model.limits import MAX_PRICE_BYTES, MAX_PRICE_LINE, MAX_PRICE_ROWS
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


@dataclass(frozen=True)
class PriceRecord:
    """One non-blank row of a price list file as read: the line it ends on, its part as
    written, and the validated row, or why the row is not one."""

    line: int
    part: str
    row: PriceRow | None
    problem: str = ""
    """Why `row` is None: a value the row model refuses (`unit_price: ...`), or more values
    than the header has columns."""
    extra_values: int = 0
    """Values beyond the header's columns (then `row` is None)."""


def load_price_list(path: str | Path) -> PriceList:
    """Read a price list CSV a line at a time; raise `PriceListError` naming the file and the
    line of a bad row, or the limit a file goes past (`MAX_PRICE_BYTES`, `MAX_PRICE_ROWS`,
    `MAX_PRICE_LINE`)."""
    path = Path(path)
    rows: dict[str, PriceRow] = {}
    with closing(read_price_records(path)) as records:
        for record in records:
            if record.row is None:
                raise PriceListError(f"{path}: line {record.line}: {record.problem}")
            key = record.row.part.lower()
            if key in rows:
                raise PriceListError(f"{path}: line {record.line}: part {record.row.part!r} is "
                                     "listed twice")
            rows[key] = record.row
    return price_list(path, rows)


def price_list(path: Path, rows: dict[str, PriceRow]) -> PriceList:
    """The list of `rows` (by lower-case part): one currency, dated by its latest row."""
    if not rows:
        raise PriceListError(f"{path}: the price list has no rows")
    currencies = sorted({row.currency for row in rows.values()})
    if len(currencies) > 1:
        raise PriceListError(
            f"{path}: the rows mix currencies ({', '.join(currencies)}); one list, one currency"
        )
    return PriceList(path.name, currencies[0], max(row.date for row in rows.values()), rows)


def read_price_records(path: Path) -> Iterator[PriceRecord]:
    """The rows of the price list at `path`, one by one with their lines, each validated on
    its own; a file that is no price list or goes past a limit (`MAX_PRICE_BYTES`,
    `MAX_PRICE_ROWS`, `MAX_PRICE_LINE`) raises `PriceListError` naming the file and the
    line.  The one reader of price list files: `load_price_list` stops at the first bad row,
    the study's check (study/price_check.py) reports each."""
    try:
        size = path.stat().st_size
        if size > MAX_PRICE_BYTES:
            raise PriceListError(f"{path}: the file has {size:,} bytes; a price list is at most "
                                 f"{MAX_PRICE_BYTES:,} bytes")
        with path.open("rb") as raw:
            yield from _records(path, _text_lines(path, raw))
    except OSError as exc:
        raise PriceListError(f"{path}: cannot read the price list: {exc.strerror or exc}") from None


def _price_reader(path: Path, lines: Iterator[str]) -> tuple[csv.DictReader, list[str]]:
    """A CSV reader of `lines` (comma or, for Excel's "Unicode text", tab separated) and its
    header, lower case; a header that is no price list's raises."""
    first = next(lines, "")
    tabbed = "\t" in first and "," not in first  # Excel's "Unicode text" is tab-separated
    reader = csv.DictReader(chain([first], lines), dialect="excel-tab" if tabbed else "excel")
    try:
        header = [h.strip().lower() for h in (reader.fieldnames or [])]
    except csv.Error as exc:
        raise PriceListError(f"{path}: line 1: {exc}") from None
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
    return reader, header


def _records(path: Path, lines: Iterator[str]) -> Iterator[PriceRecord]:
    reader, header = _price_reader(path, lines)
    records = iter(reader)
    for count in range(1, MAX_PRICE_ROWS + 2):
        try:
            raw = next(records, None)
        except csv.Error as exc:  # a field the csv module will not hold, a quote left open
            raise PriceListError(f"{path}: line {reader.line_num}: {exc}") from None
        if raw is None:
            return
        line = reader.line_num
        if count > MAX_PRICE_ROWS:
            raise PriceListError(f"{path}: line {line}: a price list holds at most "
                                 f"{MAX_PRICE_ROWS:,} rows")
        record = _record(line, raw, len(header))
        if record is not None:
            yield record


def _record(line: int, raw: dict[str | None, Any], columns: int) -> PriceRecord | None:
    """One CSV row as a price record; None for a blank row."""
    values = {(k or "").strip().lower(): v for k, v in raw.items() if k is not None}
    part = (values.get("part") or "").strip()
    if None in raw:  # more values than the header has columns
        extra = len(raw[None])
        return PriceRecord(line, part, None, f"{columns + extra} values under a header of "
                           f"{columns} columns (a comma in a price or part? quote it)", extra)
    if not any((values.get(c) or "").strip() for c in PRICE_COLUMNS):
        return None
    try:
        return PriceRecord(line, part, PriceRow.model_validate(
            {c: values.get(c) for c in PRICE_COLUMNS}))
    except ValidationError as exc:
        first_error = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first_error.get("loc", ()))
        return PriceRecord(line, part, None, f"{where}: {first_error.get('msg')}")


def _text_lines(path: Path, raw: BinaryIO) -> Iterator[str]:
    """The file's lines as text, each read whole or refused: UTF-8 (a BOM allowed), or UTF-16
    with its BOM (Excel's "Unicode text"); a byte that is not text is refused with its line."""
    encoding = "utf-16" if raw.read(2) in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig"
    raw.seek(0)
    decoder = codecs.getincrementaldecoder(encoding)()
    pending, number = "", 0
    while True:
        chunk = raw.readline(MAX_PRICE_LINE + 1)
        if len(chunk) > MAX_PRICE_LINE:
            raise PriceListError(f"{path}: line {number + 1}: a line of more than "
                                 f"{MAX_PRICE_LINE:,} bytes; a row is a part, a price, a "
                                 "currency and a date")
        try:
            pending += decoder.decode(chunk, final=not chunk)
        except UnicodeDecodeError:
            raise PriceListError(
                f"{path}: line {number + 1}: not {'UTF-16' if encoding == 'utf-16' else 'UTF-8'}"
                " text; save the price list as 'CSV UTF-8'") from None
        *whole, pending = pending.split("\n")  # UTF-16 ends a line a byte after UTF-8 would
        for line in whole:
            number += 1
            yield line + "\n"
        if not chunk:
            break
    if pending:
        yield pending


def find_price_list(design: str | Path | None) -> Path | None:
    """The price list that goes with `design`: `<design>.prices.csv` or `prices.csv` next to
    it, else `prices.csv` in the user catalog folder; None when there is none."""
    candidates: list[Path] = []
    if design is not None:
        design = Path(design)
        candidates += [design.with_name(design.stem + ".prices.csv"), design.with_name(PRICES_FILE)]
    candidates.append(user_catalog_path() / PRICES_FILE)
    return next((p for p in candidates if p.is_file()), None)
