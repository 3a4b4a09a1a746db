"""The price list of a study, checked line by line.

`aicnet bom --prices` refuses a price list at its first bad row.  A study of a dozen designs
should not stop for one typo, nor make up a total around it: every bad row is reported with its
line (a negative or missing price, a wrong currency code or date, a part listed twice, a part
the catalog does not know, a cable priced without a stock length), the good rows are used, and
the cost of every candidate is then shown as incomplete, because a bad row may have been meant
for a part the candidates use.  A list without a problem is the list `catalog/prices.py`
(`load_price_list`) reads, so a candidate's cost is exactly what `aicnet bom --prices` says for
its file; a file that is not a price list at all (not text, no header, mixed currencies) is
refused with that reader's message.
"""

from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from ..catalog.prices import PRICE_COLUMNS, PriceList, PriceListError, PriceRow, load_price_list
from ..model.catalog import Catalog
from ..model.wording import fmt_m


@dataclass(frozen=True)
class PriceProblem:
    line: int
    part: str
    message: str


@dataclass(frozen=True)
class PriceCheck:
    """A price list as a study uses it: the prices, and every row that was left out or names
    no part of the catalog."""

    path: str
    prices: PriceList
    problems: tuple[PriceProblem, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        return [f"{self.path}: line {p.line}: {p.message}" for p in self.problems]


def _text(path: Path) -> str:
    """The file as text the way `load_price_list` reads it (it has refused anything else)."""
    data = path.read_bytes()
    return data.decode("utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig")


def _rows(path: Path) -> tuple[list[tuple[int, PriceRow]], list[PriceProblem]] | None:
    """Every row of the file with its line, validated one by one; None when the file is not
    text or its header is not a price list's (the strict reader says why)."""
    try:
        lines = _text(path).splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    first = lines[0] if lines else ""
    tabbed = "\t" in first and "," not in first
    reader = csv.DictReader(lines, dialect="excel-tab" if tabbed else "excel")
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    if any(c not in header for c in PRICE_COLUMNS) or len(set(header)) != len(header):
        return None
    rows: list[tuple[int, PriceRow]] = []
    problems: list[PriceProblem] = []
    for line, raw in enumerate(reader, start=2):
        values = {(k or "").strip().lower(): v for k, v in raw.items() if k is not None}
        part = (values.get("part") or "").strip()
        if None in raw:
            problems.append(PriceProblem(line, part, "more values than the header has columns "
                                                     "(a comma in a price or part? quote it)"))
            continue
        if not any((values.get(c) or "").strip() for c in PRICE_COLUMNS):
            continue
        try:
            row = PriceRow.model_validate({c: values.get(c) for c in PRICE_COLUMNS})
        except ValidationError as exc:
            error = exc.errors(include_url=False)[0]
            where = ".".join(str(p) for p in error.get("loc", ()))
            problems.append(PriceProblem(line, part, f"{where}: {error.get('msg')} (row left "
                                                     "out)"))
            continue
        rows.append((line, row))
    return rows, problems


def _catalog_keys(catalog: Catalog) -> tuple[set[str], dict[str, tuple[str, ...]]]:
    """The keys a price row may use for a part (what `analysis.bom.Pricer` looks up), lower
    case; and per cable id, its stock lengths (to say what a cable row should name)."""
    keys: set[str] = set()
    for entry in (*catalog.devices.values(), *catalog.transceivers.values()):
        keys.update(k.lower() for k in (entry.id, *entry.part_numbers, entry.model))
    cables: dict[str, tuple[str, ...]] = {}
    for cable in catalog.cables.values():
        lengths = tuple(fmt_m(s) for s in cable.stock_lengths_m)
        cables[cable.id.lower()] = lengths
        for stock in cable.stock_lengths_m:
            keys.add(f"{cable.id}@{fmt_m(stock)}".lower())
            number = cable.order_number(stock)
            if number:
                keys.add(number.lower())
    return keys, cables


def _unknown(part: str, keys: set[str], cables: dict[str, tuple[str, ...]]) -> str | None:
    key = part.strip().lower()
    if key in keys:
        return None
    cable, _, length = key.partition("@")
    if cable in cables:
        stock = ", ".join(cables[cable])
        if not length:
            return (f"part {part!r} is a cable, priced per stock length: name it "
                    f"{cable}@LENGTH (stock lengths {stock} m) or by its part number")
        return f"part {part!r}: {length} m is not a stock length of {cable} ({stock} m)"
    return (f"part {part!r} is not a catalog id, part number or model of the catalog "
            "(aicnet catalog list); it prices nothing")


def _first_of_each(rows: list[tuple[int, PriceRow]]
                   ) -> tuple[dict[str, PriceRow], list[PriceProblem]]:
    """The rows by part, the first of each; a part listed again is a problem."""
    seen: dict[str, int] = {}
    kept: dict[str, PriceRow] = {}
    problems = []
    for line, row in rows:
        key = row.part.lower()
        if key in seen:
            problems.append(PriceProblem(line, row.part, f"part {row.part!r} is listed twice "
                                         f"(first on line {seen[key]}); this row is left out"))
            continue
        seen[key] = line
        kept[key] = row
    return kept, problems


def check_price_list(path: str | Path, catalog: Catalog) -> PriceCheck:
    """The price list at `path` for a study; PriceListError for a file that is not one."""
    path = Path(path)
    try:
        strict: PriceList | None = load_price_list(path)
        error: PriceListError | None = None
    except PriceListError as exc:
        strict, error = None, exc
    read = _rows(path)
    if read is None:
        if error is not None:
            raise error  # not a price list at all: its reader's own words
        read = ([], [])
    rows, problems = read
    kept, twice = _first_of_each(rows)
    problems += twice
    if strict is None and not problems:
        assert error is not None
        raise error  # every row is good, the file is not (mixed currencies ...)
    keys, cables = _catalog_keys(catalog)
    for line, row in rows:
        message = _unknown(row.part, keys, cables)
        if message is not None:
            problems.append(PriceProblem(line, row.part, message))
    problems.sort(key=lambda p: p.line)
    if strict is not None:
        return PriceCheck(str(path), strict, tuple(problems))
    if not kept:
        raise PriceListError(f"{path}: no row of the price list can be used ("
                             + "; ".join(f"line {p.line}: {p.message}" for p in problems[:3])
                             + ")")
    currencies = Counter(row.currency for row in kept.values())
    if len(currencies) > 1:
        raise PriceListError(f"{path}: the rows mix currencies ({', '.join(sorted(currencies))}); "
                             "one list, one currency")
    prices = PriceList(path.name, next(iter(currencies)),
                       max(row.date for row in kept.values()), kept)
    return PriceCheck(str(path), prices, tuple(problems))
